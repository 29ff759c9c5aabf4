#!/usr/bin/env bash
# Builds the libFuzzer harness (clang, ASan + UBSan) and runs its twenty-one targets: each first once over
# its checked-in corpus (seeds and campaign inputs) and the saved crashes (regression), then
# coverage-guided for its share of SECONDS (default 120) on a temporary copy of that corpus.
# Usage, from anywhere: bash tests/fuzz/run.sh [SECONDS]
# Exits non-zero on any crash, sanitizer report, leak, timeout or property failure; the failing input is
# then in build-fuzz/fuzz-artifacts/. Needs clang and its runtimes (tests/setup.sh installs them).
set -euo pipefail

secs=${1:-120}
[[ "$secs" =~ ^[0-9]+$ ]] || { echo "usage: $0 [SECONDS]" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
build=build-fuzz
source tests/fuzz/build.sh
fuzz_build "$build"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Each target's corpus: the seeds (tests/fuzz/corpus, or corpus-<mode> for the DTLS modes) and what the
# long campaigns added for that target (tests/fuzz/campaign/<target>, minimized; campaign.sh).
for t in "${fuzz_targets[@]}"; do
    mkdir -p "$work/corpus-$t"
    cp "$(fuzz_seeds_of "$t")"/* "$work/corpus-$t/"
    if [ -d "tests/fuzz/campaign/$t" ]; then cp "tests/fuzz/campaign/$t"/* "$work/corpus-$t/"; fi
done
# Inputs of bugs found earlier are replayed with the seeds (they fail until the library is fixed).
mkdir -p "$work/crashes"
[ -d tests/fuzz/crashes ] && find tests/fuzz/crashes -type f -exec cp {} "$work/crashes/" \;
artifacts="$repo/$build/fuzz-artifacts"
mkdir -p "$artifacts"
log="$repo/$build/fuzz-last.log"

fuzz() { LD_PRELOAD="$asan_rt" "$fuzz_bin" -artifact_prefix="$artifacts/" "$@"; }

n_inputs=$(find "$work"/corpus-* -type f | wc -l)
n_crashes=$(find "$work/crashes" -type f | wc -l)
targets=("${fuzz_targets[@]}")
per=$((secs / ${#targets[@]}))
[ "$per" -ge 5 ] || per=5
export AEAD_FUZZ_STATS=1
failed() {  # log, what
    tail -n 80 "$1"
    echo "fuzz: FAILED $2; full log $1; inputs in $artifacts" >&2
    exit 1
}
echo "=== fuzz: ${#targets[@]} targets; each replays its corpus (seeds and campaign inputs, $n_inputs over all targets) and $n_crashes saved crash inputs, then fuzzes $per s ==="
# One target: replay its corpus and saved crashes, then fuzz it $per s. Two targets run at a time
# (tests/lib/parallel.sh): libFuzzer runs one process per target, and each gets a core of its own.
one_target() {
    local t=$1 tlog="$log.$1" corpus before status inited done_ execs rate sodium usage
    corpus=$work/corpus-$t
    AEAD_FUZZ_FOCUS=$t fuzz -runs=0 -max_len=4096 "$corpus" "$work/crashes" >"$tlog.seeds" 2>&1 ||
        failed "$tlog.seeds" "on the seed corpus (focus $t)"
    before=$(find "$corpus" -type f | wc -l)
    status=0
    AEAD_FUZZ_FOCUS=$t fuzz -max_total_time="$per" -timeout=20 -rss_limit_mb=4096 -max_len=4096 -print_final_stats=1 \
        "$corpus" >"$tlog" 2>&1 || status=$?
    if [ $status -ne 0 ] || fuzz_log_failed "$tlog"; then
        failed "$tlog" "(exit $status, focus $t)"
    fi
    inited=$(fuzz_inited "$tlog.seeds")
    done_=$(grep -E "^#[0-9]+[[:space:]]+DONE" "$tlog" | grep -oE "cov: [0-9]+ ft: [0-9]+" | head -1)
    execs=$(grep -E "^stat::number_of_executed_units" "$tlog" | grep -oE "[0-9]+$")
    rate=$(grep -E "^stat::average_exec_per_sec" "$tlog" | grep -oE "[0-9]+$")
    # (The DTLS modes print their own counts instead: no libsodium line, and the usage snapshots checked.)
    sodium=$(grep -oE "libsodium agreed with: [0-9]+" "$tlog" | tail -1 | grep -oE "[0-9]+$" || true)
    usage=$(grep -oE "usage snapshots checked [0-9]+" "$tlog" | tail -1 | grep -oE "[0-9]+$" || true)
    printf 'fuzz: %-19s seeds %-18s -> after %3s s %-18s %9s execs (%s/s), %3d new inputs%s\n' "$t" "${inited:-?}" \
        "$per" "${done_:-?}" "${execs:-?}" "${rate:-?}" "$(($(find "$corpus" -type f | wc -l) - before))" \
        "$([ "${sodium:-0}" != 0 ] && echo ", $sodium XChaCha20 seals agreed with libsodium")$([ -n "$usage" ] &&
            echo ", $usage usage snapshots agreed with the window model")"
}
source tests/lib/parallel.sh
for t in "${targets[@]}"; do together "fuzz $t" one_target "$t"; done
together_wait || exit 1
echo "fuzz: passed; new inputs found this run: $(($(find "$work"/corpus-* -type f | wc -l) - n_inputs))"
