#!/usr/bin/env bash
# Checks what an artifact that links the vendored OpenSSL carries beside it (docs/releasing.md):
#   LICENSE              libaead's, byte-identical to the repository's;
#   LICENSE-OpenSSL.txt  byte-identical to LICENSE.txt of the OpenSSL source shim/openssl/fetch-source.sh
#                        fetches for that version's series (the pinned openssl-src crate);
#   NOTICE               names "OpenSSL <x.y.z>", the version the artifact's own library reports at run
#                        time, and the copyright line of that source's crypto/cversion.c;
#   LICENSE-libaegis.txt byte-identical to the LICENSE of the pinned aegis crate (shim/aegis/fetch.sh):
#                        every libaead since 1.7 has libaegis compiled in.
# Usage: check-notice.sh <label> <directory holding the three files> "<aead_version() of the artifact>"
# Prints one line; exits non-zero naming what is wrong.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
label=${1:?usage: check-notice.sh <label> <dir> <runtime version>}
dir=${2:?usage: check-notice.sh <label> <dir> <runtime version>}
runtime=${3:?usage: check-notice.sh <label> <dir> <runtime version>}
fail() { echo "check-notice: $label: FAIL: $*" >&2; exit 1; }

for f in LICENSE NOTICE LICENSE-OpenSSL.txt LICENSE-libaegis.txt; do [ -s "$dir/$f" ] || fail "no $f beside the library"; done
cmp -s "$dir/LICENSE" "$REPO/LICENSE" || fail "LICENSE differs from the repository's"
aegis=$(bash "$REPO/shim/aegis/fetch.sh" | tail -n 1) || fail "cannot fetch the pinned libaegis"
cmp -s "$dir/LICENSE-libaegis.txt" "$aegis/LICENSE" || fail "LICENSE-libaegis.txt is not the pinned libaegis's LICENSE"
# The version the library runs on, as OpenSSL_version() states it ("OpenSSL 3.5.5 27 Jan 2026").
ran=$(grep -Eo 'OpenSSL [0-9]+\.[0-9]+\.[0-9]+' <<<"$runtime" | head -1) ||
    fail "the artifact's library names no OpenSSL version: $runtime"
named=$(grep -Eo 'includes OpenSSL [0-9]+\.[0-9]+\.[0-9]+' "$dir/NOTICE" | sed 's/^includes //') ||
    fail "NOTICE names no bundled OpenSSL version"
[ "$(wc -l <<<"$named")" = 1 ] || fail "NOTICE names more than one OpenSSL version"
[ "$named" = "$ran" ] || fail "NOTICE names $named, the library runs on $ran"
series=$(sed 's/^OpenSSL \([0-9]*\.[0-9]*\)\..*/\1/' <<<"$ran")
src=$(bash "$REPO/shim/openssl/fetch-source.sh" "$series") || fail "cannot fetch the OpenSSL $series source"
fetched=$(awk -F= '/^MAJOR=/ {a = $2} /^MINOR=/ {b = $2} /^PATCH=/ {c = $2} END {print "OpenSSL " a "." b "." c}' "$src/VERSION.dat")
[ "$fetched" = "$ran" ] || fail "the pinned $series source is $fetched, the library runs on $ran"
cmp -s "$dir/LICENSE-OpenSSL.txt" "$src/LICENSE.txt" || fail "LICENSE-OpenSSL.txt is not $ran's LICENSE.txt"
copyright=$(sed -n 's/^ \* \(Copyright [0-9-]* The OpenSSL Project Authors\..*\)$/\1/p' "$src/crypto/cversion.c" | head -1)
[ -n "$copyright" ] && grep -qxF "$copyright" "$dir/NOTICE" || fail "NOTICE lacks OpenSSL's copyright line ($copyright)"
grep -q 'LICENSE-OpenSSL.txt' "$dir/NOTICE" || fail "NOTICE does not point at LICENSE-OpenSSL.txt"
echo "check-notice: $label: NOTICE names $ran (the library reports: $runtime); LICENSE-OpenSSL.txt = $ran's LICENSE.txt; LICENSE and LICENSE-libaegis.txt ok"
