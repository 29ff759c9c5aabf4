#!/usr/bin/env python3
"""Tests of the Go binding: gofmt, go vet, go test (verbose; the counts the tests print checked), -race, 0 allocs/op.
Needs Go >= 1.24 (older ones fetch the toolchain), a C compiler, pkg-config, and libaead built in $AEAD_BUILD_DIR
(default <repo>/build) or installed under $AEAD_PREFIX (env.sh). On a -Dlibcrypto=vendored build the coexistence test
(bench/coexist_test.go: golang-fips/openssl on the system libcrypto beside the vendored libaead) must run, not skip.
  python3 bindings/go/test.py                    # from anywhere
  AEAD_TEST_FIPS=1 python3 bindings/go/test.py   # after `source tests/fips/env.sh`: the AES tests under FIPS
  [MESON_ARGS=-Dlibcrypto=vendored] [KEEP=1] python3 bindings/go/test.py --installed
--installed: this checkout `meson install`ed into a temporary prefix (KEEP=1 keeps it), every test but -race and the
README blocks against it alone: PKG_CONFIG_PATH its pkgconfig folder, no LD_LIBRARY_PATH, libaead.so.1 found through
an rpath (TestLoadedLibrary checks that the prefix's copy is loaded).
"""
import atexit, os, re, shlex, shutil, signal, subprocess, sys, tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "tests" / "lib"))
from harness import REPO, source_env  # noqa: E402

# Under a FIPS-only configuration ChaCha20-Poly1305 is not available: only the AES-GCM and AES-CCM tests run.
FIPS_TESTS = ("^(TestIndicatorUnderFIPS|TestFamiliesUnderFIPS|TestCCMLengthLimit|TestDifferentialGCM|TestNISTCAVP|"
              "TestRandomNonce.*|TestTLS12RustlsNonces|TestTLS12GCMFirstCounter|TestGCMNoncesFIPSV1|TestCounterNonce.*|"
              "TestXORCounterNonce|TestSSHPacketLength|TestCleanupFreesContext|TestLoadedLibrary|"
              "Example(NewGCM.*|NewCCM|IndicatorOf))$")
sys.stdout.reconfigure(line_buffering=True)  # in order with the commands' output
logs = {}  # each module's tests run once, verbose: the counts are read from its log, not from a second run


def run(*argv, out=None, **kw):
    p = subprocess.run(argv, stdout=subprocess.PIPE if out is True else out, text=True, **kw)
    if p.returncode:
        print(p.stdout or "", end="")
        sys.exit(f"FAIL: {shlex.join(map(str, argv))}")
    return p.stdout


def gotest(log, *args, cwd=None):
    logs[log] = run("go", "test", "-count=1", "-v", *args, out=True, stderr=subprocess.STDOUT, cwd=cwd)
    print(*(line for line in logs[log].splitlines() if re.match(r"(ok|\?) ", line)), sep="\n")


def counts(log, what, pattern, *must_pass):
    """The lines of a log matching pattern, unindented (there must be some); the tests that must have passed."""
    lines = [line.lstrip(" ") for line in logs[log].splitlines() if re.search(pattern, line)]
    print(*lines or sys.exit(f"FAIL: {what} printed no counts"), sep="\n")
    for t in (t for t in must_pass if f"--- PASS: {t} " not in logs[log]):
        sys.exit(f"FAIL: {t} did not run")


def zero_allocs(pattern, count, what):
    """The bench module's benchmarks matching pattern, 2000 iterations each: count lines, all at 0 allocs/op."""
    out = run("go", "test", "-run", "^$", "-bench", pattern, "-benchtime=2000x", "-benchmem", ".", cwd="bench", out=True)
    lines = [line for line in out.splitlines() if line.startswith("Benchmark")]
    print(*lines, sep="\n")
    bad = [line for line in lines if not re.search(r"\s0 allocs/op", line)]
    if len(lines) != count or bad:
        sys.exit("\n".join([f"FAIL: expected {count} {what} at 0 allocs/op; got {len(lines)}, offenders:", *bad]))


installed = sys.argv[1:] == ["--installed"]
if sys.argv[1:] and not installed:
    sys.exit(print(f"usage: {sys.argv[0]} [--installed]", file=sys.stderr) or 2)
