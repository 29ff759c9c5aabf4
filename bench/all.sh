#!/usr/bin/env bash
# Every benchmark whose results a document shows, one after the other, on one machine; then the tables
# (bench/tables.py) and the figure (bench/plot.sh) from what they wrote. Each benchmark writes its JSON
# where the tables read it (bench/results/, each binding's results folder), and bench/results/run.json
# records the run: the CPU, each libcrypto's version, the date, the command and which benchmarks ran (a
# run with --only updates the entries of the benchmarks it ran and keeps the others).
# Run it on a quiet machine: the benchmarks interleave their sides, so ratios hold under light load, but
# nothing else should be measuring at the same time. A full run takes well over an hour.
#
#   bash bench/all.sh                         # everything, results into the repository
#   bash bench/all.sh --only c policy-cost    # some benchmarks (names: --list)
#   bash bench/all.sh --quick --out DIR       # each benchmark's quick mode, every output under DIR
#
# --quick needs --out: a smoke run's numbers never land where the documents read them. With --out, the
# documents and the figure stay as they are, and DIR/tables.md shows the tables this run's data give.
# The C library is measured on meson builds of the release build type, -Dlibcrypto=system and vendored (and
# vendored OpenSSL 4.0 for c-evp), set up here (build-bench, build-bench-vendored, build-bench-vendored40)
# unless AEAD_BUILD_DIR / AEAD_BUILD_DIR_VENDORED / AEAD_BUILD_DIR_VENDORED40 name existing ones. The C, Go
# and Rust benchmarks also run with AEAD_DISPATCH=evp (the EVP path) for the documents' earlier-release
# columns, so those come from the same machine too.
# Not part of CI's test command (tests/run-all.sh): timings there would measure CI's load.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

ALL=(c c-evp c-aegis policy-cost c-quic go python rust rustls java java-stream stream node dimpl pion hpke)
invocation="bash bench/all.sh${*:+ $*}"
quick=0
out=
only=()
while [ $# -gt 0 ]; do
    case $1 in
        --quick) quick=1 ;;
        --out) out=$(mkdir -p "$2" && cd "$2" && pwd); shift ;;
        --only) shift; while [ $# -gt 0 ] && [[ $1 != --* ]]; do only+=("$1"); shift; done; continue ;;
        --list) printf '%s\n' "${ALL[@]}"; exit 0 ;;
        -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
        *) echo "all.sh: unknown argument $1 (--quick, --out DIR, --only NAME..., --list)" >&2; exit 2 ;;
    esac
    shift
