#!/usr/bin/env python3
"""The peers stage: each ecosystem's own AEAD tests, fetched pinned from where a user's machine gets them, run
unchanged on the peer (the control), then rewritten onto libaead's binding; every difference from the control
must be listed with its reason in tests/peers/differences.txt, and every listed one must still occur.
  go      GOROOT's crypto/cipher gcm_test.go and crypto/internal/cryptotest's AEAD checks, copied by go/rewrite
          (internal packages cannot be imported from outside GOROOT), crypto/cipher and crypto/aes mapped to
          go/adapter; x/crypto/chacha20poly1305's tests (go/go.mod, go.sum). Not run: TestGCMNoncesFIPSV1 (Go's
          internal FIPS constructors: no control; bindings/go/counter_nonce_test.go ports it).
  python  pyca/cryptography's test_aead.py, vectors and wheel (the control), sha256-pinned, in a venv per pins and
          $PYTHON (default python3), on the fast, api and abi backends. Its four 4 GiB test_data_too_large cases
          (20 s and 4 GiB of memory each) are listed, not run on libaead; LIBAEAD_PEERS_LARGE=1 runs them on fast.
  rust    The aes-gcm and chacha20poly1305 crates' tests/ in rust/project (Cargo.lock); rust/<crate>.sed the only
          edits. After a change of the binding's version or dependencies or of a member's pin: `cargo update -w
          --manifest-path <cache>/peers-rust/project/Cargo.toml`, then copy its Cargo.lock back.
libaead: the meson build in $AEAD_BUILD_DIR (default build/; rust makes it when absent). <cache>:
${XDG_CACHE_HOME:-~/.cache}/libaead, where each suite's work lives. Each suite runs as a child (run.py --suite
NAME: its own environment) ending with "N passed, M failed" on libaead; these add up.
Usage: python3 tests/peers/run.py [go] [python] [rust]   (default: all three)
"""
import contextlib, fcntl, hashlib, json, os, re, shutil, subprocess, sys, tempfile, time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "lib"))
from harness import CACHE, REPO, sourced_env, use_build_dir  # noqa: E402

DIFFS, PIPE, SUITE = HERE / "differences.txt", subprocess.PIPE, ""
PYCA_VERSION, PYTEST_VERSION = "50.0.2", "9.2.0"
PYCA_SDIST_SHA256 = "7b46165bb56eb4704e2eaaf86f3c940d19154535d9b0ca7d6d590b04060e00d5"
VECTORS_SHA256 = "51641f03a3eb4edbe9fb68e3a3574d25f86aa502d06391fffa886330d02778a0"
PYCA_WHEEL_SHA256 = {  # pyca's abi3 wheel for CPython >= 3.9 on glibc >= 2.28, per machine
    "x86_64": "f21e8a22c8605750c7af886bab299a363721264061b4ac0a30efb73cfd58efc5",
    "aarch64": "dfe9763530994147d9af1def057a5b9658b00e8f8fe8743d144d1e0911c2e454"}
TEST = "tests/hazmat/primitives/test_aead.py"
SUITE_FILES = ("pyproject.toml", "tests/__init__.py", "tests/conftest.py", "tests/utils.py", "tests/hazmat/__init__.py",
               "tests/hazmat/primitives/__init__.py", "tests/hazmat/primitives/utils.py", TEST)
LARGE = ("TestAESGCM", "TestChaCha20Poly1305", "TestAESOCB3", "TestAESGCMSIV")


def die(text):
    print(f"FAIL: peers {SUITE}: {text}", file=sys.stderr)
    sys.exit(1)


def sh(*argv, out=None, what=None, check=True, text=True, **kw):
    """Runs argv, stdout inherited, PIPE, DEVNULL or into a log file (a Path, stderr too); a checked run that fails
    ends the suite (what: the step's name), after showing its log."""
    log = out if isinstance(out, Path) else None
    with open(log, "w") if log else contextlib.nullcontext(out) as f:
        p = subprocess.run([str(a) for a in argv], stdout=f, stderr=subprocess.STDOUT if log else None, text=text,
                           errors="replace" if text else None, **kw)
    if check and p.returncode:
        if log:
            sys.stderr.write(log.read_text(errors="replace"))
        die(f"{what or ' '.join(map(str, argv[:3]))} failed (exit {p.returncode})")
    return p


