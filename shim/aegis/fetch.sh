#!/usr/bin/env bash
# Fetches libaegis's C sources (the AEGIS family, RFC 10032) from the pinned `aegis` crate on crates.io,
# once, into a cache outside the clone, and prints the directory as the last line of stdout: it holds
# src/ (the crate's src/c/libaegis/src: include/, common/, aegis128l/, ...), LICENSE (libaegis's MIT
# licence, the crate's), SOURCES and MANIFEST.sha256. meson.build runs it at configure time and
# compiles the files shim/aegis/sources.txt lists.
#
#   crates.io  aegis 0.9.20  (Frank Denis's libaegis, MIT)  -> src/, LICENSE
#
# cargo is the ordinary client for crates.io: Cargo.toml beside this script pins the version, Cargo.lock
# the checksum of the index (cargo fetch --locked checks the download against it); the .crate file is
# checked again here before it is unpacked.
# A release's source tarball carries the same files in shim/aegis/libaegis/ (meson dist runs this script
# with --dist): when that copy is there and is of the pinned crate, it is used (checked against its
# MANIFEST.sha256) and nothing is fetched, so the tarball builds offline and without cargo.
# Usage: shim/aegis/fetch.sh            fetch what is missing, print the directory
#        shim/aegis/fetch.sh --check    also verify every unpacked file against its MANIFEST.sha256
#        shim/aegis/fetch.sh --into DIR copy the pinned sources (fetched if missing) into DIR, verified
#        shim/aegis/fetch.sh --dist     the same into $MESON_DIST_ROOT/shim/aegis/libaegis (meson dist)
#        shim/aegis/fetch.sh --prefix-header  print the path of a copy of prefix.h named by its content, in
#                                       the cache (the tree's own prefix.h when the tree carries the sources)
# Cache: ${LIBAEAD_AEGIS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libaead/aegis}/<version>-<sha256 prefix>
# Progress and errors go to stderr; the exit code is non-zero if anything could not be fetched or checked.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# The pin: crate version and the sha256 of the .crate file crates.io serves (Cargo.lock has the same).
aegis_crate=0.9.20
aegis_crate_sha256=41585f248ed9406567ae6d61ca2a55ed3dc7348e65203a01229881253acb95e3

say() { echo "aegis: $*" >&2; }
die() { say "$*"; exit 1; }

grep -q "checksum = \"$aegis_crate_sha256\"" "$here/Cargo.lock" || die "Cargo.lock does not pin aegis $aegis_crate's checksum"
root=${LIBAEAD_AEGIS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libaead/aegis}
dir="$root/$aegis_crate-${aegis_crate_sha256:0:12}"
mkdir -p "$root"

verify() { (cd "$1" && sha256sum --quiet --strict -c MANIFEST.sha256) >&2 || die "$1 differs from its MANIFEST.sha256"; }
pinned_line="crates.io aegis $aegis_crate sha256 $aegis_crate_sha256: src/ (src/c/libaegis/src), LICENSE"
mode=${1:-}
into=
case "$mode" in
  ''|--check) ;;
  --into) into=${2:?usage: $0 --into DIR} ;;
  --dist) into=${MESON_DIST_ROOT:?--dist runs under meson dist}/shim/aegis/libaegis ;;
  --prefix-header) ;;
  *) die "usage: $0 [--check | --into DIR | --dist | --prefix-header]" ;;
esac

# meson.build's -include for libaegis's files. ccache (tests/run-all.sh) rewrites a path inside the
# checkout relative to each build folder, so with prefix.h there no two build folders would share an
# object; a copy beside the sources, named by its content, gives every build folder and every clone the
# same command, so ccache compiles libaegis once per compiler and flags.
intree="$here/libaegis"  # a release tarball's or an sdist's copy of the sources (below)
if [ "$mode" = --prefix-header ]; then
    if [ -f "$intree/MANIFEST.sha256" ]; then echo "$here/prefix.h"; exit 0; fi
    copy="$root/prefix-$(sha256sum "$here/prefix.h" | cut -c1-12).h"
    if ! cmp -s "$here/prefix.h" "$copy"; then
        tmp=$(mktemp "$root/.prefix.XXXXXX") && cp "$here/prefix.h" "$tmp" && chmod 644 "$tmp" && mv -f "$tmp" "$copy" ||
            die "could not write $copy"
    fi
    echo "$copy"
    exit 0
