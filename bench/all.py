#!/usr/bin/env python3
"""Every benchmark whose results a document shows, one after the other, on one machine; then the tables
(bench/tables.py) and the figure (bench/plot.py) from what they wrote. Each benchmark writes its JSON where the
tables read it (bench/results/, each binding's results folder), and bench/results/run.json records the run:
the CPU, each libcrypto's version, the date, the command and which benchmarks ran (a run with --only updates
the entries of the benchmarks it ran and keeps the others).
Run it on a quiet machine: the benchmarks interleave their sides, so ratios hold under light load, but nothing
else should be measuring at the same time. A full run takes well over an hour.

  bash bench/all.sh                         # everything, results into the repository
  bash bench/all.sh --only c policy-cost    # some benchmarks (names: --list)
  bash bench/all.sh --quick --out DIR       # each benchmark's quick mode, every output under DIR

--quick needs --out: a smoke run's numbers never land where the documents read them. With --out, the
documents and the figure stay as they are, and DIR/tables.md shows the tables this run's data give.
The C library is measured on meson builds of the release build type, -Dlibcrypto=system and vendored (and
vendored OpenSSL 4.0 for c-evp), set up here (build-bench, build-bench-vendored, build-bench-vendored40)
unless AEAD_BUILD_DIR / AEAD_BUILD_DIR_VENDORED / AEAD_BUILD_DIR_VENDORED40 name existing ones. The C, Go and
Rust benchmarks also run with AEAD_DISPATCH=evp (the EVP path) for the documents' earlier-release columns, so
those come from the same machine too.
Not part of CI's test command (tests/run-all.sh): timings there would measure CI's load.
"""
import json, os, platform, re, shutil, subprocess, sys, time
from pathlib import Path
from run_lib import REPO, load, sourced_env, version_of

os.chdir(REPO)
ALL = "c c-evp c-aegis policy-cost c-quic go python rust rustls java java-stream stream node dimpl pion hpke".split()
PY = sys.executable


def die(msg):
    print(f"all.sh: {msg}", file=sys.stderr)
    sys.exit(2)


INVOCATION = " ".join(["bash bench/all.sh", *sys.argv[1:]])
QUICK, OUT, only, args = False, None, [], sys.argv[1:]
while args:
    a = args.pop(0)
    if a == "--quick":
        QUICK = True
    elif a == "--out" and args and args[0]:
        OUT = Path(os.path.abspath(args.pop(0)))
        OUT.mkdir(parents=True, exist_ok=True)
    elif a == "--only":
        while args and not args[0].startswith("--"):
            only.append(args.pop(0))
    elif a in ("--list", "-h", "--help"):
        print("\n".join(ALL) if a == "--list" else __doc__.rstrip())
        sys.exit()
    else:
        die(f"unknown argument {a} (--quick, --out DIR, --only NAME..., --list)")
if QUICK and not OUT:
    die("--quick writes only under --out DIR")
for name in only:
    if name not in ALL:
        die(f"no benchmark {name} ({' '.join(ALL)})")
ROOT = OUT or REPO
LOGS = OUT or REPO / "build-bench-logs"  # each benchmark's output, and Go's raw samples (not results)
LOGS.mkdir(parents=True, exist_ok=True)
SYS, VEN, VEN40 = (REPO / (os.environ.get("AEAD_BUILD_DIR" + v) or "build-bench" + d)
                   for v, d in (("", ""), ("_VENDORED", "-vendored"), ("_VENDORED40", "-vendored40")))
KINDS = (("system", SYS), ("vendored", VEN))
DISPATCHES = (("", "direct"), ("evp-", "evp"))  # result prefix, AEAD_DISPATCH
RAN, RAN_FILE = [], LOGS / "ran.jsonl"  # the manifest's lines, one per benchmark that finished
LOG = None  # while a benchmark runs, where its output goes (its log file and the terminal)


def q(quick, full=""):
    return quick if QUICK else full


def dest(path):
    """A result's path relative to the repository -> where this run writes it."""
    (ROOT / path).parent.mkdir(parents=True, exist_ok=True)
    return ROOT / path


def run(*cmd, cwd=REPO, env=(), base=None, out=None, tee=None):
    """cmd, env over base (default os.environ), its output (stdout also in file tee, or only in out) into LOG."""
    cmd = [str(c) for c in cmd]
    env = {**(base or os.environ), **{k: str(v) for k, v in dict(env).items()}}
    with subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE if tee else out or LOG, stderr=LOG) as p:
        if tee:
            with open(tee, "wb") as f:
                for line in p.stdout:
                    f.write(line)
                    LOG.write(line)
    if p.returncode:
        raise subprocess.CalledProcessError(p.returncode, cmd)


