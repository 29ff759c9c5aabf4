#!/usr/bin/env bash
# The Java blocks of user documents, compiled and run against the binding's jar.
# Usage: JAVA_HOME=<JDK 25+> tests/snippets/run-java.sh JAR FILE...
# Each block (tests/snippets/extract.py; prelude tests/snippets/prelude/java.java) is a class of its own,
# compiled by javac with every lint warning an error against JAR alone, then run with JAR on the class
# path (its bundled libaead, or the one -Dlibaead.library names in JAVA_OPTIONS); it must exit 0, or, with
# raises=NAME, fail and print NAME. A failure names the document's file:line.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
JAR="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shift
TMP="$(mktemp -d /tmp/libaead-snippets-java.XXXXXX)"
trap 'rm -rf "$TMP"' EXIT

python3 "$HERE/extract.py" --lang java --out "$TMP/src" "$@" >"$TMP/list"
if ! "$JAVA_HOME/bin/javac" -Xlint:all -Werror -cp "$JAR" -d "$TMP/classes" "$TMP"/src/*.java 2>"$TMP/javac.log"; then
    cat "$TMP/javac.log" >&2
    for name in $(grep -o 'Snippet_[A-Za-z0-9_]*\.java' "$TMP/javac.log" | sort -u | sed 's/\.java$//'); do
        echo "FAIL $(awk -F'\t' -v n="$name" '$1 == n { print $2 }' "$TMP/list"): does not compile" >&2
    done
    exit 1
fi

fail=0
while IFS=$'\t' read -r name loc raises; do
    # shellcheck disable=SC2086 # JAVA_OPTIONS is a list of options
    if out=$(timeout 120 "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED ${JAVA_OPTIONS:-} \
        -cp "$JAR:$TMP/classes" "$name" 2>&1); then rc=0; else rc=$?; fi
    if [ -z "$raises" ] && [ $rc != 0 ]; then
        echo "$out" >&2; echo "FAIL $loc: exit $rc" >&2; fail=1
    elif [ -n "$raises" ] && { [ $rc = 0 ] || ! grep -qF -- "$raises" <<<"$out"; }; then
        echo "$out" >&2; echo "FAIL $loc: expected a failure printing $raises (exit $rc)" >&2; fail=1
    else
        echo "ok $loc${raises:+ (fails with $raises, as it should)}${out:+: $(head -c 300 <<<"$out" | tr '\n' ' ')}"
    fi
done <"$TMP/list"

[ $fail = 0 ] || { echo "FAIL: Java blocks of $*" >&2; exit 1; }
files=$(cut -f2 "$TMP/list" | sed 's/:[0-9]*$//' | sort -u)
for f in $files; do echo "   $f: $(cut -f2 "$TMP/list" | grep -c "^$f:") java blocks"; done
echo "snippets: $(wc -l <"$TMP/list") java blocks of $(wc -w <<<"$files") files ran"
