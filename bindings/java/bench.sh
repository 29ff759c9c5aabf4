#!/usr/bin/env bash
# JMH: AES-128-GCM seal of 64 B, 1 KiB and 16 KiB through the JCA providers (SunJCE, ACCP 2.5.0,
# Conscrypt 2.9.0, Bouncy Castle 1.87, LibAead; Cipher re-initialised per message) and through the direct
# API, in one JMH run, with allocation per operation (-prof gc). Short by default (1 fork, 2 x 1 s warm-up,
# 3 x 1 s measurement); JMH_ARGS overrides. Installs the binding into ~/.m2 first (mvn install -DskipTests).
# Usage: bash bindings/java/bench.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/jdk.sh"
find_jdk
cd "$HERE"
mvn -B -q -ntp install -DskipTests >/dev/null
cd bench
mvn -B -q -ntp package dependency:build-classpath -Dmdep.outputFile=target/cp.txt >/dev/null
echo "== $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) CPUs, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck disable=SC2086
nice "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "target/classes:$(cat target/cp.txt)" \
    org.openjdk.jmh.Main ${JMH_ARGS:--f 1 -wi 2 -w 1s -i 3 -r 1s -prof gc} \
    -rf text -rff target/result.txt 'org.libaead.bench.*'
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
grep -vE '·gc\.(alloc\.rate |count|time|churn)' target/result.txt
