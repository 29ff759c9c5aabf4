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
cp -r "$HERE/release-app/." "$TMP/app"
(cd "$TMP/app" && quiet "${MVN[@]}" -Dscratch.repo="$repo" -Dlibaead.version="$version" compile)
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
# OpenSSL that the jar's library reported above (tests/release/run.py check-notice).
mkdir "$TMP/meta"
(cd "$TMP/meta" && "$JAVA_HOME/bin/jar" xf "$jar" META-INF/LICENSE META-INF/NOTICE META-INF/LICENSE-OpenSSL.txt)
ran=$(cd "$TMP" && "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$dep:$TMP/app/target/classes" scratch.Main 2>/dev/null)
notice=$(python3 "$HERE/../../tests/release/run.py" check-notice jar "$TMP/meta/META-INF" "$ran") || exit 1
echo "ok: META-INF: $notice"
# libaegis's MIT licence, byte-identical to the pinned aegis crate's (docs/releasing.md).
(cd "$TMP/meta" && "$JAVA_HOME/bin/jar" xf "$jar" META-INF/LICENSE-libaegis.txt)
aegis=$(bash "$HERE/../../shim/aegis/fetch.sh" | tail -n 1)
cmp -s "$TMP/meta/META-INF/LICENSE-libaegis.txt" "$aegis/LICENSE" ||
    { echo "release: the jar's META-INF/LICENSE-libaegis.txt is not the pinned aegis crate's LICENSE" >&2; exit 1; }
echo "ok: META-INF: LICENSE-libaegis.txt = the pinned aegis crate's LICENSE"