def record(name, command, *outputs):
    RAN.append({"name": name, "command": command, "outputs": list(outputs)})
    with open(RAN_FILE, "a") as f:
        print(json.dumps(RAN[-1]), file=f)


def link(build):  # the environment that links the Rust crates to a meson build's libaead
    return {"LIBAEAD_SYS_USE_PKG_CONFIG": 1, "PKG_CONFIG_PATH": build / "meson-uninstalled", "LD_LIBRARY_PATH": build}


def go_env(build):  # bindings/go/env.sh's, on that build
    return sourced_env(REPO / "bindings/go/env.sh", env={**os.environ, "AEAD_BUILD_DIR": str(build)}, stderr=LOG)


def builds():  # at the start of each benchmark that needs them
    # The benchmarks are built with the tests (-Dtests=true, meson's default), but only they are compiled.
    for b, opts in ((SYS, []), (VEN, ["-Dlibcrypto=vendored"])):
        if not (b / "build.ninja").exists():
            run("meson", "setup", b, "-Dbuildtype=release", *opts)
    for b in (SYS, VEN):
        run("meson", "compile", "-C", b, "-j", "2", "aead-bench", "aead-quic-bench", "aead-hpke-bench",
            "aead-aegis-bench", out=subprocess.DEVNULL)


def c_bench(exe, stem, *args, md=False, js=True, on=None, env=()):
    """build/bench/EXE ARGS [--quick] [--json bench/results/STEM.json] on each (build, STEM) (default: STEM %
    system and vendored), its output also in STEM.md if md; -> the JSONs."""
    outs = []
    for b, name in on or ((b, stem % kind) for kind, b in KINDS):
        outs.append(f"bench/results/{name}.json")
        run(b / "bench" / exe, *args, *q("--quick").split(), *(["--json", dest(outs[-1])] if js else []), env=env,
            tee=md and dest(f"bench/results/{name}.md"))
    return outs


def bench_c():
    builds()
    record("c", f"build/bench/aead-bench --cpu{q(' --quick')}", *c_bench("aead-bench", "c-%s", "--cpu", md=True))


def bench_c_evp():
    # The EVP path (AEAD_DISPATCH=evp, the code before the direct dispatch) against its EVP floor, on the system
    # libcrypto and the vendored OpenSSL 3.5 and 4.0: the "earlier releases" table.
    builds()
    if not (VEN40 / "build.ninja").exists():
        run("meson", "setup", VEN40, "-Dbuildtype=release", "-Dlibcrypto=vendored", "-Dvendored_openssl=4.0")
    run("meson", "compile", "-C", VEN40, "-j", "2", "aead-bench", out=subprocess.DEVNULL)
    outs = c_bench("aead-bench", "", "--cpu", md=True, env={"AEAD_DISPATCH": "evp"},
                   on=((SYS, "c-system-3.0"), (VEN, "c-vendored-3.5"), (VEN40, "c-vendored-4.0")))
    record("c-evp", f"AEAD_DISPATCH=evp build/bench/aead-bench --cpu{q(' --quick')} --json FILE", *outs)


def bench_c_aegis():  # AEGIS against libaead's AES-128-GCM and ChaCha20-Poly1305, on both libcryptos
    builds()
    record("c-aegis", f"build/bench/aead-aegis-bench{q(' --quick')}", *c_bench("aead-aegis-bench", "aegis-%s"))


def bench_policy_cost():
    builds()
    run(PY, "bench/policy_cost.py", SYS, q("200", "2000"),
        env={"POLICY_COST_JSON": dest("bench/results/policy-cost.json")})
    record("policy-cost", "bash bench/policy-cost.sh", "bench/results/policy-cost.json")


def bench_c_quic():
    builds()
    c_bench("aead-quic-bench", "quic-%s", md=True, js=False)
    record("c-quic", f"build/bench/aead-quic-bench{q(' --quick')}", "bench/results/quic-system.md",
           "bench/results/quic-vendored.md")


