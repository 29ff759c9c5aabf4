#!/usr/bin/env bash
# The coverage stage: how much of lib/ and shim/ (not shim/openssl/, OpenSSL's own build) the C suites
# execute, on the system libcrypto and on the vendored OpenSSL 3.5, with gcov counts merged by gcovr.
# Two builds with -Db_coverage=true and -Dfault_injection=true (the memory suite drives every fault):
#   build-coverage           system libcrypto: unit + memory on both dispatch paths, fips under the test
#                            provider (tests/fips/env.sh)
#   build-coverage-vendored  vendored 3.5: unit + memory on both dispatch paths, fips under the test provider
# Counters are updated atomically (-fprofile-update=atomic): the concurrency suites run several threads
# through the same lines, and plain counters would lose increments (or go negative) there.
# The builds live in the cache at one fixed path, with the checkout's files copied beside them (only the
# files whose bytes changed are rewritten): a coverage object records its absolute paths, so neither
# ccache nor ninja could reuse one built in a fresh clone elsewhere, and both builds were made anew on
# every run. A lock keeps two runs on one machine apart.
# Prints per-file and total line and branch coverage, writes an HTML report to
# build-coverage/coverage/index.html in the checkout, and fails under the thresholds below.
# Branches: gcov's exception-edge branches (every call that may throw) and branches the compiler proved
# unreachable are not counted (gcovr --exclude-throw-branches --exclude-unreachable-branches): the library's
# boundary is noexcept and these are not decisions in our code.
# docs/testing.md's per-file table is made from tests/coverage/summary.json (bench/tables.py); each run
# checks that the summary names the files it measured (tests/coverage/summary.py). After adding or
# removing a file of lib/ or shim/: tests/coverage/run.sh --record, then python3 bench/tables.py.
set -uo pipefail
record=0
[ "${1:-}" = --record ] && record=1
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
min_lines=${LIBAEAD_COVERAGE_MIN_LINES:-99}
min_branches=${LIBAEAD_COVERAGE_MIN_BRANCHES:-86}

# One run at a time on a machine, from here on: the venv below and the builds are shared.
work=${XDG_CACHE_HOME:-$HOME/.cache}/libaead/coverage
mkdir -p "$work/src"
exec 9>"$work.lock"
flock 9
# gcovr in its own venv in the cache, from PyPI with hashes.
tools=${XDG_CACHE_HOME:-$HOME/.cache}/libaead/tools/gcovr-$(sha256sum tests/coverage/requirements.txt | cut -c1-12)
if [ ! -x "$tools/bin/python3" ] || ! "$tools/bin/python3" -m gcovr --version >/dev/null 2>&1; then
    echo "coverage: installing gcovr into $tools"
    rm -rf "$tools.tmp" && python3 -m venv "$tools.tmp" &&
        "$tools.tmp/bin/pip" install --quiet --disable-pip-version-check --require-hashes --only-binary=:all: \
            -r tests/coverage/requirements.txt &&
        rm -rf "$tools" && mv "$tools.tmp" "$tools" || { echo "coverage: gcovr could not be installed" >&2; exit 1; }
fi
gcovr=("$tools/bin/python3" -m gcovr)  # not bin/gcovr: its first line names the folder it was made in

# -c: a file is rewritten only when its bytes differ, so ninja rebuilds only what this checkout changed;
# no -t: a rewritten file gets a new time. Ignored files (build folders, caches) stay out.
rsync -rlc --delete --exclude=/.git --filter=':- .gitignore' "$repo/" "$work/src/" ||
    { echo "coverage: could not copy the checkout to $work/src" >&2; exit 1; }
report=$repo/build-coverage/coverage
cd "$work/src"

