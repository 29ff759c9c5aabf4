#!/usr/bin/env bash
# Tests of the Java binding (tests/run-all.sh java). Needs JDK 25+ (JAVA_HOME, else /usr/lib/jvm/temurin-25*;
# with CI set, a missing JDK fails), Maven, and what the vendored build needs (shim/openssl/build.sh 3.5).
#   1. `mvn package`: builds libaead.so on the vendored OpenSSL 3.5 (hidden) into the jar, and runs the
#      whole JUnit suite on that bundled library (vectors, differential, JCA rules, threads; HPKE's PQ
#      vectors: 10 pass, 3 TurboSHAKE refused; StreamingAead against Tink 1.15.0, 200 files each way).
#   1b. A JCA suite we did not write (Apache Commons Crypto's GcmCipherTest, its tests jar from Maven Central,
#      sha256-pinned) on the LibAead provider alone; its counts are printed, any failure but two known,
#      documented differences fails the stage.
#   2. The API, AEGIS, thread, counter-nonce, HPKE, streaming and AES-GCM / ChaCha20-Poly1305 vector tests again on the meson build
#      tree's libaead.so.1 ($AEAD_BUILD_DIR, default <repo>/build), selected by -Dlibaead.library, when it exists
#      (on the system OpenSSL 3.0, HPKE's PQ vectors: 2 pass, 11 refused).
#   3. test-release.sh: the jar from a scratch Maven repository, by coordinates, in a scratch project run on
#      the module path and on the class path.
#   4. The Java blocks of README.md and this README, compiled and run on the jar (tests/snippets/run.py).
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
[ -n "${AEAD_VECTORS_DIR:-}" ] || AEAD_VECTORS_DIR=$(python3 "$REPO/tests/vectors.py" | tail -n 1)
export AEAD_VECTORS_DIR
echo "== vectors: $AEAD_VECTORS_DIR"
cd "$HERE"
# Maven's default local repository follows the JVM's user.home (the passwd entry), not $HOME: named
# explicitly, so that every command here and the checks below agree on it.
M2="${MAVEN_REPO_LOCAL:-$HOME/.m2/repository}"
MVN=(mvn -B -ntp -Dstyle.color=never "-Dmaven.repo.local=$M2")
summary() { grep -E 'Tests run:.*Fail' "$1" | tail -1; grep -E '^(vectors|differential|hostile|threads)' "$1" || true; }

# The third-party JCA suite (Apache Commons Crypto's GcmCipherTest, from Maven Central): pinned in pom.xml,
# fetched and sha256-checked here before any of its code runs.
CC_VERSION=1.2.0
declare -A CC_SHA256=(
    [commons-crypto-$CC_VERSION.jar]=3ed2a3bde2fedca9411959419d0c78ce9e8e249d02bb56a7d7573705fd2e911b
    [commons-crypto-$CC_VERSION-tests.jar]=6c76ae8d605db3c48101f7bad0ca8d8c4f9ac3311be07341836b4921925f2771
)
for c in "" ":jar:tests"; do
    "${MVN[@]}" -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get \
        -Dartifact="org.apache.commons:commons-crypto:$CC_VERSION$c" -Dtransitive=false >/dev/null 2>&1 \
        || { echo "cannot fetch org.apache.commons:commons-crypto:$CC_VERSION$c" >&2; exit 1; }
done
for f in "${!CC_SHA256[@]}"; do
    got=$(sha256sum "$M2/org/apache/commons/commons-crypto/$CC_VERSION/$f" | cut -d' ' -f1)
    [ "$got" = "${CC_SHA256[$f]}" ] || { echo "$f: sha256 $got, expected ${CC_SHA256[$f]}" >&2; exit 1; }
done

echo "== 1. mvn package: the jar with the bundled libaead (vendored OpenSSL 3.5), the suite on it"
log=$(mktemp); trap 'rm -f "$log"' EXIT
if ! "${MVN[@]}" package >"$log" 2>&1; then
    grep -E 'ERROR|FAIL|Tests run' "$log" | head -60
    exit 1
fi
summary "$log"
# draft-ietf-hpke-pq's vectors on the bundled library (OpenSSL 3.5): 10 pass, the 3 TurboSHAKE cases refused.
grep -q '^vectors hpke/hpke-pq.json: 13 cases: 10 passed .* 3 refused (TurboSHAKE), 0 refused' "$log" ||
    { echo "the HPKE PQ vectors did not run 10 + 3 on the bundled library" >&2; exit 1; }
