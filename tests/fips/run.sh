#!/usr/bin/env bash
# The FIPS stage: libaead's 'fips' suite (tests/test_fips.cpp) with OpenSSL's FIPS provider, built from
# the pinned 3.5 source, as the only cipher provider (tests/fips/env.sh), on four builds:
#   the system-libcrypto build ($AEAD_BUILD_DIR, default build/), the vendored 3.5 build (build-vendored),
#   the ASan + UBSan build (build-asan) and the -Dfault_injection=true build (build-fault).
# Then the bindings' tests under the provider (Python, Go and its adopter example, Rust) and the rustls
# interop matrix's AES suites; LIBAEAD_FIPS_BINDINGS=0 leaves those out.
# A test provider, NOT a validated module: tests/fips/README.md.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
system_build=${AEAD_BUILD_DIR:-$repo/build}
source tests/fips/env.sh || exit 1
echo "fips: OPENSSL_CONF=$OPENSSL_CONF"
echo "fips: OPENSSL_MODULES=$OPENSSL_MODULES"

configured() {  # dir, meson setup options... : configure (if new) and compile
    local dir=$1
    shift
    { [ -f "$dir/build.ninja" ] || meson setup "$dir" "$@" >/dev/null; } && meson compile -C "$dir" -j 2 >/dev/null
}

status=0
run() {  # label, command...
    local label=$1 start=$SECONDS
    shift
    echo "--- fips: $label"
    if "$@"; then
        echo "--- fips: $label passed in $((SECONDS - start)) s"
    else
        echo "--- fips: $label FAILED after $((SECONDS - start)) s"
        status=1
        return 1
    fi
}

suite() {  # build dir [more tests...]: the fips test, the memory test (no allocation per call,
    # every fault mapped) and the dispatch test (the direct path is taken), then the tests named, all with
    # every context asking for "fips=yes"
    local dir=$1
    shift
    AEAD_TEST_FIPS=1 AEAD_TEST_PROPERTIES=fips=yes \
        meson test -C "$dir" fips memory dispatch "$@" --print-errorlogs --timeout-multiplier 4
}
# The conformance and ABI 1.1 suites: built against libaead.so, so only where the test's own oracle
# and libaead share one libcrypto (one FIPS module serves one core per process: docs/fips.md).
shared_core_suites=(vectors ex batch)

on_system() { configured "$system_build" && suite "$system_build" "${shared_core_suites[@]}"; }
on_vendored() { configured build-vendored -Dlibcrypto=vendored && suite build-vendored; }
on_asan() {
    python3 tests/sanitizers.py --setup asan >/dev/null &&
        ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
            suite build-asan "${shared_core_suites[@]}"
}
# Both ways of making working contexts: copies of the keyed template, and (AEAD_TEST_NO_COPY=1, as under
# FIPS providers that refuse EVP_CIPHER_CTX_copy) re-keying each new one.
on_fault() {
    python3 tests/sanitizers.py --setup fault >/dev/null && suite build-fault "${shared_core_suites[@]}" &&
        AEAD_TEST_NO_COPY=1 suite build-fault "${shared_core_suites[@]}"
}
on_python() { AEAD_BUILD_DIR="$system_build" LIBAEAD_TEST_FIPS=1 bash bindings/python/test.sh; }
on_go() { AEAD_BUILD_DIR="$system_build" AEAD_TEST_FIPS=1 python3 bindings/go/test.py; }
# The Go adopter example (bindings/go/examples/objectstore, a key per object, chunks under counter
# nonces): every seal of libaead's NewGCMWithCounterNonce approved by the indicator, and, run again
# with GODEBUG=fips140=only, crypto/cipher's NewGCM refused with Go's message while libaead's works.
on_go_example() {
    (
        export AEAD_BUILD_DIR="$system_build" AEAD_TEST_FIPS=1
        source bindings/go/env.sh && cd "$GO_BINDING_DIR" || exit 1
        out="$(go test -count=1 -v ./examples/objectstore 2>&1)" || { echo "$out"; exit 1; }
        grep -E '^(--- |ok)|approved by the FIPS indicator' <<<"$out"
        for must in TestEverySealApproved TestFIPS140Only; do
            grep -q -- "^--- PASS: $must" <<<"$out" || { echo "FAIL: $must did not pass" >&2; exit 1; }
        done
    )
}
# test.py runs its default-provider suite first and sources tests/fips/env.sh itself for the FIPS part.
on_rust() { env -u OPENSSL_CONF -u OPENSSL_MODULES AEAD_BUILD_DIR="$system_build" python3 bindings/rust/test.py --fips; }
on_interop() { AEAD_BUILD_DIR="$system_build" AEAD_INTEROP_SUITES=AES python3 tests/tls-interop/run.py; }

run "system libcrypto ($system_build)" on_system
run "vendored OpenSSL 3.5 (build-vendored)" on_vendored
run "ASan + UBSan (build-asan)" on_asan
run "fault injection (build-fault)" on_fault
# The bindings two at a time (tests/lib/parallel.sh): each keeps about one core busy.
if [ "${LIBAEAD_FIPS_BINDINGS:-1}" = 1 ]; then
    source tests/lib/parallel.sh
    for step in "Python binding:on_python" "Rust binding:on_rust" "Go binding:on_go" \
        "Go adopter example (counter nonces, GODEBUG=fips140=only):on_go_example" "rustls interop, AES suites:on_interop"; do
        together "${step%:*}" run "${step%:*}" "${step##*:}"
    done
    together_wait || status=1
fi
exit $status
