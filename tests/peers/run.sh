#!/usr/bin/env bash
# The peers stage: each ecosystem's own AEAD tests, fetched pinned from where a user's machine gets them
# (the Go toolchain's source and the module proxy, pyca/cryptography's sdist on PyPI, RustCrypto's crates),
# run unchanged on the peer (the control) and then with the constructors rewritten to libaead's binding.
# Every difference from the control is fixed or listed with its reason in tests/peers/differences.txt;
# each script fails on an unlisted difference and on a listed one that no longer occurs.
#   bash tests/peers/run.sh [go] [python] [rust]   (default: all three)
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(go python rust)
passed=0 failed=0 status=0
for s in "${suites[@]}"; do
    log="$(mktemp)"
    echo "--- peers: $s"
    bash "$here/$s.sh" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    # Each script ends with the plain line "N passed, N failed" for its runs on libaead.
    line="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)"
    rm -f "$log"
    if [ "$rc" -ne 0 ] || [ -z "$line" ]; then
        echo "peers: $s FAILED (exit $rc${line:+, $line})" >&2
        status=1
    fi
    [ -z "$line" ] || { passed=$((passed + ${line%% passed*})); f=${line#*, }; failed=$((failed + ${f%% failed})); }
done
echo "peers: all suites on libaead:"
echo "$passed passed, $failed failed"
exit $status
