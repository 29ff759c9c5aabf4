#!/usr/bin/env bash
# The release stage (tests/run-all.sh release): the version check, the C source tarball built and
# tested on its own, the Go module fetched with `go get` from a file GOPROXY. Every part runs even if
# an earlier one failed; then one table: artifact, size, build/install time, tests. docs/releasing.md.
set -uo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export AEAD_DIST_DIR="${AEAD_DIST_DIR:-$REPO/build-release/dist}"
mkdir -p "$AEAD_DIST_DIR"
AEAD_RELEASE_TABLE="$(mktemp)"
export AEAD_RELEASE_TABLE
trap 'rm -f "$AEAD_RELEASE_TABLE"' EXIT
rc=0

part() {  # name, command...: runs it, adds a FAILED row if it failed without adding its own
    local name=$1 before start
    shift
    echo "--- release: $name"
    before=$(wc -l <"$AEAD_RELEASE_TABLE")
    start=$(date +%s)
    if "$@"; then
        echo "--- release: $name passed in $(($(date +%s) - start)) s"
    else
        rc=1
        echo "--- release: $name FAILED after $(($(date +%s) - start)) s"
        [ "$(wc -l <"$AEAD_RELEASE_TABLE")" -gt "$before" ] ||
            printf '%s\t-\t%s s\tFAILED\n' "$name" "$(($(date +%s) - start))" >>"$AEAD_RELEASE_TABLE"
    fi
}
versions() {
    local out rc=0
    out="$(bash "$REPO/tests/release/check-versions.sh" 2>&1)" || rc=1
    echo "$out"
    if [ $rc = 0 ]; then
        printf 'one version (check-versions.sh)\t-\t-\tall places agree\n' >>"$AEAD_RELEASE_TABLE"
    else
        printf 'one version (check-versions.sh)\t-\t-\tMISMATCH: %s\n' \
            "$(echo "$out" | awk '/MISMATCH/ {print $1 "=" $(NF-3)}' | tr '\n' ' ')" >>"$AEAD_RELEASE_TABLE"
    fi
    return $rc
}

part versions versions
part "C source tarball" bash "$REPO/tests/release/dist-check.sh"
part "Go module" bash "$REPO/bindings/go/test-module.sh"
printf 'Rust crates (libaead, rustls-libaead)\t-\t-\tto do\n' >>"$AEAD_RELEASE_TABLE"
printf 'Python sdist + abi3 manylinux wheel\t-\t-\tto do\n' >>"$AEAD_RELEASE_TABLE"

echo "=== release artifacts (in $AEAD_DIST_DIR)"
{
    printf 'artifact\tsize\tbuild/install time\ttests\n'
    cat "$AEAD_RELEASE_TABLE"
} | column -t -s $'\t'
exit $rc