def bench_go():
    # Each libcrypto on the direct dispatch, then on the EVP path (AEAD_DISPATCH=evp: the brackets and the
    # earlier-release table of the Go README).
    builds()
    outs = []
    for (kind, b), v in zip(KINDS, ("system-3.0", "vendored-3.5")):
        for prefix, dispatch in DISPATCHES:
            o = LOGS / f"go-{kind}-{dispatch}"
            run(PY, "bindings/go/bench.py", env={"AEAD_DISPATCH": dispatch, "AEAD_BUILD_DIR": b, "AEAD_BENCH_OUT": o,
                                                 **({"COUNT": 1, "BENCHTIME": "20ms"} if QUICK else {})})
            outs.append(f"bindings/go/bench/results/{prefix}{v}.json")
            shutil.copy(o / "results.json", dest(outs[-1]))
            (o / "bench.test").unlink(missing_ok=True)
    record("go", f"{q('COUNT=1 BENCHTIME=20ms ')}bash bindings/go/bench.sh (AEAD_DISPATCH=evp for evp-*)", *outs)


def python_bench(results, bench, args, **env):  # bindings/python/bench.sh, its results into folder `results`
    run(PY, "bindings/python/bench.py", *args.split(), env={"BENCH_RESULTS": dest(results + "/x").parent,
                                                           "BENCH": bench, **env})


def bench_python():
    # Both libcryptos, libaead against pyca/cryptography, QUIC against aioquic, and the families.
    python_bench("bindings/python/bench/results", "all,families", q("--quick", "--rounds 9 --gil"))
    record("python", f"BENCH=all,families bash bindings/python/bench.sh{q(' --quick', ' --rounds 9 --gil')}",
           *(f"bindings/python/bench/results/{f}.json" for k in ("vendored", "system")
             for f in (k, f"quic-{k}", f"families-{k}")))


def bench_rust():
    # seal_open: the crate's bundled build (feature `vendored`) and the system meson build; batch and the families
    # on both meson builds. --quick checks every pair's outputs and times nothing (no JSON).
    builds()
    res = "bindings/rust/benches/results/"
    # evp: the EVP path's brackets and the earlier-release table. Both dispatches of one build in a row, so cargo
    # rebuilds only when the build changes.
    for name, b, dispatches in (("bundled-vendored-3.5.5", None, DISPATCHES), ("meson-system-3.0", SYS, DISPATCHES),
                                ("meson-vendored-3.5.5", VEN, DISPATCHES[1:])):
        for prefix, dispatch in dispatches:
            run(PY, "bindings/rust/bench.py", *q("--test").split(), env={
                "AEAD_DISPATCH": dispatch, "LIBAEAD_BENCH_JSON": dest(f"{res}{prefix}{name}.json"),
                **({"LIBAEAD_SYS_USE_PKG_CONFIG": 1, "AEAD_BUILD_DIR": b} if b else {})})
    for (kind, b), v in zip(KINDS, ("system-3.0", "vendored-3.5.5")):
        for bench, crate in (("batch", ["libaead", "--no-default-features", "--features", "alloc"]),
                             ("families", ["libaead-bench"])):
            run("cargo", "bench", "--locked", "-p", *crate, "--bench", bench, "--", *q("--test").split(),
                cwd="bindings/rust", env={**link(b), "LIBAEAD_BENCH_JSON": dest(f"{res}{bench}-meson-{v}.json")})
    if not QUICK:
        record("rust", "bash bindings/rust/bench.sh", *(f"{res}{n}.json" for n in (
            "bundled-vendored-3.5.5", "meson-system-3.0", "evp-bundled-vendored-3.5.5", "evp-meson-system-3.0",
            "evp-meson-vendored-3.5.5", "batch-meson-system-3.0", "batch-meson-vendored-3.5.5",
            "families-meson-system-3.0", "families-meson-vendored-3.5.5")))


def bench_rustls():
    builds()
    for bench in ("records", "quic"):
        run("cargo", "bench", "--locked", "--bench", bench, "--", *q("--quick").split(),
            cwd="bindings/rustls-libaead", env=link(SYS))
    quic = "bindings/rustls-libaead/benches/results/quic-system-3.0.json"
    shutil.copy("bindings/rustls-libaead/target/rustls-libaead-bench.json",
                dest("bench/results/rustls-system-3.0.json"))
    shutil.copy("bindings/rustls-libaead/target/rustls-libaead-quic-bench.json", dest(quic))
    record("rustls", f"cargo bench --locked --bench records{q(' -- --quick')}", "bench/results/rustls-system-3.0.json")
    record("rustls-quic", f"cargo bench --locked --bench quic{q(' -- --quick')}", quic)


