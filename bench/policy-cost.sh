#!/usr/bin/env bash
# What each nonce policy's check-and-commit costs: valgrind's instruction count per 64-byte AES-128-GCM seal
# through aead_seal_open, under AEAD_POLICY_NONE (a fixed nonce) and each sequenced policy (one record
# number after another). Instructions, not seconds: the same on a busy machine. The per-seal figure is the
# difference between runs of COUNT and 6 x COUNT seals, divided by 5 x COUNT, so set-up drops out.
#   bash bench/policy-cost.sh [build dir (default build)] [COUNT (default 2000)]
# POLICY_COST_JSON=FILE also writes the counts there (bench/results/policy-cost.json is what the docs show).
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
rows=()
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
    rows+=("AEAD_POLICY_$name=$per")
done
if [ -n "${POLICY_COST_JSON:-}" ]; then
    python3 - "$POLICY_COST_JSON" "$build" "${rows[@]}" <<'EOF'
import ctypes, json, sys
path, build = sys.argv[1:3]
lib = ctypes.CDLL(build + "/libaead.so.1")
lib.aead_version.restype = ctypes.c_char_p
opts = json.load(open(build + "/meson-info/intro-buildoptions.json"))
buildtype = next(o["value"] for o in opts if o["name"] == "buildtype")
rows = [{"policy": a.split("=")[0], "instructions": int(a.split("=")[1])} for a in sys.argv[3:]]
doc = {"bench": "policy-cost", "libcrypto": lib.aead_version().decode(), "buildtype": buildtype,
       "alg": "AES-128-GCM", "bytes": 64, "rows": rows}
with open(path, "w") as f:
    json.dump(doc, f, indent=2)
    f.write("\n")
EOF
fi
