#!/usr/bin/env bash
# The jar as a user gets it: installed into a scratch Maven repository, then a scratch project with no
# checkout around it depends on org.libaead:libaead by coordinates, is built with Maven, and runs on the
# module path (--enable-native-access=org.libaead) and on the class path (ALL-UNNAMED), each with no
# warning on stderr and no system property: the library comes out of the jar. Its META-INF/ holds
# LICENSE, NOTICE and LICENSE-OpenSSL.txt, the NOTICE naming the OpenSSL the library runs on, and
# LICENSE-libaegis.txt (the library compiles libaegis in: AEGIS, which the scratch program runs).
# The scratch project's Maven plugins (the versions the binding's build uses) come from ~/.m2 through a
# file:// mirror, so the scratch local repository holds only what that project resolved.
# Usage: test-release.sh [path/to/libaead-<version>.jar]   (default: target/libaead-<pom version>.jar)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/jdk.sh"
rc=0; find_jdk || rc=$?
[ $rc = 2 ] && exit 0
[ $rc = 0 ] || exit 1
default="$HERE/target/libaead-$(sed -n 's|^  <version>\(.*\)</version>|\1|p' "$HERE/pom.xml" | head -1).jar"
jar="$(cd "$(dirname "${1:-$default}")" && pwd)/$(basename "${1:-$default}")"
version=$(basename "$jar" .jar | sed 's/^libaead-//')
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
repo="$TMP/scratch-repo" local="$TMP/local-repo"
# ~/.m2 named explicitly: Maven's default follows the JVM's user.home (the passwd entry), not $HOME.
m2="${MAVEN_USER_REPO:-$HOME/.m2/repository}"
MVN=(mvn -B -q -ntp -Dstyle.color=never -s "$TMP/settings.xml" -Dmaven.repo.local="$local")
cat >"$TMP/settings.xml" <<XML
<settings><mirrors><mirror><id>m2-cache</id><mirrorOf>central</mirrorOf><url>file://$m2</url></mirror></mirrors></settings>
XML
quiet() { "$@" >"$TMP/mvn.log" 2>&1 || { grep -E 'ERROR' "$TMP/mvn.log" | head -30 >&2; return 1; }; }
# (the install plugin from Maven Central into ~/.m2 as usual; only the scratch project is cut off from it)
quiet mvn -B -q -ntp -Dstyle.color=never "-Dmaven.repo.local=$m2" org.apache.maven.plugins:maven-install-plugin:3.1.4:install-file -Dfile="$jar" -DpomFile="$HERE/pom.xml" \
    -DlocalRepositoryPath="$repo"
mkdir -p "$TMP/app/src/main/java/scratch"
cat >"$TMP/app/pom.xml" <<XML
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>scratch</groupId><artifactId>app</artifactId><version>1</version>
  <properties><maven.compiler.release>25</maven.compiler.release><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>
  <repositories><repository><id>scratch</id><url>file://$repo</url></repository></repositories>
  <dependencies><dependency><groupId>org.libaead</groupId><artifactId>libaead</artifactId><version>$version</version></dependency></dependencies>
  <build><plugins>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.14.0</version></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
  </plugins></build>
</project>
XML
cat >"$TMP/app/src/main/java/module-info.java" <<'JAVA'
module scratch { requires org.libaead; uses java.security.Provider; }
JAVA
cat >"$TMP/app/src/main/java/scratch/Main.java" <<'JAVA'
package scratch;

import java.security.Provider;
import java.util.Arrays;
import java.util.ServiceLoader;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.libaead.AeadContext;
import org.libaead.Aegis128L;
import org.libaead.AesGcm;

