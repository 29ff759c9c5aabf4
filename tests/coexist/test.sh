#!/usr/bin/env bash
# Coexistence of a vendored libaead with the system libcrypto in one process (docs/libcrypto.md):
#   1. C: own EVP AES-GCM calls on the system libcrypto beside libaead, byte-identical outputs, each side
#      names its own OpenSSL;
#   2. C: dlopen + dlclose cycles, with the default provider and then with the FIPS test provider loaded
#      through libaead's hidden libcrypto (tests/fips/env.sh);
#   3. Python: ssl + hashlib (system libcrypto), pyca/cryptography (its own OpenSSL) and libaead through
#      cffi's ffi.dlopen in one process, plain and under the FIPS provider; exit code checked.
# Usage: tests/coexist/test.sh [build dir]  (a -Dlibcrypto=vendored build; default build-vendored)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=$(cd "${1:-${AEAD_BUILD_DIR:-$repo/build-vendored}}" && pwd)
lib="$build/libaead.so.1"
series=$(meson introspect --buildoptions "$build" | python3 -c '
import json, sys
o = {x["name"]: x["value"] for x in json.load(sys.stdin)}
print(o["vendored_openssl"] if o["libcrypto"] == "vendored" else "")')
[ -n "$series" ] || { echo "coexist: $build is not a -Dlibcrypto=vendored build" >&2; exit 1; }
system_version="OpenSSL $(pkg-config --modversion libcrypto)"
unset LD_LIBRARY_PATH  # the programs below find this build's libaead by rpath or by path, nothing else
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== 1. system libcrypto ($system_version) and vendored libaead (OpenSSL $series) in one C program"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -I"$repo/include" -o "$tmp/system_and_vendored" \
    "$here/system_and_vendored.c" $(pkg-config --cflags --libs libcrypto) -L"$build" -laead -Wl,-rpath,"$build"
grep -q "libcrypto.so.3 => /" <<<"$(ldd "$tmp/system_and_vendored")" || { echo "coexist: not linked to the system libcrypto" >&2; exit 1; }
grep -q "libaead.so.1 => $build/" <<<"$(ldd "$tmp/system_and_vendored")" || { echo "coexist: not linked to $lib" >&2; exit 1; }
"$tmp/system_and_vendored" "OpenSSL $series." "$system_version"

echo "== 2. dlopen + dlclose cycles"
cc -std=c11 -Wall -Wextra -Werror -I"$repo/include" -o "$tmp/dlopen_cycles" "$here/dlopen_cycles.c" -ldl
(unset OPENSSL_CONF OPENSSL_MODULES; "$tmp/dlopen_cycles" "$lib" 5 "" default)
(source "$repo/tests/fips/env.sh" && "$tmp/dlopen_cycles" "$lib" 5 "fips=yes" fips)

echo "== 3. Python: ssl, hashlib, pyca/cryptography and libaead (cffi ffi.dlopen) in one process"
PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet "cffi>=1.17" "cryptography>=48"
(unset OPENSSL_CONF OPENSSL_MODULES; python3 "$here/python_process.py" "$lib" "" default) ||
    { echo "coexist: python process failed (exit $?)" >&2; exit 1; }
(source "$repo/tests/fips/env.sh" && conf=$OPENSSL_CONF && unset OPENSSL_CONF &&
    python3 "$here/python_process.py" "$lib" "fips=yes" fips "$conf") ||
    { echo "coexist: python process under the FIPS provider failed (exit $?)" >&2; exit 1; }
echo "coexist: all passed"
