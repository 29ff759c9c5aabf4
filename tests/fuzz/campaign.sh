#!/usr/bin/env bash
# A long fuzzing campaign on one or more targets, each for a budget of CPU time (default 1800 s: CPU
# time, not wall time, so campaigns that share a loaded machine still get their full budget), then a
# minimized merge of what it found into tests/fuzz/campaign/<target>/, which run.sh replays in CI.
# Usage, from anywhere:
#   bash tests/fuzz/campaign.sh [--cpu SECONDS] [--vendored] TARGET...
# --vendored builds against the pinned OpenSSL 3.5 (build-fuzz-vendored): GCM-SIV and SIV's empty
# message exist only there, on the library's side and the EVP oracle's. Prints one summary line per target
# (CPU and wall time, executions, coverage after the replay and at the end, inputs kept) and appends it to
# build-fuzz*/campaigns.log. Exits non-zero on any crash or property failure (input in fuzz-artifacts/).
set -euo pipefail

cpu=1800
build=build-fuzz
meson_opts=()
while [ $# -gt 0 ]; do
    case "$1" in
    --cpu) cpu=$2; shift 2 ;;
    --vendored) build=build-fuzz-vendored; meson_opts=(-Dlibcrypto=vendored); shift ;;
    -*) echo "usage: $0 [--cpu SECONDS] [--vendored] TARGET..." >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] && [[ "$cpu" =~ ^[0-9]+$ ]] || { echo "usage: $0 [--cpu SECONDS] [--vendored] TARGET..." >&2; exit 2; }
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
source tests/fuzz/build.sh
for t in "$@"; do
    [[ " ${fuzz_targets[*]} " == *" $t "* ]] || { echo "campaign: unknown target '$t' (${fuzz_targets[*]})" >&2; exit 2; }
done
fuzz_build "$build" "${meson_opts[@]}"

artifacts="$repo/$build/fuzz-artifacts"
mkdir -p "$artifacts"
export AEAD_FUZZ_STATS=1
tick=$(getconf CLK_TCK)
cpu_of() { awk -v t="$tick" '{ print int(($14 + $15) / t) }' "/proc/$1/stat" 2>/dev/null || echo 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for t in "$@"; do
    kept=tests/fuzz/campaign/$t
    log=$repo/$build/campaign-$t.log
    rm -rf "$work"/*
    mkdir -p "$work/seeds" "$work/new" "$kept"
    cp "$(fuzz_seeds_of "$t")"/* "$work/seeds/"
    cp -r tests/fuzz/crashes "$work/crashes"
    before=$(find "$kept" -type f | wc -l)
    start=$SECONDS
    # New inputs go to the first folder; the seeds and the earlier campaigns' inputs are read, not changed.
    # SIGUSR2 ends the run: the harness prints its own counts, then libFuzzer its final statistics.
    AEAD_FUZZ_FOCUS=$t LD_PRELOAD="$asan_rt" "$fuzz_bin" -artifact_prefix="$artifacts/" \
        -max_total_time=$((cpu * 50)) -handle_usr2=0 -timeout=20 -rss_limit_mb=4096 -max_len=4096 -print_final_stats=1 \
        "$work/new" "$work/seeds" "$kept" "$work/crashes" >"$log" 2>&1 &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        if [ "$(cpu_of "$pid")" -ge "$cpu" ]; then kill -USR2 "$pid" 2>/dev/null || true; break; fi
        sleep 5
    done
    used=$(cpu_of "$pid")
    status=0
    wait "$pid" || status=$?
    wall=$((SECONDS - start))
    if [ $status -ne 0 ] || fuzz_log_failed "$log"; then
        tail -n 60 "$log"
        echo "campaign: FAILED on $t (exit $status); log $log; inputs in $artifacts" >&2
        exit 1
    fi
    # Minimize: of this run's inputs, keep those that add coverage features to the seeds and the inputs
    # kept before (libFuzzer's -merge=1 copies only such inputs into its first folder).
    mkdir -p "$work/merged"
    cp "$work/seeds"/* "$work/merged/"
    [ "$before" -gt 0 ] && cp "$kept"/* "$work/merged/"
    AEAD_FUZZ_FOCUS=$t LD_PRELOAD="$asan_rt" "$fuzz_bin" -merge=1 -use_counters=0 -max_len=4096 -timeout=20 \
        "$work/merged" "$work/new" >"$log.merge" 2>&1 || { tail -n 30 "$log.merge"; exit 1; }
    for f in "$work/merged"/*; do
        b=$(basename "$f")
        [ -e "$work/seeds/$b" ] || [ -e "$kept/$b" ] || cp "$f" "$kept/"
    done
    after=$(find "$kept" -type f | wc -l)
    first=$(fuzz_inited "$log")
    last=$(grep -E "^#[0-9]+[[:space:]]+(DONE|NEW|REDUCE|pulse)" "$log" | tail -1 | grep -oE "cov: [0-9]+ ft: [0-9]+")
    execs=$(grep -E "^stat::number_of_executed_units" "$log" | grep -oE "[0-9]+$" || echo "?")
    found=$(find "$work/new" -type f | wc -l)
    extra=$(grep -E "libsodium agreed with: [0-9]+|usage snapshots checked [0-9]+" "$log" | tail -1 || true)
    line=$(printf '%s %-19s %s cpu %5d s, wall %5d s, %10s execs, %s -> %s, %4d inputs found, %3d kept (%d before, %s)%s' \
        "$(date -u +%FT%TZ)" "$t" "$build" "$used" "$wall" "$execs" "${first:-?}" "${last:-?}" "$found" "$after" \
        "$before" "$(du -sh "$kept" | cut -f1)" "${extra:+; $extra}")
    echo "$line" | tee -a "$repo/$build/campaigns.log"
done
