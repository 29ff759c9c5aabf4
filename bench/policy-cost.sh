#!/usr/bin/env bash
# What each nonce policy's check-and-commit costs: valgrind's instruction count per 64-byte AES-128-GCM seal
# through aead_seal_open, under AEAD_POLICY_NONE (a fixed nonce) and each sequenced policy (one record
# number after another). Instructions, not seconds: the same on a busy machine. The per-seal figure is the
# difference between runs of COUNT and 6 x COUNT seals, divided by 5 x COUNT, so set-up drops out.
#   bash bench/policy-cost.sh [build dir (default build)] [COUNT (default 2000)]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
count=${2:-2000}
bench=$build/bench/aead-bench
[ -x "$bench" ] || { echo "policy-cost: no $bench (meson compile -C $build first)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "policy-cost: valgrind is missing" >&2; exit 1; }
instructions() {  # way, seals
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" --only "$1" 64 "$2" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
echo "| policy | instructions per 64 B seal | vs AEAD_POLICY_TLS13 |"
echo "|---|---|---|"
tls13=
for way in tls13 ours counter xor-counter ssh; do
    a=$(instructions "$way" "$count")
    b=$(instructions "$way" $((6 * count)))
    per=$(((b - a) / (5 * count)))
    [ -n "$tls13" ] || tls13=$per
    case $way in ours) name=NONE ;; xor-counter) name=XOR_COUNTER ;; *) name=$(echo "$way" | tr a-z A-Z) ;; esac
    printf '| `AEAD_POLICY_%s` | %s | %+d |\n' "$name" "$per" $((per - tls13))
done
