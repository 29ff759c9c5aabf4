# Sourced by the Java scripts: picks JDK 25 or later into JAVA_HOME (JAVA_HOME if it is one, else the
# newest /usr/lib/jvm/temurin-2[5-9]* or /usr/lib/jvm/*-2[5-9]*). Without one: returns 1 when CI is set,
# else prints why and returns 2 (the caller skips).
java_major() { "$1/bin/java" -version 2>&1 | awk -F'"' '/version/ {split($2, v, "."); print v[1]; exit}'; }
find_jdk() {
    local c
    for c in "${JAVA_HOME:-}" $(ls -d /usr/lib/jvm/temurin-2[5-9]* /usr/lib/jvm/*-2[5-9]* 2>/dev/null | sort -rV); do
        [ -n "$c" ] && [ -x "$c/bin/java" ] || continue
        if [ "$(java_major "$c")" -ge 25 ] 2>/dev/null; then
            export JAVA_HOME=$c
            return 0
        fi
    done
    if [ -n "${CI:-}" ]; then
        echo "java: no JDK 25 or later (JAVA_HOME or /usr/lib/jvm/temurin-25*) and CI is set: failing" >&2
        return 1
    fi
    echo "java: no JDK 25 or later found (set JAVA_HOME); skipped" >&2
    return 2
}
