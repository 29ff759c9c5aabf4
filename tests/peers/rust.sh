#!/usr/bin/env bash
# Peers' own test suites, Rust: the tests/ of the aes-gcm and chacha20poly1305 crates (crates.io
# packages on aead 0.6, the trait version libaead's binding implements), run first unchanged on the
# crates themselves (the control) and then on libaead's binding under the crate's name.
#
#   aes-gcm 0.11.1           tests/aes128gcm.rs, aes256gcm.rs (NIST CAVS + Wycheproof), other_ivlen.rs
#   chacha20poly1305 0.11.0  tests/lib.rs (RFC 8439, draft-irtf-cfrg-xchacha, Wycheproof; XChaCha too)
#
# The crates' code is not in the repository: tests/peers/rust/project/ is a cargo workspace with a
# control and a libaead member per crate, pinned with checksums by its Cargo.lock (--locked). It is
# copied into the cache, each member gets the tests/ of the crate's package as cargo unpacked it,
# and the libaead members' `aes-gcm` / `chacha20poly1305` dependency is libaead's binding renamed
# (a dependency rename: the test files keep their imports). The only edits to test text are the
# rewrites in tests/peers/rust/<crate>.sed. Every test that passes on the control and not on libaead
# must be listed in tests/peers/differences.txt under `## rust` (`<crate> <target>::<test> <reason>`);
# an unlisted difference fails, and so does a listed one that no longer occurs.
#
# Usage (from anywhere): bash tests/peers/rust.sh
# Links the meson build in $AEAD_BUILD_DIR (default <repo>/build; set up and compiled when absent)
# through pkg-config, as bindings/rust/test.sh does. Cache: ${XDG_CACHE_HOME:-$HOME/.cache}/libaead/peers-rust
# (the scratch workspace and its CARGO_TARGET_DIR).
# After a change of the binding's version or dependencies, or of a pin in the members' manifests:
# `cargo update -w --manifest-path <cache>/project/Cargo.toml` and copy its Cargo.lock back here.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
src=$here/rust
crates=(aes-gcm chacha20poly1305)

say() { echo "peers rust: $*"; }
die() { echo "peers rust: $*" >&2; exit 1; }

command -v cargo >/dev/null 2>&1 || die "cargo not found; install a Rust toolchain (>= 1.85)"
command -v pkg-config >/dev/null 2>&1 || die "pkg-config not found (apt-get install pkg-config)"
command -v python3 >/dev/null 2>&1 || die "python3 not found (reads cargo metadata)"

