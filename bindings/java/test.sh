#!/usr/bin/env bash
# Tests of the Java binding (tests/run-all.sh java). Needs JDK 25+ (JAVA_HOME, else /usr/lib/jvm/temurin-25*;
# with CI set, a missing JDK fails), Maven, and what the vendored build needs (shim/openssl/build.sh 3.5).
#   1. `mvn package`: builds libaead.so on the vendored OpenSSL 3.5 (hidden) into the jar, and runs the
#      whole JUnit suite on that bundled library (vectors, differential, JCA rules, threads).
#   2. The API, thread and AES-GCM / ChaCha20-Poly1305 vector tests again on the meson build tree's
#      libaead.so.1 ($AEAD_BUILD_DIR, default <repo>/build), selected by -Dlibaead.library, when it exists.
#   3. test-release.sh: the jar from a scratch Maven repository, by coordinates, in a scratch project run on
#      the module path and on the class path.
# Maven keeps its downloads in ~/.m2 (default).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
AEAD_BUILD_DIR="${AEAD_BUILD_DIR:-$REPO/build}"
source "$HERE/jdk.sh"
rc=0; find_jdk || rc=$?
[ $rc = 2 ] && exit 0
[ $rc = 0 ] || exit 1
echo "== $("$JAVA_HOME/bin/java" -version 2>&1 | head -1) ($JAVA_HOME), $(mvn -v 2>/dev/null | head -1 | sed 's/\x1b\[[0-9;]*m//g')"
[ -n "${AEAD_VECTORS_DIR:-}" ] || AEAD_VECTORS_DIR=$(bash "$REPO/tests/vectors.sh" | tail -n 1)
export AEAD_VECTORS_DIR
echo "== vectors: $AEAD_VECTORS_DIR"
cd "$HERE"
MVN=(mvn -B -ntp -Dstyle.color=never)
summary() { grep -E 'Tests run:.*Fail' "$1" | tail -1; grep -E '^(vectors|differential|hostile)' "$1" || true; }

echo "== 1. mvn package: the jar with the bundled libaead (vendored OpenSSL 3.5), the suite on it"
log=$(mktemp); trap 'rm -f "$log"' EXIT
if ! "${MVN[@]}" package >"$log" 2>&1; then
    grep -E 'ERROR|FAIL|Tests run' "$log" | head -60
    exit 1
fi
summary "$log"
version=$(sed -n 's|^  <version>\(.*\)</version>|\1|p' pom.xml | head -1)
jar="$HERE/target/libaead-$version.jar"
listing=$("$JAVA_HOME/bin/jar" tf "$jar")
grep -qx 'org/libaead/native/linux-x86_64/libaead.so' <<<"$listing" || { echo "the jar carries no libaead.so" >&2; exit 1; }
grep -qx 'META-INF/services/java.security.Provider' <<<"$listing" || { echo "the jar has no provider registration" >&2; exit 1; }
echo "ok: $(basename "$jar") ($(du -h "$jar" | cut -f1)) carries org/libaead/native/linux-x86_64/libaead.so"

if [ -e "$AEAD_BUILD_DIR/libaead.so.1" ]; then
    echo "== 2. the suite's API, thread and GCM/ChaCha20 vector tests on $AEAD_BUILD_DIR/libaead.so.1 (-Dlibaead.library)"
    if ! "${MVN[@]}" surefire:test -Dlibaead.library="$AEAD_BUILD_DIR/libaead.so.1" \
        -Dtest='ApiTest,ConcurrencyTest,VectorsTest#wycheproofAesGcm+wycheproofChaCha20Poly1305+nistCavpGcm' \
        >"$log" 2>&1; then
        grep -E 'ERROR|FAIL|Tests run' "$log" | head -60
        exit 1
    fi
    summary "$log"
else
    echo "== 2. skipped: no $AEAD_BUILD_DIR/libaead.so.1 (run the build stage first)"
fi

echo "== 3. the jar by coordinates from a scratch repository (module path and class path)"
bash "$HERE/test-release.sh" "$jar"
