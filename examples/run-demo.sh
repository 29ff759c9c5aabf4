#!/usr/bin/env bash
# Installs what is missing, builds libaead and the demo (only those: `meson compile -C build` builds the
# test suites too) and runs the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tests/setup.sh
[ -f build/build.ninja ] || meson setup build --buildtype=release
meson compile -C build aead-demo
exec build/examples/aead-demo