def bench_java():
    args = q("-f 1 -wi 1 -w 200ms -i 1 -r 200ms -prof gc", os.environ.get("JMH_ARGS", ""))
    jmh = "bindings/java/bench/results/jmh.json"
    run(PY, "bindings/java/bench.py", env={"JMH_ARGS": args, "JAVA_BENCH_JSON": dest(jmh)})
    record("java", q("JMH_ARGS='" + args + "' ") + "bash bindings/java/bench.sh", jmh)


def bench_java_stream():
    # Streaming AEAD: StreamingAead.aesGcmHkdf against Tink's AesGcmHkdfStreaming (Tink's 4 KB and 1 MB
    # templates), 256 MiB streams, and the heap an open stream holds.
    args = q("16 --rounds 1", "256 --rounds 7")
    result = "bindings/java/bench/results/stream.json"
    run(PY, "bindings/java/bench.py", "stream", *args.split(), "--json", dest(result))
    record("java-stream", f"bash bindings/java/bench.sh stream {args} --json FILE", result)


def bench_stream():
    # Streaming AEAD (docs/streaming.md): C, a whole stream against aead_seal_open on the same segments and the
    # peak RSS; Python against Tink Python, http_ece and the age command (Java is java-stream).
    builds()
    run("meson", "compile", "-C", SYS, "-j", "2", "aead-stream-bench", out=subprocess.DEVNULL)
    mib = q("16", "256")
    with open(dest("bench/results/stream-c-system.json"), "wb") as f:
        run(SYS / "bench/aead-stream-bench", mib, "--json", out=f)
    python_bench("bindings/python/bench/results", "stream", q("--quick"), LIBCRYPTOS="system")
    record("stream", f"build/bench/aead-stream-bench {mib} --json; BENCH=stream LIBCRYPTOS=system bash "
           f"bindings/python/bench.sh{q(' --quick')}", "bench/results/stream-c-system.json",
           "bindings/python/bench/results/stream-python.json")


def node(script, args, json_out):  # the Node.js binding's prebuild, then bindings/node/bench/SCRIPT
    run("bash", "bindings/node/build-prebuild.sh", out=subprocess.DEVNULL)
    run("npm", "ci", "--silent", cwd="bindings/node/bench")
    run("nice", "node", script, *args.split(), "--json", dest(json_out), cwd="bindings/node/bench")


def bench_node():
    args = q("--rounds 3 --ms 5", "--rounds 7 --ms 50")
    node("bench.js", args, "bindings/node/bench/results/bench.json")
    record("node", f"cd bindings/node/bench && node bench.js {args}", "bindings/node/bench/results/bench.json")


def bench_dimpl():
    builds()
    result = "bindings/dimpl-libaead/benches/results/records-system.txt"
    run("cargo", "bench", "--locked", "--bench", "records", "--", *q("--quick").split(),
        cwd="bindings/dimpl-libaead", env=link(SYS), tee=dest(result))
    record("dimpl", "cargo bench --bench records", result)


def bench_pion():
    builds()
    raw, args = LOGS / "pion-record-system.txt", q("-benchtime 2000x -count 1", "-benchtime 40000x -count 5")
    run("go", "test", "-tags", "libaead_system", "-run", "^$", "-bench", "Record", *args.split(), ".",
        cwd="bindings/pion-libaead", base=go_env(SYS), tee=raw)
    run(PY, "bench/gotest2json.py", raw, dest("bindings/pion-libaead/results/record-system.json"),
        f"libaead={version_of(SYS)}")
    record("pion", f"go test -tags libaead_system -run '^$' -bench Record {args} .",
           "bindings/pion-libaead/results/record-system.json")