def output(*argv, **kw):
    return sh(*argv, out=PIPE, **kw).stdout.rstrip("\n")


def grep(pattern, files):
    return [line for f in sorted(files) for line in f.read_text().splitlines() if re.search(pattern, line)]


def lock(folder):  # one run at a time in a cache folder, until the suite ends
    folder.mkdir(parents=True, exist_ok=True)
    fcntl.flock(os.open(folder / "lock", os.O_WRONLY | os.O_CREAT), fcntl.LOCK_EX)


def go():
    # The Go stage's environment (build tree or AEAD_PREFIX, -tags libaead_system, PATH, pkg-config, GOTOOLCHAIN).
    env = sourced_env(REPO / "bindings/go/env.sh", "export", "AEAD_SOURCE")
    os.environ.clear()
    os.environ.update(env)
    peers, work = HERE / "go", CACHE / "peers-go"
    m, ct = work / "module", ["-import", "crypto/internal/cryptotest=peersrun/cryptotest"]
    me, binding = (re.search(r"^module (.*)$", f.read_text(), re.M)[1] for f in (peers / "go.mod", REPO / "go.mod"))
    binding += "/bindings/go"
    src = Path(output("go", "env", "GOROOT")) / "src/crypto"
    start = int(time.time())
    lock(work)
    print(f"== peers go: {output('go', 'version').split(' ', 2)[2]}, libaead from the {os.environ['AEAD_SOURCE']},"
          f" suites in {work}")
    for f in ("cipher/gcm_test", "cipher/cbc_test", *(f"internal/cryptotest/{f}" for f in ("aead", "methods", "hash",
                                                                                         "stream", "block"))):
        if not (src / f"{f}.go").is_file():
            die(f"{src / f}.go is missing (the toolchain's source)")
    # The scratch module: the helpers' go.mod (the pinned x/crypto) and go.sum (its checksums), with the helpers
    # and the binding replaced by their directories in this checkout.
    shutil.rmtree(m, ignore_errors=True)
    m.mkdir()
    gomod = re.sub(r"^module .*", "module peersrun", (peers / "go.mod").read_text(), flags=re.M)
    gomod = re.sub(r"=> \.\./\.\./\.\.$", lambda _: f"=> {REPO}", gomod, flags=re.M)
    (m / "go.mod").write_text(f"{gomod}\nrequire {me} v0.0.0\n\nreplace {me} => {peers}\n")
    shutil.copyfile(peers / "go.sum", m / "go.sum")
    if unformatted := output("gofmt", "-l", ".", cwd=peers):
        die(f"gofmt would change: {unformatted}")
    sh("go", "vet", "./...", cwd=peers)
    for tool in ("rewrite", "compare"):
        sh("go", "build", "-o", work / tool, f"./{tool}", cwd=peers)

    def rw(file, dest, *flags):
        dest.parent.mkdir(exist_ok=True)
        sh(work / "rewrite", "-in", file, "-out", dest, *flags)

    # cryptotest's AEAD checks as they are, the three helpers they share with the rest of the package, and
    # adapter/cryptotest's TestAllImplementations.
    for f, keep, dest in (("aead", "", "aead"), ("methods", "", "methods"), ("hash", "newRandReader", "randreader"),
                          ("stream", "truncateHex", "truncatehex"), ("block", "mustPanic", "mustpanic")):
        rw(src / f"internal/cryptotest/{f}.go", m / f"cryptotest/{dest}.go", *(["-keep", keep] if keep else []))
    shutil.copyfile(peers / "adapter/cryptotest/implementations.go", m / "cryptotest/implementations.go")
    # crypto/cipher's gcm_test.go (and the one helper it takes from cbc_test.go), for each run.
    for side, swap in (("control", []), ("libaead", ["cipher", "aes"])):
        common = ["-pkg", "gcmpeer", *ct, "-import", f"crypto/internal/boring={me}/adapter/boring"]
        rw(src / "cipher/gcm_test.go", m / f"cipher-{side}/gcm_test.go", *common,
           *(a for pkg in swap for a in ("-import", f"crypto/{pkg}={me}/adapter/{pkg}")),
           "-drop", "TestGCMNoncesFIPSV1=NewGCMWithCounterNonce,NewGCMForSSH")
        rw(src / "cipher/cbc_test.go", m / f"cipher-{side}/randreader_test.go", *common, "-keep", "newRandReader")
    if hits := grep(r'"crypto/cipher"|"crypto/aes"', (m / "cipher-libaead").glob("*.go")):
        die("\n".join([*hits, "the libaead copy of crypto/cipher's tests still imports the standard library's"
                                " constructors"]))
    # x/crypto's chacha20poly1305 tests, from the module cache (downloaded and checked against go.sum).
    sh("go", "mod", "download", "golang.org/x/crypto", cwd=m)
    xdir = Path(output("go", "list", "-m", "-f", "{{.Dir}}", "golang.org/x/crypto", cwd=m)) / "chacha20poly1305"
    (m / "chacha-libaead").mkdir()
    for f in [*xdir.glob("*_test.go"), peers / "adapter/chacha20poly1305/libaead.go"]:
        shutil.copyfile(f, m / "chacha-libaead" / f.name)  # the contents only: writable
    if own := grep(r"^func (New|NewX)\(", (m / "chacha-libaead").glob("*_test.go")):
        die(f"x/crypto's tests define a constructor themselves: {own}")
    # cryptotest's AEAD checks on x/crypto's ChaCha20-Poly1305 and XChaCha20-Poly1305 (no peer suite runs them).
    for side, swap in (("control", []), ("libaead", ["-import", f"golang.org/x/crypto/chacha20poly1305={me}"
                                                                  "/adapter/chacha20poly1305"])):
        rw(peers / "testdata/chacha20poly1305_aead_test.go", m / f"cryptotest-{side}/aead_test.go", *ct, *swap)

    runs = {f"{r}-{s}": f"./{r}-{s}" for r in ("cipher", "chacha", "cryptotest") for s in ("control", "libaead")}
    runs["chacha-control"] = "golang.org/x/crypto/chacha20poly1305"
    for name, pkg in runs.items():  # each libaead run must link the binding, and no control may
        on_libaead = name.endswith("libaead")
        if (binding in output("go", "list", "-test", "-deps", pkg, cwd=m).split()) != on_libaead:
            die(f"{pkg} ({name.split('-')[1]} run) {'does not import' if on_libaead else 'imports'} {binding}")
    for name, pkg in runs.items():  # failures are the leaf counts' business, not this run's exit code
        with open(work / f"{name}.json", "w") as o, open(work / f"{name}.stderr", "w") as e:
            subprocess.run(["go", "test", "-count=1", "-json", "-timeout", "10m", pkg], cwd=m, stdout=o, stderr=e)
        for line in (work / f"{name}.stderr").read_text(errors="replace").splitlines():
            print(f"[{name}] {line}", file=sys.stderr)
    status = passed = failed = 0
    for suite, f in (("crypto/cipher", "cipher"), ("x/crypto/chacha20poly1305", "chacha"),
                     ("cryptotest/chacha20poly1305", "cryptotest")):
        p = sh(work / "compare", "-suite", suite, "-control", work / f"{f}-control.json", "-libaead",
               work / f"{f}-libaead.json", "-differences", DIFFS, out=PIPE, check=False)
        print(p.stdout.rstrip("\n"))
        last = p.stdout.rstrip("\n").rpartition("\n")[2]
        if counts := re.search(r"; libaead (\d+) passed / (\d+) failed;", last):
            passed, failed = passed + int(counts[1]), failed + int(counts[2])
        else:
            print(f"FAIL: peers go: no counts in: {last}", file=sys.stderr)
        status |= p.returncode != 0 or not counts
    print(f"== peers go: {int(time.time()) - start} s; not run on either side: crypto/cipher TestGCMNoncesFIPSV1/"
          "NewGCMWithCounterNonce and TestGCMNoncesFIPSV1/NewGCMForSSH (Go's constructors are internal to the standard"
          " library: no control run; bindings/go/counter_nonce_test.go ports them)")
    print(f"{passed} passed, {failed} failed")
    return status


