#!/usr/bin/env bash
# The release stage (tests/run-all.sh release): the version check, the C source tarball built and
# tested on its own, `meson install` of a vendored build (its licences), the Go module fetched with `go get` from a file GOPROXY, the Rust crates, the Python
# sdist and abi3 wheel, the npm package, the Java jar. Every part runs even if an earlier one failed; then one table: artifact, size,
# build/install time, tests. docs/releasing.md.
set -uo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export AEAD_DIST_DIR="${AEAD_DIST_DIR:-$REPO/build-release/dist}"
mkdir -p "$AEAD_DIST_DIR"
# Every part writes its rows to a table of its own (AEAD_RELEASE_TABLE in its environment): the parts run
# two at a time (tests/lib/parallel.sh), each mostly on one core; the tables are joined in this order.
TABLES="$(mktemp -d)"
trap 'rm -rf "$TABLES"' EXIT
source "$REPO/tests/lib/parallel.sh"
parts=0

part() {  # name, command...: queued; a FAILED row if it failed without adding its own
    local name=$1
    parts=$((parts + 1))
    shift
    together "$name" part_run "$name" "$TABLES/$parts" "$@"
}
part_run() {  # name, table, command...
    local name=$1 start
    export AEAD_RELEASE_TABLE=$2
    shift 2
    : >"$AEAD_RELEASE_TABLE"
    echo "--- release: $name"
    start=$(date +%s)
    if "$@"; then
        echo "--- release: $name passed in $(($(date +%s) - start)) s"
    else
        echo "--- release: $name FAILED after $(($(date +%s) - start)) s"
        [ -s "$AEAD_RELEASE_TABLE" ] ||
            printf '%s\t-\t%s s\tFAILED\n' "$name" "$(($(date +%s) - start))" >>"$AEAD_RELEASE_TABLE"
        return 1
    fi
}
versions() {
    local out rc=0
    out="$(python3 "$REPO/tests/release/check_versions.py" 2>&1)" || rc=1
    echo "$out"
    if [ $rc = 0 ]; then
        printf 'one version (check_versions.py)\t-\t-\tall places agree\n' >>"$AEAD_RELEASE_TABLE"
    else
        printf 'one version (check_versions.py)\t-\t-\tMISMATCH: %s\n' \
            "$(echo "$out" | awk '/MISMATCH/ {print $1 "=" $(NF-3)}' | tr '\n' ' ')" >>"$AEAD_RELEASE_TABLE"
    fi
    return $rc
}

part versions versions
part "C source tarball" bash "$REPO/tests/release/dist-check.sh"
# meson install of a vendored build: OpenSSL's licence and the NOTICE naming its version installed with it.
part "meson install (vendored)" bash "$REPO/tests/release/meson-install.sh"
part "Go module" bash "$REPO/bindings/go/test-module.sh"
# The .crate files into dist/, then each tested from its package: rustls-libaead's suite against the
# libaead package (test-package.sh), and the libaead package in its pkg-config mode on build/ (the
# bundled and vendored modes are the rust-bundled stage's, also from the package).
rust_crates() {
    local start size t
    start=$(date +%s)
    # cargo package's verification builds in a target folder of the cache (tests/lib/prune_cargo_target.py):
    # a fresh clone then compiles the two packaged crates, not rustls, ring and the rest again.
    (source <(python3 "$REPO/tests/lib/prune_cargo_target.py" --cache-target release-package) &&
        bash "$REPO/bindings/rust/package.sh" --allow-dirty --out "$AEAD_DIST_DIR") || return 1
    LIBAEAD_CRATES_DIR="$AEAD_DIST_DIR" bash "$REPO/bindings/rust/test-package.sh" >"$AEAD_DIST_DIR/rust-package.log" 2>&1 ||
        { tail -30 "$AEAD_DIST_DIR/rust-package.log"; return 1; }
    LIBAEAD_CRATE="$(ls "$AEAD_DIST_DIR"/libaead-[0-9]*.crate)" bash "$REPO/bindings/rust/test-bundled.sh" --pkg-config || return 1
    t=$(($(date +%s) - start))
    size=$(du -ch "$AEAD_DIST_DIR"/*.crate | tail -1 | cut -f1)
    printf 'Rust crates (libaead, rustls-libaead)\t%s\t%s s\t%s\n' "$size" "$t" \
        "$(grep -Eo '[0-9]+ passed' "$AEAD_DIST_DIR/rust-package.log" | awk '{n += $1} END {print n " passed (rustls-libaead from its .crate)"}'); pkg-config mode ok" >>"$AEAD_RELEASE_TABLE"
}
part "Rust crates" rust_crates
# The sdist and the abi3 manylinux wheel: built, auditwheel-checked, installed without a compiler and
# tested (python-dist.sh adds its own row).
part "Python sdist + abi3 wheel" bash "$REPO/tests/release/python-dist.sh"
# The Java jar (libaead.so on the vendored OpenSSL 3.5 inside), copied to dist/, then installed into a
# scratch Maven repository and used by coordinates from a scratch project (bindings/java/test-release.sh).
java_jar() {
    local start jar rc=0 out
    start=$(date +%s)
    source "$REPO/bindings/java/jdk.sh"
    find_jdk || rc=$?
    [ $rc = 2 ] && { printf 'Java jar\t-\t-\tskipped: no JDK 25\n' >>"$AEAD_RELEASE_TABLE"; return 0; }
    [ $rc = 0 ] || return 1
    (cd "$REPO/bindings/java" && mvn -B -q -ntp "-Dmaven.repo.local=${MAVEN_REPO_LOCAL:-$HOME/.m2/repository}" package -DskipTests >"$AEAD_DIST_DIR/java-package.log" 2>&1) ||
        { grep ERROR "$AEAD_DIST_DIR/java-package.log" | head -20; return 1; }
    jar=$(ls "$REPO"/bindings/java/target/libaead-[0-9]*.jar)
    cp "$jar" "$AEAD_DIST_DIR/"
    out=$(bash "$REPO/bindings/java/test-release.sh" "$AEAD_DIST_DIR/$(basename "$jar")") || { echo "$out"; return 1; }
    echo "$out"
    printf 'Java jar (%s)\t%s\t%s s\t%s\n' "$(basename "$jar")" "$(du -h "$jar" | cut -f1)" "$(($(date +%s) - start))" \
        "by coordinates: module path and class path ok; META-INF NOTICE + OpenSSL licence ok" >>"$AEAD_RELEASE_TABLE"
}
part "Java jar" java_jar
# The npm tarball: the prebuild loads with no compiler on PATH, and without it the fallback builds from
# the bundled C++ sources on the system libcrypto (test-package.sh adds its own row).
part "npm package" bash "$REPO/bindings/node/test-package.sh"

rc=0
together_wait || rc=1
echo "=== release artifacts (in $AEAD_DIST_DIR)"
{
    printf 'artifact\tsize\tbuild/install time\ttests\n'
    for ((i = 1; i <= parts; i++)); do cat "$TABLES/$i"; done
} | column -t -s $'\t'
exit $rc
