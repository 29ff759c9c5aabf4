#!/usr/bin/env bash
# The Catch2 suites under sanitizers, each in its own build directory (clang: GCC 12 reports false
# -Wmaybe-uninitialized positives inside libstdc++ under ASan, and warnings are errors):
#   build-asan : AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer), every unit suite
#   build-tsan : ThreadSanitizer, the concurrency suites (tls, concurrency, stress)
#   build-fault: -Dfault_injection=true, every unit suite (every fallible libcrypto call fails in turn)
# Any sanitizer report fails the run (halt_on_error / exitcode).
set -euo pipefail
cd "$(dirname "$0")/.."

setup() {  # dir, options...
    local dir=$1
    shift
    [ -f "$dir/build.ninja" ] || meson setup "$dir" "$@" >/dev/null
    meson compile -C "$dir" >/dev/null
}

echo "--- ASan + UBSan: unit suites"
CC=clang CXX=clang++ setup build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dcpp_args=-fno-sanitize-recover=all -Dc_args=-fno-sanitize-recover=all
ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=1 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    meson test -C build-asan --suite unit --suite memory --print-errorlogs --timeout-multiplier 4

echo "--- TSan: concurrency suites"
CC=clang CXX=clang++ setup build-tsan -Db_sanitize=thread -Db_lundef=false
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 AEAD_STRESS_SCALE=0.25 \
    meson test -C build-tsan tls concurrency stress --print-errorlogs --timeout-multiplier 10

echo "--- fault-injection build: unit suites"
setup build-fault -Dfault_injection=true
meson test -C build-fault --suite unit --suite memory --print-errorlogs
