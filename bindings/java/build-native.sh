#!/usr/bin/env bash
# Builds the libaead.so the jar carries: libaead on the vendored OpenSSL 3.5, hidden inside it (the
# wheel's model), through the Python binding's builder (bindings/python/build_libaead.py), and copies it
# into the jar's resources. Run by `mvn package` (exec plugin, generate-resources phase).
# Usage: build-native.sh <classes dir>
# The meson build directory is kept in the cache (one per checkout), so repeats only relink.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
dest="${1:?usage: build-native.sh <classes dir>}/org/libaead/native/linux-x86_64"
cache=${XDG_CACHE_HOME:-$HOME/.cache}/libaead/java
key=$(printf '%s' "$repo" | sha256sum | cut -c1-12)
export LIBAEAD_MESON_BUILD_DIR="$cache/meson-vendored-$key"
mkdir -p "$cache" "$dest"
built=$(cd "$repo/bindings/python" && python3 -c 'import build_libaead, sys; print(build_libaead.build("vendored"))' | tail -1)
# The library must hide its libcrypto: only aead_* exported, no libcrypto.so needed.
bash "$repo/tests/coexist/hidden_symbols.sh" "$LIBAEAD_MESON_BUILD_DIR" >&2
cp "$built" "$dest/libaead.so.tmp"
mv "$dest/libaead.so.tmp" "$dest/libaead.so"
echo "libaead: bundled $built" >&2
