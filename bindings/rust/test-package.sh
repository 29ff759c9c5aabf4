#!/usr/bin/env bash
# The two crates as a registry would hold them: package.sh makes libaead-X.Y.Z.crate and
# rustls-libaead-A.B.C.crate (`cargo package` verifies each by building it unpacked, in isolation,
# rustls-libaead against the libaead package; csrc/ is checked identical to lib/, shim/, include/),
# then rustls-libaead's own tests and examples run from its unpacked .crate, with libaead patched to
# the unpacked libaead .crate (never to the repository): in-memory TLS 1.2 / 1.3 handshakes over
# every suite against rustls+ring, the fork rules, record-layer checks. Bundled libaead on the
# system libcrypto, no meson build, no PKG_CONFIG_PATH / LD_LIBRARY_PATH / LIBAEAD_* variables.
# The libaead crate's own modes from its package: test.py --package [--vendored | --pkg-config].
#   bash bindings/rust/test-package.sh
# Needs: cargo, a C++20 compiler, pkg-config, libssl-dev and the openssl CLI (the tests' certificates).
# LIBAEAD_CRATES_DIR=<dir holding both .crate files> tests those (made by package.sh already, as the
# release stage does) instead of packaging this checkout again.
# One cargo target directory serves every build (the verification builds and the tests share rustls,
# ring, quinn and tokio); it is kept in the cache folder, so that registry dependencies are built
# once per machine (the unpacked packages are at new paths each run, so they are always rebuilt).
# TMPDIR decides where the work directory is.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/libaead-test-package.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
unset PKG_CONFIG_PATH LD_LIBRARY_PATH LIBAEAD_SYS_USE_PKG_CONFIG RUSTFLAGS
export CARGO_TARGET_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/libaead/rust-package-target"

if [ -n "${LIBAEAD_CRATES_DIR:-}" ]; then
    mkdir -p "$WORK/crates"
    cp "$LIBAEAD_CRATES_DIR"/libaead-[0-9]*.crate "$LIBAEAD_CRATES_DIR"/rustls-libaead-[0-9]*.crate "$WORK/crates/"
else
    bash "$HERE/package.sh" --allow-dirty --out "$WORK/crates"
fi

mkdir -p "$WORK/unpacked"
for crate in "$WORK"/crates/*.crate; do tar -xzf "$crate" -C "$WORK/unpacked"; done
LIBAEAD="$(ls -d "$WORK"/unpacked/libaead-[0-9]*)"
RUSTLS="$(ls -d "$WORK"/unpacked/rustls-libaead-[0-9]*)"
echo "== rustls-libaead's tests from $(basename "$RUSTLS").crate, libaead from $(basename "$LIBAEAD").crate"
(cd "$RUSTLS" && nice cargo test --jobs 2 --config "patch.crates-io.libaead.path=\"$LIBAEAD\"") 2>&1 |
    tee "$WORK/rustls-test.log"
grep -q "Compiling libaead v[0-9.]* ($LIBAEAD)" "$WORK/rustls-test.log" || {
    echo "test-package.sh: libaead was not compiled from the unpacked package $LIBAEAD" >&2
    exit 1
}
echo "== crates:"
(cd "$WORK/crates" && ls -l ./*.crate | awk '{print "   " $5 " bytes  " $NF}')
echo "== bindings/rust and bindings/rustls-libaead from their packages: passed"
