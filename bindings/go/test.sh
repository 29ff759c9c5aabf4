#!/usr/bin/env bash
# Tests of the Go binding. Run from anywhere, e.g. `bash bindings/go/test.sh` from the repo root.
# Needs: Go >= 1.24 (older ones fetch the toolchain through the module proxy), a C compiler,
# pkg-config, and libaead built in $AEAD_BUILD_DIR (default: <repo>/build) or installed under
# $AEAD_PREFIX (see env.sh; test-installed.sh installs one and runs this script on it).
# AEAD_TEST_FIPS=1 (after `source tests/fips/env.sh`): the AES-GCM tests under the FIPS provider.
# On a -Dlibcrypto=vendored build the coexistence test (bench/coexist_test.go: golang-fips/openssl
# on the system libcrypto beside the vendored libaead, one process) must run, not skip.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$GO_BINDING_DIR"
# The bundled build compiles libaegis from shim/aegis/libaegis/, which a release commit carries and a
# checkout gets here (git-ignored), verified against the pinned aegis crate.
bash "$GO_BINDING_DIR/../../shim/aegis/fetch.sh" --into "$GO_BINDING_DIR/../../shim/aegis/libaegis" >/dev/null

echo "== Go $(go version | cut -d' ' -f3-), libaead $(pkg-config --modversion aead) from the $AEAD_SOURCE"
if vendored_libcrypto; then
    echo "== vendored libcrypto: the coexistence test and AES-GCM-SIV (OpenSSL >= 3.2) are required"
    echo "== vendored libcrypto: empty AES-SIV messages and HPKE's ML-KEM (OpenSSL >= 3.5) are required"
    export AEAD_REQUIRE_COEXISTENCE=1 AEAD_REQUIRE_GCM_SIV=1 AEAD_REQUIRE_SIV_EMPTY=1 AEAD_REQUIRE_MLKEM=1
else
    echo "== system libcrypto: the coexistence test will skip (it needs -Dlibcrypto=vendored); AES-GCM-SIV must be refused on OpenSSL < 3.2"
fi
# The conformance vectors (tests/vectors.sh: fetched once into the cache, pinned and checksummed).
[ -n "${AEAD_VECTORS_DIR:-}" ] || AEAD_VECTORS_DIR=$(bash "$GO_BINDING_DIR/../../tests/vectors.sh" | tail -n 1)
export AEAD_VECTORS_DIR
echo "== vectors: $AEAD_VECTORS_DIR"
echo "== downloading module dependencies (bench module: x/crypto, golang-fips/openssl, tink-go, age, benchstat)"
go mod download
(cd bench && go mod download)

if [ "${AEAD_TEST_FIPS:-0}" = 1 ]; then
    # Under a FIPS-only configuration (source tests/fips/env.sh first): ChaCha20-Poly1305 is not
    # available, so only the AES-GCM tests run, and the FIPS indicator test must run, not skip.
    fips_tests='^(TestIndicatorUnderFIPS|TestFamiliesUnderFIPS|TestCCMLengthLimit|TestDifferentialGCM|TestNISTCAVP|TestRandomNonce.*|TestTLS12RustlsNonces|TestTLS12GCMFirstCounter|TestGCMNoncesFIPSV1|TestCounterNonce.*|TestXORCounterNonce|TestSSHPacketLength|TestCleanupFreesContext|TestLoadedLibrary|Example(NewGCM.*|NewCCM|IndicatorOf))$'
    echo "== FIPS configuration ($OPENSSL_CONF): AES-GCM and AES-CCM tests only"
    out="$(go test -count=1 -v -run "$fips_tests" .)" || { echo "$out"; exit 1; }
    echo "$out" | grep -E '^(--- |ok)'
    for must in TestIndicatorUnderFIPS TestFamiliesUnderFIPS TestGCMNoncesFIPSV1; do
        grep -q -- "--- PASS: $must" <<<"$out" || { echo "FAIL: $must did not run" >&2; exit 1; }
    done
    go test -race -count=1 -run "$fips_tests" .
    echo "== Go binding tests passed under the FIPS configuration"
    exit 0
fi

echo "== gofmt and go vet"
unformatted="$(gofmt -l . "$REPO/libaead.go")"
if [ -n "$unformatted" ]; then echo "gofmt would change: $unformatted" >&2; exit 1; fi
# The whole root module (its root package and the binding's packages); its nested modules are not in it.
(cd "$REPO" && go vet ./...)
(cd bench && go vet ./...)

