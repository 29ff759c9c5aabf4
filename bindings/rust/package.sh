#!/usr/bin/env bash
# Makes the two .crate files a registry would hold, exactly as `cargo publish` would upload them:
# libaead-X.Y.Z.crate (the binding, with lib/, shim/ and include/ copied into csrc/ by
# vendor-csrc.sh) and rustls-libaead-A.B.C.crate. `cargo package` builds each one unpacked, in
# isolation (rustls-libaead against the libaead package just made, not against ../rust), the
# csrc/ inside the libaead .crate is checked to be identical to the repository's sources, and its
# NOTICE and LICENSE-OpenSSL.txt against the OpenSSL of its `vendored` feature (tests/release/run.py check-notice).
#   bash bindings/rust/package.sh [--allow-dirty] [--out DIR]   # DIR default: bindings/rust/target/crates
# --allow-dirty: package uncommitted changes too (tests do; a release does not).
# CARGO_TARGET_DIR, if set, is where cargo builds (the packages are then in $CARGO_TARGET_DIR/package).
# Also checks the one version: meson.build's = libaead's = rustls-libaead's libaead requirement.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
RUSTLS="$REPO/bindings/rustls-libaead"
OUT="$HERE/target/crates"
DIRTY=()
while [ $# -gt 0 ]; do
    case "$1" in
        --allow-dirty) DIRTY=(--allow-dirty) ;;
        --out) OUT="$2"; shift ;;
        *) echo "usage: $0 [--allow-dirty] [--out DIR]" >&2; exit 2 ;;
    esac
    shift
done
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

# The first `version = "..."` of a manifest is its [package] version.
manifest_version() { sed -n 's/^version = "\([^"]*\)"/\1/p' "$1" | head -1; }
MESON_VERSION="$(sed -n "s/^  version : '\([^']*\)',/\1/p" "$REPO/meson.build" | head -1)"
VERSION="$(manifest_version "$HERE/Cargo.toml")"
RUSTLS_VERSION="$(manifest_version "$RUSTLS/Cargo.toml")"
REQUIREMENT="$(sed -n 's/^libaead = { version = "\([^"]*\)".*/\1/p' "$RUSTLS/Cargo.toml")"
if [ -z "$MESON_VERSION" ] || [ "$VERSION" != "$MESON_VERSION" ] || [ "$REQUIREMENT" != "$VERSION" ]; then
    echo "package.sh: one version expected: meson.build '$MESON_VERSION', bindings/rust '$VERSION'," \
        "rustls-libaead's libaead requirement '$REQUIREMENT'" >&2
    exit 1
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/libaead-package.XXXXXX")"
LOCK_SAVED=""
cleanup() {
    [ -n "$LOCK_SAVED" ] && cp "$LOCK_SAVED" "$RUSTLS/Cargo.lock"
    rm -rf "$WORK"
}
trap cleanup EXIT

# csrc/ is generated and git-ignored, so cargo counts it as uncommitted and libaead is always
# packaged with --allow-dirty (its .cargo_vcs_info.json then says "dirty": true), and so is
# rustls-libaead (below). What csrc/ is made from, and everything else in the two crates, must be
# committed unless --allow-dirty is given: this check replaces cargo's.
if [ ${#DIRTY[@]} -eq 0 ] && git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
    CHANGES="$(git -C "$REPO" status --porcelain -- lib shim include meson.build bindings/rust bindings/rustls-libaead)"
    if [ -n "$CHANGES" ]; then
        printf 'package.sh: uncommitted changes (pass --allow-dirty to package them anyway):\n%s\n' "$CHANGES" >&2
        exit 1
    fi
fi
bash "$HERE/vendor-csrc.sh"
TARGET="${CARGO_TARGET_DIR:-$HERE/target}"
echo "== cargo package libaead $VERSION"
(cd "$HERE" && nice cargo package -p libaead --allow-dirty --jobs 2)
cp "$TARGET/package/libaead-$VERSION.crate" "$OUT/"
tar -xzf "$OUT/libaead-$VERSION.crate" -C "$WORK"
bash "$HERE/vendor-csrc.sh" --check "$WORK/libaead-$VERSION/csrc"
# NOTICE and LICENSE-OpenSSL.txt, for the OpenSSL the `vendored` feature builds: the openssl-src
# release Cargo.lock pins (300.5.5+3.5.5 is OpenSSL 3.5.5). test.py --package --vendored checks them
# against the version such a build reports at run time.
OPENSSL="$(sed -n '/^name = "openssl-src"$/{n;s/^version = "[^+"]*+\([^"]*\)"$/\1/p;}' "$HERE/Cargo.lock")"
python3 "$REPO/tests/release/run.py" check-notice crate "$WORK/libaead-$VERSION" "OpenSSL $OPENSSL"

# rustls-libaead is its own workspace, so cargo cannot pair it with the libaead package by itself:
# the verification build gets libaead from the .crate just made through a [patch] given on the
# command line. That patch is unused by the workspace, and cargo records it in Cargo.lock as
# [[patch.unused]] (so cargo sees Cargo.lock as changed: --allow-dirty, the check above stands in);
# the lock file is put back afterwards.
TARGET="${CARGO_TARGET_DIR:-$RUSTLS/target}"
echo "== cargo package rustls-libaead $RUSTLS_VERSION (against the libaead $VERSION package)"
LOCK_SAVED="$WORK/rustls-Cargo.lock"
cp "$RUSTLS/Cargo.lock" "$LOCK_SAVED"
(cd "$RUSTLS" && nice cargo package --allow-dirty --jobs 2 \
    --config "patch.crates-io.libaead.path=\"$WORK/libaead-$VERSION\"")
cp "$TARGET/package/rustls-libaead-$RUSTLS_VERSION.crate" "$OUT/"

echo "== crates in $OUT:"
(cd "$OUT" && ls -l "libaead-$VERSION.crate" "rustls-libaead-$RUSTLS_VERSION.crate" | awk '{print "   " $5 " bytes  " $NF}')