status=0
run() {  # label, command...
    local label=$1 start=$SECONDS
    shift
    echo "--- coverage: $label"
    if "$@"; then echo "--- coverage: $label passed in $((SECONDS - start)) s"
    else echo "--- coverage: $label FAILED after $((SECONDS - start)) s"; status=1; fi
}
build() {  # dir, meson options...
    local dir=$1
    shift
    { [ -f "$dir/build.ninja" ] ||
          meson setup "$dir" -Dbuildtype=debug -Db_coverage=true -Dfault_injection=true \
              -Dcpp_args=-fprofile-update=atomic -Dc_args=-fprofile-update=atomic "$@" >/dev/null; } &&
        meson compile -C "$dir" -j 2 >/dev/null &&
        ninja -C "$dir" -t cleandead >/dev/null &&
        find "$dir" -name '*.gcda' -delete &&  # counts of this run only
        # notes of an object whose source is gone (cleandead removed the object, not its notes)
        find "$dir" -name '*.gcno' -exec sh -c 'for f; do [ -e "${f%.gcno}.o" ] || rm -f "$f"; done' sh {} +
}
# The EVP pass leaves out the conformance vectors (a third of the stage's time, and no line of lib/ or
# shim/ that the other suites on that path miss). The contract and memory suites run once more with
# AEAD_TEST_NO_COPY=1: working contexts keyed afresh instead of copied, on both paths (as some FIPS
# providers force, docs/fips.md).
suites() {  # dir
    meson test -C "$1" --suite unit --suite memory --print-errorlogs --timeout-multiplier 4 &&
        AEAD_DISPATCH=evp meson test -C "$1" --suite unit --suite memory --no-suite conformance \
            --print-errorlogs --timeout-multiplier 4 &&
        AEAD_TEST_NO_COPY=1 meson test -C "$1" contract memory --print-errorlogs --timeout-multiplier 4 &&
        AEAD_TEST_NO_COPY=1 AEAD_DISPATCH=evp meson test -C "$1" contract memory --print-errorlogs --timeout-multiplier 4
}
fips() {  # dir: the fips, memory and dispatch tests with the FIPS test provider as the only cipher provider
    (source tests/fips/env.sh && AEAD_TEST_FIPS=1 AEAD_TEST_PROPERTIES=fips=yes \
        meson test -C "$1" fips memory dispatch --print-errorlogs --timeout-multiplier 4)
}

run "build (system libcrypto)" build "$work/build-coverage"
run "unit + memory, both dispatch paths (system libcrypto)" suites "$work/build-coverage"
run "fips test provider (system libcrypto)" fips "$work/build-coverage"
run "build (vendored OpenSSL 3.5)" build "$work/build-coverage-vendored" -Dlibcrypto=vendored
run "unit + memory, both dispatch paths (vendored 3.5)" suites "$work/build-coverage-vendored"
run "fips test provider (vendored 3.5)" fips "$work/build-coverage-vendored"

mkdir -p "$report"
# A build directory kept across a version change holds the old library's objects too (libaead.so.1.6.0.p
# beside libaead.so.1.7.0.p): their notes would be merged with the new ones, so they go.
for d in "$work/build-coverage" "$work/build-coverage-vendored"; do
    find "$d" -maxdepth 1 -type d -name 'libaead.so.*.p' ! -name "libaead.so.$(meson introspect --projectinfo "$d" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])').p" -exec rm -rf {} +
done
echo "--- coverage: lib/ and shim/ (without shim/openssl/), both builds merged"
"${gcovr[@]}" --root "$work/src" --filter 'lib/' --filter 'shim/' --exclude 'shim/openssl/' \
    --exclude-throw-branches --exclude-unreachable-branches --gcov-ignore-parse-errors=negative_hits.warn \
    --txt - --html-details "$report/index.html" --json-summary "$report/summary.json" \
    --print-summary --fail-under-line "$min_lines" --fail-under-branch "$min_branches" \
    "$work/build-coverage" "$work/build-coverage-vendored" || status=1
if [ $record = 1 ]; then
    [ $status = 0 ] || { echo "coverage: not recorded: the run failed" >&2; exit 1; }
    vendored=$(sed -n 's/^# *define OPENSSL_FULL_VERSION_STR "\(.*\)"$/\1/p' \
        "$(bash shim/openssl/build.sh 3.5 | tail -1)/include/openssl/opensslv.h")
    python3 "$repo/tests/coverage/summary.py" --record "$report/summary.json" \
        "OpenSSL $(pkg-config --modversion libcrypto)" "OpenSSL $vendored" || status=1
else
    python3 "$repo/tests/coverage/summary.py" --check "$report/summary.json" || status=1
fi
echo "coverage: HTML report: build-coverage/coverage/index.html (thresholds: lines $min_lines%, branches $min_branches%)"
exit $status
