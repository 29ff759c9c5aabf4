#!/usr/bin/env bash
# Benchmarks of the Go binding against crypto/cipher and golang-fips/openssl v2, plus the C
# library's own per-operation cost, in one run; prints benchstat tables and the target ratios.
#   bash bindings/go/bench.sh                 # COUNT=5 rounds of every benchmark, 100ms each (~4 min)
#   COUNT=20 BENCHTIME=1s bash bindings/go/bench.sh
#   AEAD_BUILD_DIR=$PWD/build-vendored COUNT=5 BENCHTIME=200ms BENCH="$(cat bindings/go/bench/targets.txt)" bash bindings/go/bench.sh
#     (the ratio targets of bench/targets.txt only, ~3 min: BENCH holds space-separated -test.bench patterns)
# Output: the tables on stdout; raw results and results.json (every benchmark's statistics, the
# targets, and which libcrypto each side ran on) in $AEAD_BENCH_OUT (default bindings/go/bench/out).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$GO_BINDING_DIR/bench"

COUNT="${COUNT:-5}"
BENCHTIME="${BENCHTIME:-100ms}"
BENCH="${BENCH:-.}"
OUT="${AEAD_BENCH_OUT:-$GO_BINDING_DIR/bench/out}"
mkdir -p "$OUT"
raw="$OUT/raw.txt"

go mod download
echo "== $(date -u +%Y-%m-%dT%H:%MZ), $(go version | cut -d' ' -f3-), $(nproc) CPUs, load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== running benchmarks matching '$BENCH' (count=$COUNT, benchtime=$BENCHTIME); raw output in $raw"
# One test binary, run COUNT times: each round runs every benchmark once, so the samples of all
# implementations are interleaved in time and a burst of load from other processes falls on all
# of them alike (go test -count would run each benchmark COUNT times in a row).
go test -c -o "$OUT/bench.test" .
: > "$raw"
for i in $(seq "$COUNT"); do
    for pattern in $BENCH; do # several space-separated -test.bench patterns: each run in every round
        "$OUT/bench.test" -test.run '^$' -test.bench "$pattern" -test.benchmem -test.benchtime "$BENCHTIME" -test.timeout 0 >> "$raw"
    done
    echo "   round $i/$COUNT done, load $(cut -d' ' -f1 /proc/loadavg)"
done

# title, benchstat columns (-col or nothing), benchmark name, units: one table from the raw samples.
table() {
    echo
    echo "== $1"
    go tool benchstat ${2:+-col "$2"} -filter ".name:$3 .unit:$4" "$raw"
}
table "AES-128-GCM, 13-byte AAD: libaead vs crypto/cipher (stdlib) vs golang-fips/openssl v2" /impl AESGCM '(sec/op OR allocs/op)'
table "C library floor: seal/open in a C loop (no cgo per op), and one empty cgo call" "" Floor sec/op
table "ChaCha20-Poly1305: libaead vs golang.org/x/crypto" /impl ChaCha20Poly1305 sec/op
table "NewGCMWithRandomNonce: libaead vs crypto/cipher" /impl GCMRandomNonce '(sec/op OR allocs/op)'
table "Batch per record (256 records a batch) against a Seal/Open loop and the C call" /what BatchPerRecord sec/op
table "QUIC packets: one call vs two calls (ForQUIC AEAD + HeaderProtection) vs pure Go, ns per packet" /impl QUICPacket '(sec/op OR allocs/op)'
echo
go run ./cmd/ratios -json "$OUT/results.json" "$raw"
echo
echo "== load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) (the machine may be shared: compare within this run only)"