done
[ $quick = 0 ] || [ -n "$out" ] || { echo "all.sh: --quick writes only under --out DIR" >&2; exit 2; }
[ ${#only[@]} -gt 0 ] || only=("${ALL[@]}")
for name in "${only[@]}"; do
    [[ " ${ALL[*]} " == *" $name "* ]] || { echo "all.sh: no benchmark $name (${ALL[*]})" >&2; exit 2; }
done
root=${out:-$repo}
log=${out:-$repo/build-bench-logs}  # each benchmark's output, and Go's raw samples (not results)
mkdir -p "$log"

dest() {  # a result's path relative to the repository -> where this run writes it
    mkdir -p "$(dirname "$root/$1")"
    echo "$root/$1"
}

sys_build=${AEAD_BUILD_DIR:-$repo/build-bench}
ven_build=${AEAD_BUILD_DIR_VENDORED:-$repo/build-bench-vendored}
ven40_build=${AEAD_BUILD_DIR_VENDORED40:-$repo/build-bench-vendored40}
builds_ready=0
builds() {
    [ $builds_ready = 0 ] || return 0
    # The benchmarks are built with the tests (-Dtests=true, meson's default), but only they are compiled.
    [ -e "$sys_build/build.ninja" ] || meson setup "$sys_build" -Dbuildtype=release
    [ -e "$ven_build/build.ninja" ] || meson setup "$ven_build" -Dbuildtype=release -Dlibcrypto=vendored
    meson compile -C "$sys_build" -j 2 aead-bench aead-quic-bench aead-hpke-bench aead-aegis-bench >/dev/null
    meson compile -C "$ven_build" -j 2 aead-bench aead-quic-bench aead-hpke-bench aead-aegis-bench >/dev/null
    builds_ready=1
}

ran_file=$log/ran.jsonl  # the manifest's lines, one per benchmark that finished: name, command, outputs
record() {  # name, command, output paths (relative to the repository)...
    local name=$1 command=$2
    shift 2
    python3 -c 'import json, sys; print(json.dumps({"name": sys.argv[1], "command": sys.argv[2], "outputs": sys.argv[3:]}))' \
        "$name" "$command" "$@" >> "$ran_file"
}

q() { [ $quick = 1 ] && echo "$1" || echo "${2:-}"; }

bench_c() {
    builds
    local kind b
    for kind in system vendored; do
        b=$sys_build; [ $kind = system ] || b=$ven_build
        "$b/bench/aead-bench" --cpu $(q --quick) --json "$(dest bench/results/c-$kind.json)" | tee "$(dest bench/results/c-$kind.md)"
    done
    record c "build/bench/aead-bench --cpu$(q ' --quick')" bench/results/c-system.json bench/results/c-vendored.json
}

bench_c_evp() {
    # The EVP path (AEAD_DISPATCH=evp, the code before the direct dispatch) against its EVP floor, on the
    # system libcrypto and the vendored OpenSSL 3.5 and 4.0: the "earlier releases" table.
    builds
    [ -e "$ven40_build/build.ninja" ] || meson setup "$ven40_build" -Dbuildtype=release -Dlibcrypto=vendored -Dvendored_openssl=4.0
    meson compile -C "$ven40_build" -j 2 aead-bench >/dev/null
    local b name outs=()
    for b in "$sys_build:c-system-3.0" "$ven_build:c-vendored-3.5" "$ven40_build:c-vendored-4.0"; do
        name=${b##*:}
        AEAD_DISPATCH=evp "${b%:*}/bench/aead-bench" --cpu $(q --quick) --json "$(dest bench/results/$name.json)" |
            tee "$(dest bench/results/$name.md)"
        outs+=("bench/results/$name.json")
    done
    record c-evp "AEAD_DISPATCH=evp build/bench/aead-bench --cpu$(q ' --quick') --json FILE" "${outs[@]}"
}

bench_c_aegis() {  # AEGIS against libaead's AES-128-GCM and ChaCha20-Poly1305, on both libcryptos
    builds
    local kind b
    for kind in system vendored; do
        b=$sys_build; [ $kind = system ] || b=$ven_build
        "$b/bench/aead-aegis-bench" $(q --quick) --json "$(dest bench/results/aegis-$kind.json)"
    done
    record c-aegis "build/bench/aead-aegis-bench$(q ' --quick')" bench/results/aegis-system.json bench/results/aegis-vendored.json
}

bench_policy_cost() {
    builds
    POLICY_COST_JSON=$(dest bench/results/policy-cost.json) bash bench/policy-cost.sh "$sys_build" "$(q 200 2000)"
    record policy-cost "bash bench/policy-cost.sh" bench/results/policy-cost.json
}

bench_c_quic() {
    builds
    local kind b
    for kind in system vendored; do
        b=$sys_build; [ $kind = system ] || b=$ven_build
        "$b/bench/aead-quic-bench" $(q --quick) | tee "$(dest bench/results/quic-$kind.md)"
    done
    record c-quic "build/bench/aead-quic-bench$(q ' --quick')" bench/results/quic-system.md bench/results/quic-vendored.md
}

bench_go() {
    # Each libcrypto on the direct dispatch, then on the EVP path (AEAD_DISPATCH=evp: the brackets and the
    # earlier-release table of the Go README).
    builds
    local kind b v dispatch prefix outs=()
    for kind in system vendored; do
        b=$sys_build; v=system-3.0
        [ $kind = system ] || { b=$ven_build; v=vendored-3.5; }
        for dispatch in direct evp; do
            prefix=; [ $dispatch = direct ] || prefix=evp-
            AEAD_DISPATCH=$dispatch AEAD_BUILD_DIR=$b AEAD_BENCH_OUT="$log/go-$kind-$dispatch" \
                $(q 'env COUNT=1 BENCHTIME=20ms') bash bindings/go/bench.sh
            cp "$log/go-$kind-$dispatch/results.json" "$(dest bindings/go/bench/results/$prefix$v.json)"
            rm -f "$log/go-$kind-$dispatch/bench.test"
            outs+=("bindings/go/bench/results/$prefix$v.json")
        done
    done
    record go "$(q "COUNT=1 BENCHTIME=20ms ")bash bindings/go/bench.sh (AEAD_DISPATCH=evp for evp-*)" "${outs[@]}"
}

bench_python() {
    # Both libcryptos, libaead against pyca/cryptography, QUIC against aioquic, and the families.
    BENCH_RESULTS=$(dirname "$(dest bindings/python/bench/results/x)") BENCH=all,families \
        bash bindings/python/bench.sh $(q --quick '--rounds 9 --gil')
    local outs=() kind f
    for kind in vendored system; do
        for f in "$kind" "quic-$kind" "families-$kind"; do outs+=("bindings/python/bench/results/$f.json"); done
    done
    record python "BENCH=all,families bash bindings/python/bench.sh$(q ' --quick' ' --rounds 9 --gil')" "${outs[@]}"
}

bench_rust() {
    # seal_open: the crate's bundled build (feature `vendored`) and the system meson build; batch and the
    # families on both meson builds. --quick checks every pair's outputs and times nothing (no JSON).
    builds
    local kind b v
    local dispatch prefix
    # evp: the EVP path's brackets and the earlier-release table. Both dispatches of one build in a row, so
    # cargo rebuilds only when the build changes.
    for dispatch in direct evp; do
        prefix=; [ $dispatch = direct ] || prefix=evp-
        AEAD_DISPATCH=$dispatch LIBAEAD_BENCH_JSON="$(dest bindings/rust/benches/results/${prefix}bundled-vendored-3.5.5.json)" \
            bash bindings/rust/bench.sh $(q --test)
    done
    for dispatch in direct evp; do
        prefix=; [ $dispatch = direct ] || prefix=evp-
        AEAD_DISPATCH=$dispatch LIBAEAD_SYS_USE_PKG_CONFIG=1 AEAD_BUILD_DIR=$sys_build \
            LIBAEAD_BENCH_JSON="$(dest bindings/rust/benches/results/${prefix}meson-system-3.0.json)" bash bindings/rust/bench.sh $(q --test)
    done
    AEAD_DISPATCH=evp LIBAEAD_SYS_USE_PKG_CONFIG=1 AEAD_BUILD_DIR=$ven_build \
        LIBAEAD_BENCH_JSON="$(dest bindings/rust/benches/results/evp-meson-vendored-3.5.5.json)" bash bindings/rust/bench.sh $(q --test)
    for kind in system vendored; do
        b=$sys_build; v=system-3.0
        [ $kind = system ] || { b=$ven_build; v=vendored-3.5.5; }
        (
            export LIBAEAD_SYS_USE_PKG_CONFIG=1 PKG_CONFIG_PATH="$b/meson-uninstalled" LD_LIBRARY_PATH="$b"
            cd bindings/rust
            LIBAEAD_BENCH_JSON="$(dest bindings/rust/benches/results/batch-meson-$v.json)" \
                cargo bench --locked -p libaead --no-default-features --features alloc --bench batch -- $(q --test)
            LIBAEAD_BENCH_JSON="$(dest bindings/rust/benches/results/families-meson-$v.json)" \
                cargo bench --locked -p libaead-bench --bench families -- $(q --test)
        )
    done
    [ $quick = 1 ] || record rust "bash bindings/rust/bench.sh" \
        bindings/rust/benches/results/bundled-vendored-3.5.5.json bindings/rust/benches/results/meson-system-3.0.json \
        bindings/rust/benches/results/evp-bundled-vendored-3.5.5.json bindings/rust/benches/results/evp-meson-system-3.0.json \
        bindings/rust/benches/results/evp-meson-vendored-3.5.5.json \
        bindings/rust/benches/results/batch-meson-system-3.0.json bindings/rust/benches/results/batch-meson-vendored-3.5.5.json \
        bindings/rust/benches/results/families-meson-system-3.0.json bindings/rust/benches/results/families-meson-vendored-3.5.5.json
}

bench_rustls() {
    builds
    (
        export LIBAEAD_SYS_USE_PKG_CONFIG=1 PKG_CONFIG_PATH="$sys_build/meson-uninstalled" LD_LIBRARY_PATH="$sys_build"
        cd bindings/rustls-libaead
        cargo bench --locked --bench records -- $(q --quick)
        cargo bench --locked --bench quic -- $(q --quick)
    )
    cp bindings/rustls-libaead/target/rustls-libaead-bench.json "$(dest bench/results/rustls-system-3.0.json)"
    cp bindings/rustls-libaead/target/rustls-libaead-quic-bench.json \
        "$(dest bindings/rustls-libaead/benches/results/quic-system-3.0.json)"
    record rustls "cargo bench --locked --bench records$(q ' -- --quick')" bench/results/rustls-system-3.0.json
    record rustls-quic "cargo bench --locked --bench quic$(q ' -- --quick')" \
        bindings/rustls-libaead/benches/results/quic-system-3.0.json
}

bench_java() {
    local args=${JMH_ARGS:-}
    [ $quick = 0 ] || args="-f 1 -wi 1 -w 200ms -i 1 -r 200ms -prof gc"
    JMH_ARGS=$args JAVA_BENCH_JSON=$(dest bindings/java/bench/results/jmh.json) bash bindings/java/bench.sh
    record java "$(q "JMH_ARGS='$args' ")bash bindings/java/bench.sh" bindings/java/bench/results/jmh.json
}

bench_java_stream() {
    # Streaming AEAD: StreamingAead.aesGcmHkdf against Tink's AesGcmHkdfStreaming (Tink's 4 KB and 1 MB
    # templates), 256 MiB streams, and the heap an open stream holds.
    local args
    args=$(q '16 --rounds 1' '256 --rounds 7')
    # shellcheck disable=SC2086
    bash bindings/java/bench.sh stream $args --json "$(dest bindings/java/bench/results/stream.json)"
    record java-stream "bash bindings/java/bench.sh stream $args --json FILE" bindings/java/bench/results/stream.json
}

bench_stream() {
    # Streaming AEAD (docs/streaming.md): C, a whole stream against aead_seal_open on the same segments and
    # the peak RSS; Python against Tink Python, http_ece and the age command (Java is java-stream).
    builds
    meson compile -C "$sys_build" -j 2 aead-stream-bench >/dev/null
    local mib
    mib=$(q 16 256)
    "$sys_build/bench/aead-stream-bench" "$mib" --json >"$(dest bench/results/stream-c-system.json)"
    BENCH_RESULTS=$(dirname "$(dest bindings/python/bench/results/x)") BENCH=stream LIBCRYPTOS=system \
        bash bindings/python/bench.sh $(q --quick)
    record stream "build/bench/aead-stream-bench $mib --json; BENCH=stream LIBCRYPTOS=system bash bindings/python/bench.sh$(q ' --quick')" \
        bench/results/stream-c-system.json bindings/python/bench/results/stream-python.json
}

bench_node() {
    bash bindings/node/build-prebuild.sh >/dev/null
    (cd bindings/node/bench && npm ci --silent && nice node bench.js $(q '--rounds 3 --ms 5' '--rounds 7 --ms 50') \
        --json "$(dest bindings/node/bench/results/bench.json)")
    record node "cd bindings/node/bench && node bench.js$(q ' --rounds 3 --ms 5' ' --rounds 7 --ms 50')" bindings/node/bench/results/bench.json
}

bench_dimpl() {
    builds
    (
        export LIBAEAD_SYS_USE_PKG_CONFIG=1 PKG_CONFIG_PATH="$sys_build/meson-uninstalled" LD_LIBRARY_PATH="$sys_build"
        cd bindings/dimpl-libaead
        cargo bench --locked --bench records -- $(q --quick)
    ) | tee "$(dest bindings/dimpl-libaead/benches/results/records-system.txt)"
    record dimpl "cargo bench --bench records" bindings/dimpl-libaead/benches/results/records-system.txt
}

bench_pion() {
    builds
    local raw=$log/pion-record-system.txt
    (
        AEAD_BUILD_DIR=$sys_build
        source bindings/go/env.sh >/dev/null
        cd bindings/pion-libaead
        go test -tags libaead_system -run '^$' -bench Record $(q '-benchtime 2000x -count 1' '-benchtime 40000x -count 5') .
    ) | tee "$raw"
    python3 bench/gotest2json.py "$raw" "$(dest bindings/pion-libaead/results/record-system.json)" \
        "libaead=$(version_of "$sys_build")"
    record pion "go test -tags libaead_system -run '^\$' -bench Record $(q '-benchtime 2000x -count 1' '-benchtime 40000x -count 5') ." \
        bindings/pion-libaead/results/record-system.json
}

bench_hpke() {
    # HPKE (docs/hpke.md): C against aead_seal_open and OpenSSL's OSSL_HPKE (vendored 3.5), Go against
    # crypto/hpke, Python against pyhpke and pyca's hpke.Suite, Rust against the hpke crate, Node against
    # @hpke/core; one JSON per side in bench/results.
    builds
    local kind b outs=()
    for kind in system vendored; do
        b=$sys_build; [ $kind = system ] || b=$ven_build
        "$b/bench/aead-hpke-bench" $(q --quick) --json "$(dest bench/results/hpke-c-$kind.json)"
        outs+=("bench/results/hpke-c-$kind.json")
    done
    local raw=$log/hpke-go.txt i
    (export AEAD_BUILD_DIR=$sys_build && source bindings/go/env.sh && cd bindings/go/hpke &&
        go test -c -tags libaead_system -o "$log/hpke-go.test" . && : > "$raw" &&
        for i in $(seq "$(q 1 10)"); do
            "$log/hpke-go.test" -test.run '^$' -test.bench HPKE -test.benchtime "$(q 20ms 300ms)" >> "$raw"
        done)
    rm -f "$log/hpke-go.test"
    python3 bench/hpke_go.py "$raw" "$(version_of "$sys_build")" "$(go env GOVERSION)" > "$(dest bench/results/hpke-go.json)"
    outs+=(bench/results/hpke-go.json)
    BENCH_RESULTS=$(dirname "$(dest bench/results/x)") BENCH=hpke LIBCRYPTOS=system \
        bash bindings/python/bench.sh $(q --quick '--rounds 7')
    outs+=(bench/results/hpke-python.json)
    (export LIBAEAD_SYS_USE_PKG_CONFIG=1 PKG_CONFIG_PATH="$sys_build/meson-uninstalled" LD_LIBRARY_PATH="$sys_build" &&
        cd bindings/rust && nice cargo bench --locked --bench hpke -- $(q --quick) --json "$(dest bench/results/hpke-rust.json)")
    outs+=(bench/results/hpke-rust.json)
    bash bindings/node/build-prebuild.sh >/dev/null
    (cd bindings/node/bench && npm ci --silent && nice node hpke.js $(q '--rounds 3 --ms 5' '--rounds 7 --ms 200') \
        --json "$(dest bench/results/hpke-node.json)")
    outs+=(bench/results/hpke-node.json)
    record hpke "build/bench/aead-hpke-bench$(q ' --quick'); BenchmarkHPKE (bindings/go/hpke); BENCH=hpke bash bindings/python/bench.sh; cargo bench --bench hpke (bindings/rust); node bindings/node/bench/hpke.js" "${outs[@]}"
}

version_of() {  # a meson build dir -> its libaead's aead_version(): "libaead X (OpenSSL Y ...)"
    python3 -c 'import ctypes, sys; lib = ctypes.CDLL(sys.argv[1] + "/libaead.so.1"); lib.aead_version.restype = ctypes.c_char_p; print(lib.aead_version().decode())' "$1"
}
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
: > "$ran_file"
failed=()
for name in "${only[@]}"; do
    t0=$(date +%s)
    echo "== $name ($(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg))"
    # In a child shell of its own, where set -e stops the benchmark at its first failing command (an `if`
    # or `||` around a function would switch set -e off inside it); the others still run, and the
    # manifest lists only the benchmarks that finished.
    "bench_${name//-/_}" > >(tee "$log/$name.txt") 2>&1 &
    if wait $!; then
        echo "== $name done in $(($(date +%s) - t0)) s"
    else
        failed+=("$name")
        echo "== $name FAILED after $(($(date +%s) - t0)) s (its output: $log/$name.txt); its results are not recorded"
    fi
done

# The manifest: what ran, where, on what.
libs=()
[ ! -e "$sys_build/libaead.so.1" ] || libs+=("system-build=$(version_of "$sys_build")")
[ ! -e "$ven_build/libaead.so.1" ] || libs+=("vendored-build=$(version_of "$ven_build")")
mapfile -t ran < "$ran_file"
python3 - "$(dest bench/results/run.json)" "$started" "$quick" "$invocation" "${libs[@]/#/lib:}" "${ran[@]}" <<'EOF'
import json, os, platform, re, subprocess, sys
path, started, quick, command = sys.argv[1:5]
libs = dict(a[4:].split("=", 1) for a in sys.argv[5:] if a.startswith("lib:"))
runs = [json.loads(a) for a in sys.argv[5:] if not a.startswith("lib:")]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
system = subprocess.run(["openssl", "version"], capture_output=True, text=True).stdout.strip()
for r in runs:  # the jar bundles the vendored OpenSSL that the vendored meson build has
    m = re.search(r"OpenSSL \S+", libs.get("vendored-build", ""))
    if r["name"] in ("java", "java-stream") and m:
        r["libcrypto"] = f"libaead on {m.group(0)} (bundled in the jar)"
cpu = f"{cpu}, {os.cpu_count()} CPUs"
for r in runs:
    r.update(date=started, cpu=cpu)
# A partial run (--only) keeps the entries of the benchmarks it did not run, each with its own date and CPU.
old = json.load(open(path)).get("benchmarks", []) if os.path.exists(path) else []
names = {r["name"] for r in runs}
doc = {"date": started, "cpu": cpu, "command": command, "quick": quick == "1",
       "libcrypto": {"system": system, **libs}, "benchmarks": [r for r in old if r["name"] not in names] + runs}
with open(path, "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
print(f"all.sh: wrote {path}")
EOF
if [ -z "$out" ]; then
    python3 bench/tables.py
    bash bench/plot.sh
else  # the tables this run's data would give, for review; the documents stay as they are
    python3 bench/tables.py --data "$out" --print > "$out/tables.md"
    echo "all.sh: the tables from $out in $out/tables.md"
fi
if [ ${#failed[@]} -gt 0 ]; then
    echo "all.sh: failed: ${failed[*]} (rerun them with --only; the tables keep their earlier data)" >&2
    exit 1
fi