# StreamingAead against Tink: 200 files each way, and the hostile ciphertexts refused by both.
grep -qE '^differential StreamingAead vs Tink .*libaead -> Tink 200 files, Tink -> libaead 200 files.*0 disagreements' "$log" &&
    grep -qE '^hostile StreamingAead \(Tink format\): [1-9][0-9]* ' "$log" ||
    { echo "the streaming tests against Tink did not run" >&2; exit 1; }
version=$(sed -n 's|^  <version>\(.*\)</version>|\1|p' pom.xml | head -1)
jar="$HERE/target/libaead-$version.jar"
listing=$("$JAVA_HOME/bin/jar" tf "$jar")
grep -qx 'org/libaead/native/linux-x86_64/libaead.so' <<<"$listing" || { echo "the jar carries no libaead.so" >&2; exit 1; }
grep -qx 'META-INF/services/java.security.Provider' <<<"$listing" || { echo "the jar has no provider registration" >&2; exit 1; }
echo "ok: $(basename "$jar") ($(du -h "$jar" | cut -f1)) carries org/libaead/native/linux-x86_64/libaead.so"

echo "== 1b. a JCA suite we did not write: Apache Commons Crypto $CC_VERSION GcmCipherTest on the provider alone"
# It fails 2 kinds of checks by a documented difference, each allowed by JCA; any other failure, an error,
# or a count other than its 8 tests and our 1 (its other checks on all its NIST cases) fails the stage:
#  - update() during encryption returns no output (the provider buffers until doFinal, Conscrypt's model);
#    the suite expects SunJCE's streaming (its testGcmArbitraryLengthUpdate);
#  - the AEADBadTagException's message is libaead's, the suite compares it with "Tag mismatch!".
"${MVN[@]}" surefire:test -Dtest=ThirdPartyGcmCipherTest -Dmaven.test.failure.ignore=true >"$log" 2>&1 || {
    grep -E 'ERROR' "$log" | head -30; exit 1; }
report=target/surefire-reports/TEST-org.libaead.ThirdPartyGcmCipherTest.xml
[ -f "$report" ] || { echo "the third-party suite did not run (no $report)" >&2; exit 1; }
python3 "$HERE/third_party_report.py" "$report"

if [ -e "$AEAD_BUILD_DIR/libaead.so.1" ]; then
    echo "== 2. the suite's API, AEGIS, thread, counter-nonce, HPKE, streaming and GCM/ChaCha20 vector tests on $AEAD_BUILD_DIR/libaead.so.1 (-Dlibaead.library)"
    if ! "${MVN[@]}" surefire:test -Dlibaead.library="$AEAD_BUILD_DIR/libaead.so.1" \
        -Dtest='ApiTest,AegisTest,ConcurrencyTest,CounterNonceTest,HpkeTest,HpkePqTest,StreamingAeadTest,VectorsTest#wycheproofAesGcm+wycheproofChaCha20Poly1305+wycheproofAegis128L+wycheproofAegis256+nistCavpGcm' \
        >"$log" 2>&1; then
        grep -E 'ERROR|FAIL|Tests run' "$log" | head -60
        exit 1
    fi
    summary "$log"
    # On a libcrypto without ML-KEM (the system OpenSSL 3.0) 2 pass and 11 are refused; with it 10 + 3.
    grep -qE '^vectors hpke/hpke-pq.json: 13 cases: (10 passed .* 3 refused \(TurboSHAKE\), 0 refused|2 passed .* 3 refused \(TurboSHAKE\), 8 refused)' "$log" ||
        { echo "the HPKE PQ vectors did not run on $AEAD_BUILD_DIR/libaead.so.1" >&2; exit 1; }
else
    echo "== 2. skipped: no $AEAD_BUILD_DIR/libaead.so.1 (run the build stage first)"
fi

echo "== 3. the jar by coordinates from a scratch repository (module path and class path)"
bash "$HERE/test-release.sh" "$jar"

echo "== 4. the Java blocks of the READMEs, compiled and run on the jar (tests/snippets/run.py)"
python3 "$REPO/tests/snippets/run.py" --lang java --jar "$jar" "$REPO/README.md" "$HERE/README.md"