if installed:
    tmp = tempfile.mkdtemp(prefix="libaead-go-installed.", dir="/tmp")
    if not os.environ.get("KEEP"):
        atexit.register(shutil.rmtree, tmp, True)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    build, prefix = f"{tmp}/build", Path(tmp, "prefix")
    print(f"== meson setup/compile/install into {prefix} {os.environ.get('MESON_ARGS', '')}")
    run("nice", "-n", "10", "meson", "setup", build, REPO, f"--prefix={prefix}", "--buildtype=release",
        *os.environ.get("MESON_ARGS", "").split(), out=open(f"{tmp}/setup.log", "w"))
    # Only what gets installed: the library (header and .pc come with it).
    run("nice", "-n", "10", "meson", "compile", "-C", build, "-j2", "aead", out=open(f"{tmp}/compile.log", "w"))
    run("meson", "install", "-C", build, "--no-rebuild", "--quiet")
    print(*sorted(f"   installed: {f.relative_to(prefix)}" for f in prefix.rglob("*") if f.is_file() or f.is_symlink()), sep="\n")
    # Nothing of the build tree may leak in: hide it from the tests.
    shutil.rmtree(build)
    [os.environ.pop(var, None) for var in ("AEAD_BUILD_DIR", "LD_LIBRARY_PATH", "PKG_CONFIG_PATH")]
    pc = run("pkg-config", "--cflags", "--libs", "aead", out=True,
             env={**os.environ, "PKG_CONFIG_PATH": str(next(prefix.rglob("aead.pc")).parent)}).rstrip("\n")
    print(f"== pkg-config --cflags --libs aead: {pc}")
    os.environ["AEAD_PREFIX"] = str(prefix)

source_env(HERE / "env.sh")
prefix = os.environ.get("AEAD_PREFIX")
os.chdir(HERE)
# The bundled build compiles libaegis from shim/aegis/libaegis/, which a release commit carries and a checkout gets
# here (git-ignored), verified against the pinned aegis crate.
run("bash", REPO / "shim/aegis/fetch.sh", "--into", REPO / "shim/aegis/libaegis", out=subprocess.DEVNULL)
go, version = run("go", "version", out=True).split(" ", 2)[2].strip(), run("pkg-config", "--modversion", "aead", out=True)
print(f"== Go {go}, libaead {version.strip()} from the {f'prefix {prefix}' if prefix else 'build tree ' + os.environ['AEAD_BUILD_DIR']}")
# A -Dlibcrypto=vendored build: libaead.so.1 needs no shared libcrypto.
vendored = not re.search("NEEDED.*libcrypto", run("readelf", "-d", os.environ["AEAD_LIB"], out=True,
                                                  env={**os.environ, "LC_ALL": "C"}))
print("== vendored libcrypto: the coexistence test and AES-GCM-SIV (OpenSSL >= 3.2) are required\n"
      "== vendored libcrypto: empty AES-SIV messages and HPKE's ML-KEM (OpenSSL >= 3.5) are required" if vendored else
      "== system libcrypto: the coexistence test will skip (it needs -Dlibcrypto=vendored); AES-GCM-SIV must be refused on OpenSSL < 3.2")
if vendored:
    os.environ.update({f"AEAD_REQUIRE_{x}": "1" for x in ("COEXISTENCE", "GCM_SIV", "SIV_EMPTY", "MLKEM")})
# The conformance vectors (tests/vectors.py: fetched once into the cache, pinned and checksummed).
os.environ["AEAD_VECTORS_DIR"] = os.environ.get("AEAD_VECTORS_DIR") or run(sys.executable, REPO / "tests/vectors.py", out=True).splitlines()[-1]
print(f"== vectors: {os.environ['AEAD_VECTORS_DIR']}")
print("== downloading module dependencies (bench module: x/crypto, golang-fips/openssl, tink-go, age, benchstat)")
run("go", "mod", "download")
run("go", "mod", "download", cwd="bench")
if os.environ.get("AEAD_TEST_FIPS", "0") == "1":  # the FIPS indicator test must run, not skip
    print(f"== FIPS configuration ({os.environ['OPENSSL_CONF']}): AES-GCM and AES-CCM tests only")
    logs["fips"] = run("go", "test", "-count=1", "-v", "-run", FIPS_TESTS, ".", out=True)
    counts("fips", "go test", "^(--- |ok)", "TestIndicatorUnderFIPS", "TestFamiliesUnderFIPS", "TestGCMNoncesFIPSV1")
    run("go", "test", "-race", "-count=1", "-run", FIPS_TESTS, ".")
    print("== Go binding tests passed under the FIPS configuration")
    sys.exit(0)