# The library: the meson build, made here when a fresh clone has none.
build=${AEAD_BUILD_DIR:-$repo/build}
if [ ! -e "$build/libaead.so.1" ] || [ ! -d "$build/meson-uninstalled" ]; then
    say "no libaead in $build: meson setup and compile"
    (cd "$repo" && { [ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null; } && meson compile -C "$build" >/dev/null) ||
        die "the meson build of libaead in $build failed"
fi
source "$repo/tests/lib/build_dir.sh"
AEAD_BUILD_DIR=$build && use_build_dir peers-rust && build=$AEAD_BUILD_DIR
export LIBAEAD_SYS_USE_PKG_CONFIG=1
export RUSTFLAGS="-D warnings"

cache=${XDG_CACHE_HOME:-$HOME/.cache}/libaead/peers-rust
project=$cache/project
export CARGO_TARGET_DIR=$cache/target
logs=$cache/logs
mkdir -p "$project" "$logs"

# Writes $2 only when its content changes: unchanged files keep their mtimes, so a warm run builds nothing.
put() {
    mkdir -p "$(dirname "$2")"
    cmp -s "$1" "$2" || cp "$1" "$2"
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One run at a time per cache (the project's files, its binding link and the target directory).
exec 9>"$cache/lock"
flock 9
# The workspace. The libaead members reach the binding through the link <cache>/binding, so every
# checkout builds the same package (a fresh clone recompiles only what its new mtimes make stale).
(cd "$src/project" && find . -type f) | while read -r f; do
    put "$src/project/$f" "$project/$f"
done
ln -sfn "$repo/bindings/rust" "$cache/binding"
cargo="cargo --quiet"
$cargo fetch --locked --manifest-path "$project/Cargo.toml" || die "cargo fetch --locked failed"

# Each crate's package directory (downloaded and checksummed against Cargo.lock by cargo).
$cargo metadata --locked --offline --format-version 1 --manifest-path "$project/Cargo.toml" >"$tmp/metadata.json"
declare -A pkg_dir
for crate in "${crates[@]}"; do
    read -r version manifest < <(python3 - "$tmp/metadata.json" "$crate" <<'EOF'
import json, sys
meta = json.load(open(sys.argv[1]))
found = [p for p in meta["packages"] if p["name"] == sys.argv[2] and (p["source"] or "").startswith("registry+")]
if len(found) != 1:
    sys.exit(f"{len(found)} crates.io packages named {sys.argv[2]} in the resolve")
print(found[0]["version"], found[0]["manifest_path"])
EOF
    ) || die "cargo metadata: no single $crate package"
    pkg_dir[$crate]=$(dirname "$manifest")
    say "$crate $version: $(cd "${pkg_dir[$crate]}" && find tests -name '*.rs' | sort | paste -sd ' ')"
    [ -d "${pkg_dir[$crate]}/tests" ] || die "$crate $version ships no tests/ directory"
done

# The tests/ of each package into both members; the libaead member's copies go through <crate>.sed.
for crate in "${crates[@]}"; do
    pdir=${pkg_dir[$crate]}
    (cd "$pdir" && find tests -type f) | while read -r f; do
        put "$pdir/$f" "$project/$crate/control/$f"
        if [ -f "$src/$crate.sed" ] && [[ "$f" == *.rs ]]; then
            sed -f "$src/$crate.sed" "$pdir/$f" >"$tmp/file"
        else
            cp "$pdir/$f" "$tmp/file"
        fi
        put "$tmp/file" "$project/$crate/libaead/$f"
    done
done
# A rewrite that stops matching (a new package version) must not go unnoticed.
if grep -q 'fn clone_impl' "$project/chacha20poly1305/libaead/tests/lib.rs" ||
    ! grep -q 'fn clone_impl' "$project/chacha20poly1305/control/tests/lib.rs"; then
    die "chacha20poly1305.sed no longer removes chacha20::clone_impl from tests/lib.rs"
fi

# Build everything first (both cores): a member that does not compile fails the stage.
if ! $cargo test --locked --workspace --no-run --manifest-path "$project/Cargo.toml" >"$logs/build.log" 2>&1; then
    cat "$logs/build.log" >&2
    die "building the scratch workspace failed"
fi

# Runs one member's tests; prints `<target>::<test> <ok|FAILED|ignored>` for each, and checks the
# count against cargo's own `test result:` summaries. Checks which libaead.so.1 the binaries load.
run_member() {  # crate variant
    local log=$logs/$1-$2.log
    cargo test --locked --no-fail-fast --manifest-path "$project/$1/$2/Cargo.toml" >"$log" 2>&1 || true
    awk -v log_file="$log" '
        /^ +Running tests\/.*\.rs \(/ { target = $2; sub(/^tests\//, "", target); sub(/\.rs$/, "", target)
                                        bin = $3; gsub(/[()]/, "", bin); print "#bin " bin; next }
        /^test .* \.\.\. (ok|FAILED|ignored)$/ { print target "::" $2, $NF; n++ }
        /^test result: / { for (i = 1; i <= NF; i++) if ($i ~ /^(passed|failed|ignored);?$/) summed += $(i - 1) }
        END { if (n != summed) { print "peers rust: " log_file ": " n " result lines, summaries say " summed > "/dev/stderr"; exit 1 } }
    ' "$log"
}

diff_file=$here/differences.txt
listed=$(awk '/^## / { section = $2; next } section == "rust" && NF && $1 !~ /^#/ { print $1, $2 }' "$diff_file")
total_pass=0 total_fail=0 total_listed=0 bad=0
for crate in "${crates[@]}"; do
    declare -A control=() libaead=()
    for variant in control libaead; do
        run_member "$crate" "$variant" >"$tmp/results" || die "could not read the results of $crate ($variant)"
        grep -q '^#bin ' "$tmp/results" || die "$crate ($variant) ran no test binary (see $logs/$crate-$variant.log)"
        while read -r _ bin; do
            linked=$(ldd "$bin" | grep 'libaead\.so' || true)
            if [ "$variant" = libaead ] && [[ "$linked" != *"=> $build/libaead.so.1 "* ]]; then
                die "$bin does not load $build/libaead.so.1: ${linked:-no libaead at all}"
            elif [ "$variant" = control ] && [ -n "$linked" ]; then
                die "the control $bin loads libaead: $linked"
            fi
        done < <(grep '^#bin ' "$tmp/results")
        while read -r id status; do
            if [ "$variant" = control ]; then control[$id]=$status; else libaead[$id]=$status; fi
        done < <(grep -v '^#bin ' "$tmp/results")
    done
    c_pass=0 l_pass=0 l_fail=0 k=0
    for id in "${!control[@]}"; do
        if [ "${control[$id]}" = ok ]; then
            c_pass=$((c_pass + 1))
        else
            echo "peers rust: $crate $id: ${control[$id]} on the control (the crate itself)" >&2
            bad=1
        fi
    done
    [ "$c_pass" -gt 0 ] || { echo "peers rust: $crate: the control ran no tests" >&2; bad=1; }
    for id in "${!libaead[@]}"; do
        [ -n "${control[$id]:-}" ] || { echo "peers rust: $crate $id: runs on libaead but not on the control" >&2; bad=1; }
    done
    for id in $(printf '%s\n' "${!control[@]}" | sort); do
        status=${libaead[$id]:-not built}
        if [ "$status" = ok ]; then
            l_pass=$((l_pass + 1))
            if grep -qxF "$crate $id" <<<"$listed"; then
                echo "peers rust: $crate $id: listed in differences.txt but passes on libaead now: remove the line" >&2
                bad=1
            fi
            continue
        fi
        if grep -qxF "$crate $id" <<<"$listed"; then
            k=$((k + 1))
            echo "  listed difference: $crate $id ($status on libaead)"
        else
            l_fail=$((l_fail + 1))
            echo "peers rust: $crate $id: passes on the control, $status on libaead, not listed in differences.txt" >&2
            bad=1
        fi
    done
    # A listed test the control no longer has is stale too.
    while read -r suite id; do
        if [ "$suite" = "$crate" ] && [ -z "${control[$id]:-}" ]; then
            echo "peers rust: $crate $id: listed in differences.txt but not in the suite" >&2
            bad=1
        fi
    done <<<"$listed"
    say "$crate: control $c_pass passed; libaead $l_pass passed; listed differences $k"
    total_pass=$((total_pass + l_pass)) total_fail=$((total_fail + l_fail)) total_listed=$((total_listed + k))
    unset control libaead
done
while read -r suite _; do
    [ -z "$suite" ] || [[ " ${crates[*]} " == *" $suite "* ]] ||
        { echo "peers rust: differences.txt names $suite, which is not a suite here" >&2; bad=1; }
done <<<"$listed"
# Failed: the control's passes that fail on libaead unlisted; the listed differences are counted apart.
echo "peers rust: $total_listed listed differences (tests/peers/differences.txt)"
echo "$total_pass passed, $total_fail failed"
[ "$bad" = 0 ] || die "FAILED (logs in $logs)"
