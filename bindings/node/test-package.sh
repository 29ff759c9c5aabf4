#!/usr/bin/env bash
# The npm tarball as a user gets it (the release stage's npm check):
#   1. `npm pack`: the tarball carries the prebuilt linux-x64 addon (vendored OpenSSL 3.5, hidden),
#      the C++ sources for the fallback build (csrc/), LICENSE, NOTICE, LICENSE-OpenSSL.txt and LICENSE-libaegis.txt, no tests;
#   2. installed into a scratch project with no C/C++ compiler or make on PATH: the prebuild must load
#      (node-gyp-build builds nothing), a seal/open round trip runs, and the NOTICE names the OpenSSL
#      version the prebuild reports (tests/release/run.py check-notice);
#   3. the same tarball with prebuilds/ removed, installed into another scratch project: node-gyp-build
#      must build the addon from csrc/ against the system libcrypto, and the round trip runs there too, and
#      test/hpke-pq.test.js (on the system OpenSSL 3.0 its PQ KEMs are refused: 2 vectors pass, 11 refused).
#   bash bindings/node/test-package.sh            (the tarball lands in $AEAD_DIST_DIR, default a temp dir)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
DIST="${AEAD_DIST_DIR:-$TMP/dist}"
mkdir -p "$DIST"
fail() { echo "node package: FAILED: $*" >&2; exit 1; }

bash "$HERE/build-prebuild.sh"
cd "$HERE"
start=$(date +%s)
tarball="$DIST/$(npm pack --silent --pack-destination "$DIST" | tail -n 1)"
[ -f "$tarball" ] || fail "npm pack made no tarball"
list="$(tar tzf "$tarball")"
for f in package/prebuilds/linux-x64/libaead.node package/csrc/include/aead.h package/csrc/lib/seal_open.cpp \
    package/csrc/shim/template.cpp package/csrc/build_config.h package/csrc/sources.txt package/scripts/sources.js package/binding.gyp package/src/addon.cc \
    package/index.js package/index.mjs package/index.d.ts package/LICENSE package/NOTICE package/LICENSE-OpenSSL.txt package/LICENSE-libaegis.txt; do
    grep -qx "$f" <<<"$list" || fail "$f is not in $(basename "$tarball")"
done
! grep -q -E '^package/(test|node_modules|build)/' <<<"$list" || fail "the tarball carries tests, node_modules or build/"
echo "node package: $(basename "$tarball"): $(du -k "$tarball" | cut -f1) KiB, $(wc -l <<<"$list") files"

roundtrip='
const L = require("libaead");
const crypto = require("crypto");
const key = crypto.randomBytes(32), nonce = crypto.randomBytes(12), aad = Buffer.from("hdr");
const pt = Buffer.from("round trip through the installed package");
for (const cls of [L.AESGCM, L.ChaCha20Poly1305]) {
  const a = new cls(key);
  const c = a.encrypt(nonce, pt, aad);
  const name = cls === L.AESGCM ? "aes-256-gcm" : "chacha20-poly1305";
  const d = crypto.createDecipheriv(name, key, nonce, { authTagLength: 16 });
  d.setAAD(aad); d.setAuthTag(c.subarray(-16));
  if (!Buffer.concat([d.update(c.subarray(0, -16)), d.final()]).equals(pt)) throw new Error("node:crypto disagrees");
  if (!a.decrypt(nonce, c, aad).equals(pt)) throw new Error("round trip failed");
  a.close();
}
console.log(L.libraryVersion());
'
scratch() {  # dir: an empty npm project
    mkdir -p "$1" && (cd "$1" && npm init -y >/dev/null)
}

# 2. No compiler: PATH is a directory of links to node, npm and the shell tools npm's scripts use.
NOCC="$TMP/nocc"
mkdir -p "$NOCC"
for t in node npm sh bash env uname; do ln -s "$(readlink -f "$(command -v "$t")")" "$NOCC/$t"; done
for t in cc gcc g++ c++ clang make; do ! PATH="$NOCC" command -v "$t" >/dev/null || fail "$t is on the restricted PATH"; done
scratch "$TMP/a"
(cd "$TMP/a" && PATH="$NOCC" npm install --no-audit --no-fund --loglevel=error "$tarball") || fail "install without a compiler"
[ ! -e "$TMP/a/node_modules/libaead/build" ] || fail "the install without a compiler built something"
v="$(cd "$TMP/a" && PATH="$NOCC" node -e "$roundtrip")" || fail "round trip on the prebuild"
case "$v" in *"OpenSSL 3.5"*) ;; *) fail "the prebuild runs on $v, not the vendored OpenSSL 3.5" ;; esac
echo "node package: prebuild, no compiler on PATH: $v"
# The prebuild links OpenSSL in: the NOTICE at the package root names the version it just reported.
notice=$(python3 "$HERE/../../tests/release/run.py" check-notice npm "$TMP/a/node_modules/libaead" "$v") || fail "NOTICE and licences"
echo "node package: $notice"

# 3. No prebuild: the fallback compiles csrc/ against the system libcrypto.
mkdir -p "$TMP/unpacked"
tar xzf "$tarball" -C "$TMP/unpacked"
rm -rf "$TMP/unpacked/package/prebuilds"
nopre="$TMP/libaead-no-prebuild.tgz"
tar czf "$nopre" -C "$TMP/unpacked" package
nodedir="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
scratch "$TMP/b"
(cd "$TMP/b" && npm_config_nodedir="$nodedir" JOBS=2 nice npm install --no-audit --no-fund --loglevel=error "$nopre" \
    >"$TMP/fallback.log" 2>&1) || { tail -30 "$TMP/fallback.log"; fail "the fallback build"; }
[ -f "$TMP/b/node_modules/libaead/build/Release/aead.node" ] || fail "the fallback built no addon"
undefined="$(nm -D -u "$TMP/b/node_modules/libaead/build/Release/aead.node" | awk '$1 == "U" {print $2}' | grep -v -E '^(napi_|node_api_)|@' || true)"
[ -z "$undefined" ] || fail "the fallback build leaves symbols undefined:" $undefined
v="$(cd "$TMP/b" && node -e "$roundtrip")" || fail "round trip on the fallback build"
echo "node package: fallback build from csrc/ on the system libcrypto: $v"
# HPKE's post-quantum KEMs on the fallback: the test asserts 10 passed + 3 refused on a libcrypto with ML-KEM,
# 2 passed + 11 refused (AEAD_ERR_UNSUPPORTED) on one without it (the system OpenSSL 3.0).
LIBAEAD_NODE_PACKAGE="$TMP/b/node_modules/libaead" node --test "$HERE/test/hpke-pq.test.js" >"$TMP/pq.log" 2>&1 ||
    { tail -40 "$TMP/pq.log"; fail "the HPKE PQ tests on the fallback build"; }
pq=$(grep -o 'vectors hpke/hpke-pq.json: .*' "$TMP/pq.log" | head -1)
[ -n "$pq" ] || fail "the HPKE PQ vectors did not run on the fallback build"
echo "node package: fallback: $pq"
echo "node package: passed in $(($(date +%s) - start)) s"
if [ -n "${AEAD_RELEASE_TABLE:-}" ]; then
    printf 'npm package (libaead)\t%s\t%s s\t%s\n' "$(du -h "$tarball" | cut -f1)" "$(($(date +%s) - start))" \
        "prebuild loads with no compiler; fallback builds from csrc/; round trips; NOTICE + OpenSSL licence ok" >>"$AEAD_RELEASE_TABLE"
fi