# Each module's tests run once, verbose, into a log: its package lines are printed, and the counts below
# are read from that log (not from a second run of the same tests).
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
gotest() {  # log name, go test arguments...
    local log=$logs/$1
    shift
    go test -count=1 -v "$@" >"$log" 2>&1 || { cat "$log"; echo "FAIL: go test $*" >&2; exit 1; }
    grep -E '^(ok|\?) ' "$log"
}
counts() {  # log name, what (for the failure), extended regex: the matching lines, unindented
    grep -E "$3" "$logs/$1" | sed 's/^ *//' || { echo "FAIL: $2 printed no counts" >&2; exit 1; }
}
must_pass() {  # log name, test...
    local log=$1 t
    shift
    for t in "$@"; do grep -q -- "--- PASS: $t " "$logs/$log" || { echo "FAIL: $t did not run" >&2; exit 1; }; done
}
echo "== go test ./... (the binding's packages)"
gotest binding ./...
echo "== conformance vectors, per file (the tests above)"
counts binding "the vector tests" '^ +(vectors|vectors_families|siv)_test\.go:[0-9]+: .*(\.(json|rsp|txt)[: ]|cases)'
echo "== AEGIS (aegis_test.go): RFC 10032's vectors, every variant, tags 16 and 32 (the tests above)"
counts binding "the AEGIS vector test" '^ +aegis_test\.go:[0-9]+: RFC 10032 AEGIS vectors: 36 cases'
must_pass binding TestAEGISVectors TestAEGISConstructors TestAEGISRandomNonce TestAEGISPanicsAndErrors
echo "== HPKE (package hpke): RFC 9180's and draft-ietf-hpke-pq's vectors, crypto/hpke both ways (the tests above)"
counts binding "the HPKE tests" "rfc9180.json: [0-9]+ cases|hpke-pq.json: [0-9]+ cases|PQ KEMs: |interop crypto/hpke"
must_pass binding TestRFC9180Vectors TestPQVectors TestPQKEMs TestInteropCryptoHPKE TestInteropCryptoHPKEPQ  # Go 1.26's crypto/hpke
echo "== go test ./... (bench module: ChaCha20-Poly1305 vs x/crypto, peers agree; Tink and age streams)"
(cd bench && gotest bench ./...)
echo "== streaming AEAD (package stream): RFC 8188's examples; tink-go's AES-GCM-HKDF streaming and filippo.io/age's payload both ways (bench module)"
counts binding "the RFC 8188 examples" "RFC 8188 example [0-9]"
counts bench "the stream interop tests" "interop Tink|damaged Tink|interop age"
must_pass bench TestStreamTinkInterop TestStreamTinkDamaged TestStreamAgeInterop
# The race detector checks the binding's Go code, the same on any libaead: once per stage, on the build
# tree, not again on test-installed.sh's prefix (which runs every test above and below).
if [ -z "${AEAD_PREFIX:-}" ]; then
    echo "== go test -race ./... (the binding's packages and the bench module)"
    go test -race -count=1 ./...
    (cd bench && go test -race -count=1 ./...)
fi

echo "== zero allocations per Seal/Open (benchmarks, short run)"
# Allocation counts, not bytes: allocs/op is the number of allocations divided by b.N, so a
# one-off allocation of the runtime amortized over the run (seen on a busy machine: "2 B/op,
# 0 allocs/op" for a serial loop) does not count, while one allocation per call does. B/op is
# timing-dependent and checked by nothing. The exact per-call and per-batch counts are the
# tests' (testing.AllocsPerRun after a warm-up: TestZeroAllocs, TestBatchAllocs).
# zero_allocs PATTERN COUNT WHAT: the bench module's benchmarks matching PATTERN, 2000 iterations
# each, must be COUNT lines all at 0 allocs/op.
zero_allocs() {
    local out lines bad
    out="$(cd bench && go test -run '^$' -bench "$1" -benchtime=2000x -benchmem .)"
    echo "$out" | grep '^Benchmark' || true
    lines="$(echo "$out" | grep -c '^Benchmark' || true)"
    bad="$(echo "$out" | grep '^Benchmark' | grep -Ev '[[:space:]]0 allocs/op' || true)"
    if [ "$lines" -ne "$2" ] || [ -n "$bad" ]; then
        echo "FAIL: expected $2 $3 at 0 allocs/op; got $lines, offenders:" >&2
        echo "$bad" >&2
        exit 1
    fi
}
zero_allocs '^Benchmark(AESGCM|ChaCha20Poly1305|GCMRandomNonce)$/./././^impl=libaead$' 20 "libaead benchmarks"
echo "== zero allocations per Seal/Open of the 1.2 families, AES-SIV and AEGIS (AES-GCM-SIV only where OpenSSL >= 3.2: the vendored build)"
if vendored_libcrypto; then families_benchmarks=54; else families_benchmarks=48; fi
zero_allocs '^BenchmarkFamilies$/./././^impl=libaead$' "$families_benchmarks" "libaead family benchmarks"
echo "== zero allocations per QUIC packet (one call and two calls, protect and unprotect, short run)"
zero_allocs '^BenchmarkQUICPacket$/./././^impl=(onecall|twocall)$' 16 "libaead QUIC benchmarks"
if [ -z "${AEAD_PREFIX:-}" ]; then  # once per stage: on the build tree, not again on test-installed.sh's prefix
    echo "== the Go blocks of the READMEs, built and run (tests/snippets/go.py)"
    python3 "$REPO/tests/snippets/go.py" "$GO_BINDING_DIR" "$REPO/README.md" "$GO_BINDING_DIR/README.md"
fi
echo "== all Go binding tests passed"