def python():
    peers, py, cache = HERE / "python", os.environ.get("PYTHON") or "python3", CACHE / "peers-python"
    large, start, arch = (os.environ.get("LIBAEAD_PEERS_LARGE") or "0") != "0", int(time.time()), os.uname().machine
    # Nothing of the caller's environment chooses the library, the backend or the libcrypto's configuration.
    for var in ("LD_LIBRARY_PATH PKG_CONFIG_PATH OPENSSL_CONF OPENSSL_MODULES PYTHONPATH LIBAEAD_LIBRARY LIBAEAD_SYSTEM "
                "LIBAEAD_NO_FAST LIBAEAD_FORCE_ABI LIBAEAD_LIBCRYPTO LIBAEAD_MESON_BUILD_DIR "
                "LIBAEAD_MESON_ARGS").split():
        os.environ.pop(var, None)
    os.environ["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    if arch not in PYCA_WHEEL_SHA256:
        die(f"no pinned cryptography {PYCA_VERSION} wheel for {arch}")
    lock(cache)
    sdist, vectors = f"cryptography-{PYCA_VERSION}.tar.gz", f"cryptography_vectors-{PYCA_VERSION}-py3-none-any.whl"
    wheel = f"cryptography-{PYCA_VERSION}-cp39-abi3-manylinux_2_28_{arch}.whl"
    for project, name, sha in (("cryptography", sdist, PYCA_SDIST_SHA256), ("cryptography-vectors", vectors,
                               VECTORS_SHA256), ("cryptography", wheel, PYCA_WHEEL_SHA256[arch])):
        sh(py, peers / "peers.py", "fetch", project, name, sha, cache / name)
    # The venv with pyca's wheel, the vectors and pytest, made once per set of pins (and the Python).
    key = f"{PYCA_WHEEL_SHA256[arch]} {VECTORS_SHA256} {PYTEST_VERSION}\n"
    key = output(py, "-c", "import sys; print(sys.version)") + "\n" + key
    venv = cache / f"venv-{hashlib.sha256(key.encode()).hexdigest()[:16]}"
    vpy = venv / "bin/python"
    if not (venv / ".complete").exists():
        print(f"== peers python: venv {venv} (cryptography {PYCA_VERSION}, cryptography_vectors,"
              f" pytest {PYTEST_VERSION})")
        for old in cache.glob("venv-*"):
            shutil.rmtree(old)
        sh(py, "-m", "venv", venv)
        sh(vpy, "-m", "pip", "install", "--quiet", "--only-binary", ":all:", cache / wheel, cache / vectors,
           f"pytest=={PYTEST_VERSION}")
        (venv / ".complete").touch()
    print(f"== peers python: pip install ./bindings/python into {venv}")
    t0 = time.monotonic()
    # As the python stage builds it: a module that fails to compile is an error, _fast.c with -Werror.
    sh(vpy, "-m", "pip", "install", "--quiet", "--no-deps", "--force-reinstall", REPO / "bindings/python",
       out=cache / "pip.log", what="pip install ./bindings/python",
       env={**os.environ, "LIBAEAD_REQUIRE_COMPILED": "1", "LIBAEAD_WERROR": "1"})
    version = output(vpy, "-c", "import libaead; print(libaead.__version__, libaead.library_version())")
    print(f"   {version} ({int(time.monotonic() - t0)} s)")

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        # Two copies of the suite: pyca's as shipped, and the rewritten one. Same relative paths: same test ids.
        for side in ("pyca", "libaead"):
            (tmp / side).mkdir()
            sh("tar", "-xzf", cache / sdist, "-C", tmp / side, "--strip-components=1",
               *(f"cryptography-{PYCA_VERSION}/{f}" for f in SUITE_FILES))
        sh(py, peers / "peers.py", "swap", tmp / "pyca" / TEST, tmp / "libaead" / TEST)
        print(f"== peers python: pyca/cryptography {PYCA_VERSION} {TEST}, control and libaead's three backends")
        for side, env in (("pyca", {}), ("fast", {}), ("api", {"LIBAEAD_NO_FAST": "1"}),
                          ("abi", {"LIBAEAD_FORCE_ABI": "1"})):
            deselect = [] if side == "pyca" or side == "fast" and large else \
                [a for cls in LARGE for a in ("--deselect", f"{TEST}::{cls}::test_data_too_large")]
            t0, log, outcomes = time.monotonic(), tmp / f"{side}.log", tmp / f"{side}.json"
            env.update(LIBAEAD_PEERS_SIDE=side, LIBAEAD_PEERS_PYCA=PYCA_VERSION, LIBAEAD_PEERS_OUTCOMES=str(outcomes),
                       PYTHONPATH=str(peers))
            # pyca's pytest settings, but for its addopts, which need pytest-benchmark.
            rc = sh(vpy, "-m", "pytest", "-p", "no:cacheprovider", "-p", "libaead_peers_check", "-c", "pyproject.toml",
                    "--rootdir", ".", "-o", "addopts=--strict-markers", "-q", "-rfEs", *deselect, TEST, out=log,
                    check=False, cwd=tmp / ("pyca" if side == "pyca" else "libaead"),
                    env={**os.environ, **env}).returncode
            # 0: all passed; 1: some failed (compared below). Anything else (5: no tests, 2-4: errors) fails.
            if rc not in (0, 1) or not outcomes.exists() or not outcomes.stat().st_size:
                sys.stderr.write(log.read_text(errors="replace"))
                die(f"pytest on {side} exited with {rc}")
            print(f"   {side}: {(log.read_text(errors='replace').splitlines() or [''])[-1]} (exit {rc},"
                  f" {int(time.monotonic() - t0)} s)")
        p = sh(py, peers / "peers.py", "compare", DIFFS, tmp / "pyca.json",
               *(f"{b}={tmp / b}.json" for b in ("fast", "api", "abi")), out=PIPE, check=False)
    shown, _, last = p.stdout.rstrip("\n").rpartition("\n")
    if shown:
        print(shown)
    print(f"== peers python: {int(time.time()) - start} s; not run {'on api and abi' if large else 'on libaead'}: "
          f"{' '.join(cls + '::test_data_too_large' for cls in LARGE)} (4 GiB each)")
    if p.returncode:
        print("FAIL: peers python: outcomes differ from the control (above)", file=sys.stderr)
    print(last)
    return 1 if p.returncode else 0


def rust():
    src, crates, cache, problems = HERE / "rust", ("aes-gcm", "chacha20poly1305"), CACHE / "peers-rust", []
    project, logs, cargo = cache / "project", cache / "logs", ("cargo", "--quiet")
    for tool, hint in (("cargo", "install a Rust toolchain (>= 1.85)"), ("pkg-config", "apt-get install pkg-config")):
        if not shutil.which(tool):
            die(f"{tool} not found ({hint})")
    build = os.environ.get("AEAD_BUILD_DIR") or str(REPO / "build")
    if not Path(build, "libaead.so.1").exists() or not Path(build, "meson-uninstalled").is_dir():
        print(f"peers rust: no libaead in {build}: meson setup and compile")
        what = f"the meson build of libaead in {build}"
        if not Path(REPO, build, "build.ninja").is_file():
            sh("meson", "setup", build, cwd=REPO, out=subprocess.DEVNULL, what=what)
        sh("meson", "compile", "-C", build, cwd=REPO, out=subprocess.DEVNULL, what=what)
    os.environ["AEAD_BUILD_DIR"] = build
    build = use_build_dir("peers-rust")
    os.environ.update(LIBAEAD_SYS_USE_PKG_CONFIG="1", RUSTFLAGS="-D warnings", CARGO_TARGET_DIR=str(cache / "target"))
    logs.mkdir(parents=True, exist_ok=True)
    lock(cache)  # the project's files, its binding link and the target directory

    def put_tree(tree, dest, sed=None):  # unchanged files keep their mtimes: a warm run builds nothing
        for f in (f for f in sorted(tree.rglob("*")) if f.is_file()):
            data = sh("sed", "-f", sed, f, out=PIPE, text=False).stdout if sed and f.suffix == ".rs" else f.read_bytes()
            if not (out := dest / f.relative_to(tree)).is_file() or out.read_bytes() != data:
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(data)

    put_tree(src / "project", project)
    # The libaead members reach the binding through this link, so every checkout builds the same package.
    (cache / "binding").unlink(missing_ok=True)
    (cache / "binding").symlink_to(REPO / "bindings/rust")
    manifest = ("--manifest-path", project / "Cargo.toml")
    sh(*cargo, "fetch", "--locked", *manifest, what="cargo fetch --locked")
    meta = json.loads(output(*cargo, "metadata", "--locked", "--offline", "--format-version", "1", *manifest))
    for crate in crates:  # each package as cargo unpacked it, checksummed against Cargo.lock
        found = [p for p in meta["packages"] if p["name"] == crate and (p["source"] or "").startswith("registry+")]
        if len(found) != 1:
            die(f"cargo metadata: {len(found)} crates.io packages named {crate} in the resolve")
        pkg, version = Path(found[0]["manifest_path"]).parent, found[0]["version"]
        if not (pkg / "tests").is_dir():
            die(f"{crate} {version} ships no tests/ directory")
        names = sorted(str(f.relative_to(pkg)) for f in pkg.glob("tests/**/*.rs"))
        print(f"peers rust: {crate} {version}: {' '.join(names)}")
        put_tree(pkg / "tests", project / crate / "control/tests")
        sed = src / f"{crate}.sed"
        put_tree(pkg / "tests", project / crate / "libaead/tests", sed if sed.is_file() else None)
    # A rewrite that stops matching (a new package version) must not go unnoticed.
    lib_rs = [project / "chacha20poly1305" / s / "tests/lib.rs" for s in ("control", "libaead")]
    if [f.is_file() and "fn clone_impl" in f.read_text() for f in lib_rs] != [True, False]:
        die("chacha20poly1305.sed no longer removes chacha20::clone_impl from tests/lib.rs")
    # Build everything first (both cores): a member that does not compile fails the stage.
    sh(*cargo, "test", "--locked", "--workspace", "--no-run", *manifest, out=logs / "build.log",
       what="building the scratch workspace")

    def results(crate, variant):
        """{<target>::<test>: ok|FAILED|ignored} of one member's run, counted against cargo's `test result:`
        lines; its test binaries must load build's libaead.so.1 (libaead) or none (control)."""
        log, tests, bins, target, n, summed = logs / f"{crate}-{variant}.log", {}, [], "", 0, 0
        sh("cargo", "test", "--locked", "--no-fail-fast", "--manifest-path", project / crate / variant / "Cargo.toml",
           out=log, check=False)
        for line in log.read_text(errors="replace").splitlines():
            w = line.split()
            if re.match(r" +Running tests/.*\.rs \(", line):
                target = re.sub(r"\.rs$", "", w[1].removeprefix("tests/"))
                bins.append(w[2].replace("(", "").replace(")", ""))
            elif re.match(r"test .* \.\.\. (ok|FAILED|ignored)$", line):
                tests[f"{target}::{w[1]}"], n = w[-1], n + 1
            elif line.startswith("test result: "):
                summed += sum(int(c) for c, k in zip(w, w[1:]) if re.fullmatch(r"(passed|failed|ignored);?", k))
        if n != summed:
            die(f"could not read the results of {crate} ({variant}): {log}: {n} result lines, summaries say {summed}")
        if not bins:
            die(f"{crate} ({variant}) ran no test binary (see {log})")
        for b in bins:
            linked = "\n".join(x for x in output("ldd", b, check=False).splitlines() if "libaead.so" in x)
            if variant == "libaead" and f"=> {build}/libaead.so.1 " not in linked:
                die(f"{b} does not load {build}/libaead.so.1: {linked or 'no libaead at all'}")
            if variant == "control" and linked:
                die(f"the control {b} loads libaead: {linked}")
        return tests

    def bad(text):
        print(f"FAIL: peers rust: {text}", file=sys.stderr)
        problems.append(text)

    listed, section = [], None  # (suite, test id) of the lines under ## rust in differences.txt
    for line in DIFFS.read_text().splitlines():
        if line.startswith("## "):
            section = (line.split() + [""])[1]
        elif section == "rust" and line.split() and not line.lstrip().startswith("#"):
            listed.append(tuple((line.split() + [""])[:2]))
    totals = [0, 0, 0]  # on libaead: passed, failed unlisted, listed differences
    for crate in crates:
        control, lib = results(crate, "control"), results(crate, "libaead")
        mine, n = {i for s, i in listed if s == crate}, [0, 0, 0]
        if "ok" not in control.values():
            bad(f"{crate}: the control ran no tests")
        for i in sorted(set(control) | set(lib) | mine):
            status = lib.get(i, "not built")
            if i not in control:
                if i in lib:
                    bad(f"{crate} {i}: runs on libaead but not on the control")
                if i in mine:
                    bad(f"{crate} {i}: listed in differences.txt but not in the suite")
                continue
            if control[i] != "ok":
                bad(f"{crate} {i}: {control[i]} on the control (the crate itself)")
            if status == "ok":
                n[0] += 1
                if i in mine:
                    bad(f"{crate} {i}: listed in differences.txt but passes on libaead now: remove the line")
            elif i in mine:
                n[2] += 1
                print(f"  listed difference: {crate} {i} ({status} on libaead)")
            else:
                n[1] += 1
                bad(f"{crate} {i}: passes on the control, {status} on libaead, not listed in differences.txt")
        print(f"peers rust: {crate}: control {list(control.values()).count('ok')} passed; libaead {n[0]} passed;"
              f" listed differences {n[2]}")
        totals = [a + b for a, b in zip(totals, n)]
    for s in dict.fromkeys(s for s, _ in listed if s not in crates):
        bad(f"differences.txt names {s}, which is not a suite here")
    # Failed: the control's passes that fail on libaead unlisted; the listed differences are counted apart.
    print(f"peers rust: {totals[2]} listed differences (tests/peers/differences.txt)")
    print(f"{totals[0]} passed, {totals[1]} failed")
    if problems:
        die(f"{len(problems)} problem(s) above (logs in {logs})")
    return 0


def main(argv):
    global SUITE
    sys.stdout.reconfigure(line_buffering=True)  # in order with the tools' output
    suites = {"go": go, "python": python, "rust": rust}
    if argv[:1] == ["--suite"]:
        SUITE = argv[1]
        if SUITE not in suites:
            die(f"no such suite (one of {', '.join(suites)})")
        return suites[SUITE]()
    sums, status = [0, 0], 0
    for s in argv or list(suites):
        print(f"--- peers: {s}")
        child = subprocess.Popen([sys.executable, __file__, "--suite", s], stdout=PIPE, stderr=subprocess.STDOUT,
                                 text=True, errors="replace")
        line = ""
        for out in child.stdout:
            sys.stdout.write(out)
            if re.fullmatch(r"[0-9]+ passed, [0-9]+ failed\n?", out):
                line = out.rstrip("\n")
        if child.wait() or not line:
            print(f"peers: {s} FAILED (exit {child.returncode}{', ' + line if line else ''})", file=sys.stderr)
            status = 1
        if line:
            sums = [a + int(b) for a, b in zip(sums, line.split()[::2])]
    print("peers: all suites on libaead:")
    print(f"{sums[0]} passed, {sums[1]} failed")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