fi

copy_into() {  # $dir's tree into $into, verified there
    rm -rf "$into" && mkdir -p "$into" && cp -a "$dir/." "$into/" || die "could not copy $dir to $into"
    verify "$into"
    say "aegis $aegis_crate's sources copied to $into"
    echo "$into"
}

# A copy in the source tree (a release tarball's or an sdist's) of the pinned crate: that one, verified
# (and the source of --into, so that an artifact made from an artifact needs no cargo either).
if [ -f "$intree/MANIFEST.sha256" ] && { [ -z "$into" ] || [ "$(realpath -m "$into")" != "$(realpath "$intree")" ]; }; then
    [ "$(cat "$intree/SOURCES" 2>/dev/null)" = "$pinned_line" ] ||
        die "$intree is not of aegis $aegis_crate (its SOURCES: $(cat "$intree/SOURCES" 2>/dev/null))"
    verify "$intree"
    dir=$intree
    [ -z "$into" ] || { copy_into; exit 0; }
    echo "$intree"
    exit 0
fi

if [ -f "$dir/MANIFEST.sha256" ]; then
    [ "$mode" != --check ] || verify "$dir"
    [ -z "$into" ] || { copy_into; exit 0; }
    echo "$dir"
    exit 0
fi

# One fetch at a time (two build directories configured at once): a second caller waits for the first.
exec 9>"$dir.lock"
flock 9
if [ -f "$dir/MANIFEST.sha256" ]; then
    [ -z "$into" ] || { copy_into; exit 0; }
    echo "$dir"; exit 0
fi

command -v cargo >/dev/null || die "cargo is needed to fetch the aegis crate (tests/setup.sh installs it)"
say "cargo fetch: aegis $aegis_crate (crates.io)"
cargo fetch --locked --quiet --manifest-path "$here/Cargo.toml" >&2 || die "cargo fetch failed"
crate=$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/"aegis-$aegis_crate.crate" 2>/dev/null | head -1)
[ -n "$crate" ] || die "aegis-$aegis_crate.crate not found in cargo's cache after cargo fetch"
got=$(sha256sum "$crate" | cut -d' ' -f1)
[ "$got" = "$aegis_crate_sha256" ] || die "aegis-$aegis_crate.crate: sha256 $got, pinned $aegis_crate_sha256"

tmp=$(mktemp -d "$root/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$crate" -C "$tmp" "aegis-$aegis_crate/LICENSE" "aegis-$aegis_crate/src/c/libaegis/src"
out="$tmp/out"
mkdir -p "$out"
mv "$tmp/aegis-$aegis_crate/src/c/libaegis/src" "$out/src"
mv "$tmp/aegis-$aegis_crate/LICENSE" "$out/LICENSE"
while read -r f; do
    case "$f" in ''|'#'*) continue ;; esac
    [ -f "$out/src/$f" ] || die "aegis $aegis_crate has no src/c/libaegis/src/$f (shim/aegis/sources.txt)"
done <"$here/sources.txt"
echo "$pinned_line" >"$out/SOURCES"
# The list that --check verifies; written last, so that its presence means a complete unpack.
(cd "$out" && find . -type f ! -name MANIFEST.sha256 | sort | xargs sha256sum >"$tmp/MANIFEST.sha256")
mv "$tmp/MANIFEST.sha256" "$out/"
rm -rf "$dir"
mv "$out" "$dir"
say "$(find "$dir" -type f | wc -l) files in $dir"
[ -z "$into" ] || { copy_into; exit 0; }
echo "$dir"
