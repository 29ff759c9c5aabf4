#!/usr/bin/env bash
# Builds the libFuzzer harness (clang, ASan + UBSan) and runs it: first once over the checked-in seed
# corpus (regression), then coverage-guided for SECONDS (default 120) on a temporary copy of it.
# Usage, from anywhere: bash tests/fuzz/run.sh [SECONDS]
# Exits non-zero on any crash, sanitizer report, leak, timeout or property failure; the failing input is
# then in build-fuzz/fuzz-artifacts/. Needs clang and its runtimes (tests/setup.sh installs them).
set -euo pipefail

secs=${1:-120}
[[ "$secs" =~ ^[0-9]+$ ]] || { echo "usage: $0 [SECONDS]" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
build=build-fuzz
target=tests/fuzz/fuzz_seal_open

command -v clang++ >/dev/null || { echo "run.sh: clang++ not found (run tests/setup.sh)" >&2; exit 1; }

# The library and the harness share one ASan runtime, the shared one (found through an rpath, and
# preloaded at run time because libFuzzer's libstdc++ would otherwise be loaded before it).
asan_rt=$(clang++ -print-file-name="libclang_rt.asan-$(uname -m).so")
[ -f "$asan_rt" ] || { echo "run.sh: $asan_rt missing (install libclang-rt-*-dev)" >&2; exit 1; }
rt_dir=$(dirname "$asan_rt")
# -fsanitize=fuzzer-no-link instruments the library too, so the fuzzer is guided by its branches.
opts=(-Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized
      -Dcpp_args=-fsanitize=fuzzer-no-link "-Dcpp_link_args=['-shared-libasan','-Wl,-rpath,$rt_dir']")
if [ ! -f "$build/build.ninja" ]; then
    ccache_=$(command -v ccache >/dev/null && echo "ccache ")  # meson adds it only to compilers it finds
    CC="${ccache_}clang" CXX="${ccache_}clang++" meson setup "$build" "${opts[@]}"
elif ! grep -q fuzzer-no-link "$build/meson-info/intro-buildoptions.json"; then
    meson configure "$build" "${opts[@]}"  # a build-fuzz made by hand: add what the harness needs
fi
grep -q "^build $target:" "$build/build.ninja" ||
    { echo "run.sh: $build has no $target (is it configured with clang?)" >&2; exit 1; }
ninja -C "$build" -j 2 "$target"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r tests/fuzz/corpus "$work/corpus"
# The DTLS modes read another input format: each has its own seeds (tests/fuzz/corpus-<mode>).
dtls_modes=(dtls12 dtls13 quic-window)
for m in "${dtls_modes[@]}"; do cp -r "tests/fuzz/corpus-$m" "$work/corpus-$m"; done
corpus_of() { case "$1" in dtls12 | dtls13 | quic-window) echo "$work/corpus-$1" ;; *) echo "$work/corpus" ;; esac; }
# Inputs of bugs found earlier are replayed with the seeds (they fail until the library is fixed).
mkdir -p "$work/crashes"
[ -d tests/fuzz/crashes ] && find tests/fuzz/crashes -type f -exec cp {} "$work/crashes/" \;
artifacts="$repo/$build/fuzz-artifacts"
mkdir -p "$artifacts"
log="$repo/$build/fuzz-last.log"

export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
fuzz() { LD_PRELOAD="$asan_rt" "$build/$target" -artifact_prefix="$artifacts/" "$@"; }

n_seeds=$(find "$work/corpus" -type f | wc -l)
n_dtls=$(find "${dtls_modes[@]/#/$work/corpus-}" -type f | wc -l)
n_crashes=$(find "$work/crashes" -type f | wc -l)
# One target per family and per sequencing policy (AEAD_FUZZ_FOCUS, tests/fuzz/fuzz_seal_open.cpp), and
# the unfocused harness, and the DTLS 1.2 / DTLS 1.3 / QUIC-window modes; each replays its seeds and the
# saved crashes, then fuzzes for its share of SECONDS.
targets=(all gcm chacha20-poly1305 ccm gcm-siv ocb xchacha20-poly1305 siv tls12 tls13 random-nonce "${dtls_modes[@]}")
per=$((secs / ${#targets[@]}))
[ "$per" -ge 5 ] || per=5
export AEAD_FUZZ_STATS=1
failed() {  # log, what
    tail -n 80 "$1"
    echo "fuzz: FAILED $2; full log $1; inputs in $artifacts" >&2
    exit 1
}
echo "=== fuzz: ${#targets[@]} targets; each replays its seed inputs ($n_seeds, or for the DTLS modes $n_dtls in all) and $n_crashes saved crash inputs, then fuzzes $per s ==="
for t in "${targets[@]}"; do
    tlog="$log.$t"
    corpus=$(corpus_of "$t")
    AEAD_FUZZ_FOCUS=$t fuzz -runs=0 -max_len=4096 "$corpus" "$work/crashes" >"$tlog.seeds" 2>&1 ||
        failed "$tlog.seeds" "on the seed corpus (focus $t)"
    before=$(find "$corpus" -type f | wc -l)
    status=0
    AEAD_FUZZ_FOCUS=$t fuzz -max_total_time="$per" -timeout=20 -rss_limit_mb=4096 -max_len=4096 -print_final_stats=1 \
        "$corpus" >"$tlog" 2>&1 || status=$?
    if [ $status -ne 0 ] || grep -qE "ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|property failed" "$tlog"; then
        failed "$tlog" "(exit $status, focus $t)"
    fi
    inited=$(grep -E "^#[0-9]+[[:space:]]+INITED" "$tlog.seeds" | grep -oE "cov: [0-9]+ ft: [0-9]+" | head -1)
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
done
echo "fuzz: passed; new inputs found this run: $(($(find "$work/corpus" "${dtls_modes[@]/#/$work/corpus-}" -type f | wc -l) - n_seeds - n_dtls))"