def bench_hpke():
    # HPKE (docs/hpke.md): C against aead_seal_open and OpenSSL's OSSL_HPKE (vendored 3.5), Go against
    # crypto/hpke, Python against pyhpke and pyca's hpke.Suite, Rust against the hpke crate, Node against
    # @hpke/core; one JSON per side in bench/results.
    builds()
    c_bench("aead-hpke-bench", "hpke-c-%s")
    raw, test, goenv = LOGS / "hpke-go.txt", LOGS / "hpke-go.test", go_env(SYS)
    run("go", "test", "-c", "-tags", "libaead_system", "-o", test, ".", cwd="bindings/go/hpke", base=goenv)
    with open(raw, "wb") as f:
        for _ in range(int(q("1", "10"))):
            run(test, "-test.run", "^$", "-test.bench", "HPKE", "-test.benchtime", q("20ms", "300ms"),
                cwd="bindings/go/hpke", base=goenv, out=f)
    test.unlink(missing_ok=True)
    go_version = subprocess.run(["go", "env", "GOVERSION"], stdout=subprocess.PIPE, text=True).stdout
    with open(dest("bench/results/hpke-go.json"), "wb") as f:
        run(PY, "bench/hpke_go.py", raw, version_of(SYS), go_version.strip(), out=f)
    python_bench("bench/results", "hpke", q("--quick", "--rounds 7"), LIBCRYPTOS="system")
    run("nice", "cargo", "bench", "--locked", "--bench", "hpke", "--", *q("--quick").split(), "--json",
        dest("bench/results/hpke-rust.json"), cwd="bindings/rust", env=link(SYS))
    node("hpke.js", q("--rounds 3 --ms 5", "--rounds 7 --ms 200"), "bench/results/hpke-node.json")
    record("hpke", f"build/bench/aead-hpke-bench{q(' --quick')}; BenchmarkHPKE (bindings/go/hpke); BENCH=hpke "
           "bash bindings/python/bench.sh; cargo bench --bench hpke (bindings/rust); node bindings/node/bench/hpke.js",
           *(f"bench/results/hpke-{s}.json" for s in ("c-system", "c-vendored", "go", "python", "rust", "node")))


started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
RAN_FILE.write_text("")
failed = []
for name in only or ALL:
    t0 = int(time.time())
    print(f"== {name} ({time.strftime('%H:%M:%S', time.gmtime())}, load {load()})", flush=True)
    # Its output (stdout and stderr) into LOGS/NAME.txt and here; a failing command stops this benchmark, the
    # others still run, and the manifest lists only the benchmarks that finished.
    tee = subprocess.Popen(["tee", LOGS / f"{name}.txt"], stdin=subprocess.PIPE, bufsize=0)
    LOG = tee.stdin
    try:
        globals()["bench_" + name.replace("-", "_")]()
    except (Exception, SystemExit) as e:
        failed.append(name)
        LOG.write(f"all.sh: {name}: {e}\n".encode())
    LOG.close()
    tee.wait()
    took = int(time.time()) - t0
    print(f"== {name} FAILED after {took} s (its output: {LOGS}/{name}.txt); its results are not recorded"
          if name in failed else f"== {name} done in {took} s", flush=True)

# The manifest: what ran, where, on what.
libs = {f"{k}-build": version_of(b) for k, b in KINDS if (b / "libaead.so.1").exists()}
with open("/proc/cpuinfo") as f:
    cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), platform.processor())
cpu = f"{cpu}, {os.cpu_count()} CPUs"
system = subprocess.run(["openssl", "version"], capture_output=True, text=True).stdout.strip()
m = re.search(r"OpenSSL \S+", libs.get("vendored-build", ""))
for r in RAN:
    if r["name"] in ("java", "java-stream") and m:  # the jar bundles the vendored OpenSSL of the vendored meson build
        r["libcrypto"] = f"libaead on {m.group(0)} (bundled in the jar)"
    r.update(date=started, cpu=cpu)
# A partial run (--only) keeps the entries of the benchmarks it did not run, each with its own date and CPU.
path = dest("bench/results/run.json")
old = json.loads(path.read_text()).get("benchmarks", []) if path.exists() else []
doc = {"date": started, "cpu": cpu, "command": INVOCATION, "quick": QUICK, "libcrypto": {"system": system, **libs},
       "benchmarks": [r for r in old if r["name"] not in {r["name"] for r in RAN}] + RAN}
path.write_text(json.dumps(doc, indent=1) + "\n")
print(f"all.sh: wrote {path}", flush=True)
if OUT:  # the tables this run's data would give, for review; the documents stay as they are
    with open(OUT / "tables.md", "w") as f:
        subprocess.run([PY, "bench/tables.py", "--data", OUT, "--print"], stdout=f, check=True)
    print(f"all.sh: the tables from {OUT} in {OUT}/tables.md")
else:
    subprocess.run([PY, "bench/tables.py"], check=True)
    subprocess.run([PY, "bench/plot.py"], check=True)
if failed:
    sys.exit(f"all.sh: failed: {' '.join(failed)} (rerun them with --only; the tables keep their earlier data)")