print("== gofmt and go vet")
if unformatted := run("gofmt", "-l", ".", REPO / "libaead.go", out=True).strip():
    sys.exit(f"gofmt would change: {unformatted}")
# The whole root module (its root package and the binding's packages); its nested modules are not in it.
run("go", "vet", "./...", cwd=REPO)
run("go", "vet", "./...", cwd="bench")
print("== go test ./... (the binding's packages)")
gotest("binding", "./...")
print("== conformance vectors, per file (the tests above)")
counts("binding", "the vector tests", r"^ +(vectors|vectors_families|siv)_test\.go:[0-9]+: .*(\.(json|rsp|txt)[: ]|cases)")
print("== AEGIS (aegis_test.go): RFC 10032's vectors, every variant, tags 16 and 32 (the tests above)")
counts("binding", "the AEGIS vector test", r"^ +aegis_test\.go:[0-9]+: RFC 10032 AEGIS vectors: 36 cases",
       "TestAEGISVectors", "TestAEGISConstructors", "TestAEGISRandomNonce", "TestAEGISPanicsAndErrors")
print("== HPKE (package hpke): RFC 9180's and draft-ietf-hpke-pq's vectors, crypto/hpke both ways (the tests above)")
counts("binding", "the HPKE tests", "rfc9180.json: [0-9]+ cases|hpke-pq.json: [0-9]+ cases|PQ KEMs: |interop crypto/hpke",
       "TestRFC9180Vectors", "TestPQVectors", "TestPQKEMs", "TestInteropCryptoHPKE", "TestInteropCryptoHPKEPQ")  # Go 1.26's
print("== go test ./... (bench module: ChaCha20-Poly1305 vs x/crypto, peers agree; Tink and age streams)")
gotest("bench", "./...", cwd="bench")
print("== streaming AEAD (package stream): RFC 8188's examples; tink-go's AES-GCM-HKDF streaming and filippo.io/age's payload both ways (bench module)")
counts("binding", "the RFC 8188 examples", "RFC 8188 example [0-9]")
counts("bench", "the stream interop tests", "interop Tink|damaged Tink|interop age",
       "TestStreamTinkInterop", "TestStreamTinkDamaged", "TestStreamAgeInterop")
# The race detector checks the binding's Go code, the same on any libaead: once per stage, on the build tree.
if not prefix:
    print("== go test -race ./... (the binding's packages and the bench module)")
    run("go", "test", "-race", "-count=1", "./...")
    run("go", "test", "-race", "-count=1", "./...", cwd="bench")
print("== zero allocations per Seal/Open (benchmarks, short run)")
# Allocation counts, not bytes: allocs/op is allocations / b.N, so a one-off allocation of the runtime amortized over
# the run (seen on a busy machine: "2 B/op, 0 allocs/op") does not count, one per call does; B/op is timing-dependent.
# The exact per-call and per-batch counts are the tests' (testing.AllocsPerRun: TestZeroAllocs, TestBatchAllocs).
zero_allocs("^Benchmark(AESGCM|ChaCha20Poly1305|GCMRandomNonce)$/./././^impl=libaead$", 20, "libaead benchmarks")
print("== zero allocations per Seal/Open of the 1.2 families, AES-SIV and AEGIS (AES-GCM-SIV only where OpenSSL >= 3.2: the vendored build)")
zero_allocs("^BenchmarkFamilies$/./././^impl=libaead$", 54 if vendored else 48, "libaead family benchmarks")
print("== zero allocations per QUIC packet (one call and two calls, protect and unprotect, short run)")
zero_allocs("^BenchmarkQUICPacket$/./././^impl=(onecall|twocall)$", 16, "libaead QUIC benchmarks")
if not prefix:  # once per stage, as the race detector
    print("== the Go blocks of the READMEs, built and run (tests/snippets/go.py)")
    run(sys.executable, REPO / "tests/snippets/go.py", HERE, REPO / "README.md", HERE / "README.md")
print("== all Go binding tests passed")
if installed:
    print("== Go binding tests passed against the installed prefix")
