#!/usr/bin/env bash
# The Catch2 suites under sanitizers, each in its own build directory, warnings as errors:
#   build-asan : clang AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer), every unit suite
#   build-tsan : clang ThreadSanitizer, the suites with threads (tls, concurrency, stress, ex, batch, hostile, quic, siv, dtls, hpke)
#   build-fault: -Dfault_injection=true, every unit suite (every fallible libcrypto call fails in turn)
# (GCC's ASan build is compiled with -Werror by the werror stage of tests/run-all.sh.)
# Any sanitizer report fails the run (halt_on_error / exitcode).
# Usage: tests/sanitizers.sh [asan|tsan|fault ...]       (default: all three)
#        tests/sanitizers.sh --setup asan|tsan|fault     (configure + compile only; prints the directory)
set -euo pipefail
cd "$(dirname "$0")/.."

setup() {  # dir, options...
    local dir=$1
    shift
    [ -f "$dir/build.ninja" ] || meson setup "$dir" -Dwerror=true "$@" >/dev/null
    meson configure "$dir" -Dwerror=true  # also for a directory made before warnings were errors here
    meson compile -C "$dir" -j 2 >/dev/null
}
# meson puts ccache in front of the compiler it finds itself, not of one named in CC/CXX.
ccache_=$(command -v ccache >/dev/null && echo "ccache ")
setup_asan() {
    CC="${ccache_}clang" CXX="${ccache_}clang++" setup build-asan -Db_sanitize=address,undefined -Db_lundef=false \
        -Dcpp_args=-fno-sanitize-recover=all -Dc_args=-fno-sanitize-recover=all
}
setup_tsan() { CC="${ccache_}clang" CXX="${ccache_}clang++" setup build-tsan -Db_sanitize=thread -Db_lundef=false; }
setup_fault() { setup build-fault -Dfault_injection=true; }

run_asan() {
    echo "--- ASan + UBSan: unit suites"
    setup_asan
    ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        meson test -C build-asan --suite unit --suite memory --print-errorlogs --timeout-multiplier 4
}
run_tsan() {
    echo "--- TSan: concurrency suites"
    setup_tsan
    TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 AEAD_STRESS_SCALE=0.25 \
        meson test -C build-tsan tls concurrency stress ex batch hostile quic siv dtls hpke --print-errorlogs --timeout-multiplier 10
}
run_fault() {
    echo "--- fault-injection build: unit suites"
    setup_fault
    meson test -C build-fault --suite unit --suite memory --print-errorlogs
}

if [ "${1:-}" = --setup ]; then
    "setup_${2:?usage: $0 --setup asan|tsan|fault}"
    echo "build-$2"
    exit 0
fi
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(asan tsan fault)
for r in "${runs[@]}"; do "run_$r"; done
