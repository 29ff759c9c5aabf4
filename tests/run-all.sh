#!/usr/bin/env bash
# Runs every test of libaead: installs what is missing, builds, then runs each suite in turn.
# Every stage runs even if an earlier one failed; the exit code is non-zero if any failed.
# Usage: tests/run-all.sh [stage ...]   (default: all stages; `tests/run-all.sh --list` names them)
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
export AEAD_BUILD_DIR="$repo/build"
export PKG_CONFIG_PATH="$AEAD_BUILD_DIR/meson-uninstalled${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export LD_LIBRARY_PATH="$AEAD_BUILD_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

stage_build() {
    bash tests/setup.sh &&
        { [ -f build/build.ninja ] || meson setup build; } &&
        meson compile -C build
}
stage_unit() { meson test -C build --suite unit --suite memory --print-errorlogs; }
stage_large() { meson test -C build --suite large --print-errorlogs; }
stage_abi() { bash tests/abi/test.sh; }
stage_dlopen() { bash tests/dlopen/test.sh; }
stage_go() { bash bindings/go/test.sh; }
stage_python() { bash bindings/python/test.sh; }
stage_rust() { bash bindings/rust/test.sh; }
stage_sanitizers() { bash tests/sanitizers.sh; }
stage_fuzz() { bash tests/fuzz/run.sh "${AEAD_FUZZ_SECONDS:-120}"; }
stage_valgrind() { meson test -C build --suite unit --wrap 'valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite' --timeout-multiplier 20 --print-errorlogs; }

all_stages=(build unit large abi dlopen go python rust sanitizers fuzz valgrind)
if [ "${1:-}" = --list ]; then
    echo "${all_stages[@]}"
    exit 0
fi
stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=("${all_stages[@]}")

passed=0 failed=0 failures=()
for s in "${stages[@]}"; do
    if ! declare -F "stage_$s" >/dev/null; then
        echo "run-all: unknown stage '$s' (stages: ${all_stages[*]})" >&2
        exit 2
    fi
    echo "=== stage $s ==="
    start=$(date +%s)
    if "stage_$s"; then
        passed=$((passed + 1))
        echo "=== stage $s: passed in $(($(date +%s) - start)) s ==="
    else
        failed=$((failed + 1))
        failures+=("$s")
        echo "=== stage $s: FAILED after $(($(date +%s) - start)) s ==="
        [ "$s" = build ] && break  # nothing else can run without the library
    fi
done
[ $failed -eq 0 ] || echo "failed stages: ${failures[*]}"
echo "stages: $passed passed, $failed failed"
[ $failed -eq 0 ]