public class Main {
    public static void main(String[] args) throws Exception {
        byte[] key = new byte[16], nonce = new byte[12], msg = "hello".getBytes();
        byte[] sealed;
        try (AesGcm a = new AesGcm(key)) {
            sealed = a.seal(nonce, null, msg);
            if (!Arrays.equals(a.open(nonce, null, sealed), msg)) throw new AssertionError("round trip");
        }
        Provider p = null;
        for (Provider q : ServiceLoader.load(Provider.class)) if (q.getName().equals("LibAead")) p = q;
        if (p == null) throw new AssertionError("LibAead provider not found by ServiceLoader");
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding", p);
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
        if (!Arrays.equals(c.doFinal(msg), sealed)) throw new AssertionError("provider differs");
        Cipher sun = Cipher.getInstance("AES/GCM/NoPadding", "SunJCE");
        sun.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
        if (!Arrays.equals(sun.doFinal(msg), sealed)) throw new AssertionError("SunJCE differs");
        try (Aegis128L a = new Aegis128L(key)) {  // the jar's library carries libaegis
            if (!a.indicator().provider().equals("libaegis")) throw new AssertionError("AEGIS from " + a.indicator().provider());
            if (!Arrays.equals(a.open(key, null, a.seal(key, null, msg)), msg)) throw new AssertionError("AEGIS round trip");
            c = Cipher.getInstance("AEGIS-128L", p);
            c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AEGIS"), new IvParameterSpec(key));
            if (!Arrays.equals(c.doFinal(a.seal(key, null, msg)), msg)) throw new AssertionError("AEGIS provider differs");
        }
        System.out.println("ok " + AeadContext.libraryVersion() + " (module " + Main.class.getModule().getName() + ")");
    }
}
JAVA
(cd "$TMP/app" && quiet "${MVN[@]}" compile)
dep="$local/org/libaead/libaead/$version/libaead-$version.jar"
cmp -s "$dep" "$jar" || { echo "release: the scratch project did not resolve the jar just installed ($dep)" >&2; exit 1; }
echo "ok: scratch project built against org.libaead:libaead:$version by coordinates"
run() {  # label, java args...
    local label=$1 out err
    shift
    out=$(cd "$TMP" && "$JAVA_HOME/bin/java" "$@" 2>"$TMP/err") || { echo "release: $label failed:" >&2; cat "$TMP/err" >&2; return 1; }
    err=$(cat "$TMP/err")
    [ -z "$err" ] || { echo "release: $label wrote to stderr: $err" >&2; return 1; }
    echo "ok: $label: $out"
}
run "module path" --enable-native-access=org.libaead -p "$TMP/app/target/classes:$dep" -m scratch/scratch.Main
run "class path" --enable-native-access=ALL-UNNAMED -cp "$dep:$TMP/app/target/classes" scratch.Main
# The jar links OpenSSL in: META-INF/ carries LICENSE, LICENSE-OpenSSL.txt and a NOTICE naming the
# OpenSSL that the jar's library reported above (tests/release/check-notice.sh).
mkdir "$TMP/meta"
(cd "$TMP/meta" && "$JAVA_HOME/bin/jar" xf "$jar" META-INF/LICENSE META-INF/NOTICE META-INF/LICENSE-OpenSSL.txt)
ran=$(cd "$TMP" && "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$dep:$TMP/app/target/classes" scratch.Main 2>/dev/null)
notice=$(bash "$HERE/../../tests/release/check-notice.sh" jar "$TMP/meta/META-INF" "$ran") || exit 1
echo "ok: META-INF: $notice"
# libaegis's MIT licence, byte-identical to the pinned aegis crate's (docs/releasing.md).
(cd "$TMP/meta" && "$JAVA_HOME/bin/jar" xf "$jar" META-INF/LICENSE-libaegis.txt)
aegis=$(bash "$HERE/../../shim/aegis/fetch.sh" | tail -n 1)
cmp -s "$TMP/meta/META-INF/LICENSE-libaegis.txt" "$aegis/LICENSE" ||
    { echo "release: the jar's META-INF/LICENSE-libaegis.txt is not the pinned aegis crate's LICENSE" >&2; exit 1; }
echo "ok: META-INF: LICENSE-libaegis.txt = the pinned aegis crate's LICENSE"
