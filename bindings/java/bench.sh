#!/usr/bin/env bash
# JMH: AES-128-GCM seal of 64 B, 1 KiB and 16 KiB through the JCA providers (SunJCE, ACCP 2.5.0,
# Conscrypt 2.9.0, Bouncy Castle 1.87, LibAead; Cipher re-initialised per message) and through the direct
# API, and the direct API's seal of AES-128-GCM, ChaCha20-Poly1305, AEGIS-128L, -128X2, -128X4 and
# AEGIS-256 side by side (AlgBench; their ratios to AES-128-GCM printed), in one JMH run, with allocation
# per operation (-prof gc). Short by default (1 fork, 2 x 1 s warm-up,
# 3 x 1 s measurement); JMH_ARGS overrides. Installs the binding into ~/.m2 first (mvn install -DskipTests).
# Prints JMH's summary and a table; JMH's JSON stays in bench/target/result.json (and is copied to
# $JAVA_BENCH_JSON when set).
# Usage: bash bindings/java/bench.sh
#
# bash bindings/java/bench.sh stream [MiB] [--rounds N] [--json FILE] runs StreamBench instead (no JMH):
# streaming AEAD, libaead's StreamingAead.aesGcmHkdf against Tink's AesGcmHkdfStreaming at Tink's templates
# AES128_GCM_HKDF_4KB and AES128_GCM_HKDF_1MB, encrypt and decrypt of a 256 MiB stream (or MiB), interleaved
# rounds, medians in MB/s and libaead/Tink, and the heap an open stream holds at 1 MiB and at MiB.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CALLER=$PWD  # stream's --json FILE is relative to where the script was called
source "$HERE/jdk.sh"
find_jdk
cd "$HERE"
mvn -B -q -ntp install -DskipTests >/dev/null
cd bench
mvn -B -q -ntp package dependency:build-classpath -Dmdep.outputFile=target/cp.txt >/dev/null
echo "== $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) CPUs, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${1:-}" = stream ]; then
    shift
    # two ciphertexts of MiB on the heap at a time (each side opens the other's): room for them
    cp="$PWD/target/classes:$(cat target/cp.txt)"
    # shellcheck disable=SC2086
    (cd "$CALLER" && nice "$JAVA_HOME/bin/java" ${STREAM_JAVA_OPTS:--Xmx3g} --enable-native-access=ALL-UNNAMED \
        -cp "$cp" org.libaead.bench.StreamBench "$@")
    echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
    exit 0
fi
# shellcheck disable=SC2086
nice "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "target/classes:$(cat target/cp.txt)" \
    org.openjdk.jmh.Main ${JMH_ARGS:--f 1 -wi 2 -w 1s -i 3 -r 1s -prof gc} \
    -rf json -rff target/result.json 'org.libaead.bench.*'
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
# JMH's JSON: every benchmark's mean and its allocation per operation; a copy where JAVA_BENCH_JSON says
# (bench/all.sh: bench/results/jmh.json, which the README's table and docs/bench.png read).
python3 "$HERE/jmh_table.py" target/result.json
if [ -n "${JAVA_BENCH_JSON:-}" ]; then
    mkdir -p "$(dirname "$JAVA_BENCH_JSON")"
    cp target/result.json "$JAVA_BENCH_JSON"
fi
