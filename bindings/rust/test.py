#!/usr/bin/env python3
"""Tests of the Rust binding (bindings/rust). Run from anywhere; crates come from crates.io (--locked).
  python3 bindings/rust/test.py         # the crate without its `bundled` feature, linked through pkg-config to the
                                        # meson build in $AEAD_BUILD_DIR (default <repo>/build): tests, docs, clippy
  python3 bindings/rust/test.py --fips  # also: tests/options.rs under the FIPS test provider (tests/fips/env.sh)
  python3 bindings/rust/test.py --package [--vendored | --pkg-config]
--package: the crate as a user gets it from a registry. Its .crate (`cargo package`, csrc/ from vendor-csrc.sh; or
LIBAEAD_CRATE=<libaead-X.Y.Z.crate>) is unpacked, and a scratch crate outside the repository, depending on
`libaead = "=X.Y.Z"` patched to it, runs `cargo test` (scratch/bundled.rs against RustCrypto, and the package's
tests/hpke_pq.rs) with no PKG_CONFIG_PATH / LD_LIBRARY_PATH / LIBAEAD_* variables: bundled libaead on the system
libcrypto (no libaead.so loaded), on OpenSSL 3.5.5 from openssl-src (--vendored: no libcrypto.so either, NOTICE
checked by tests/release/run.py check-notice), or default-features = false on $AEAD_BUILD_DIR (--pkg-config: its libaead.so.1 loaded).
Needs: cargo >= 1.85, pkg-config, and the C library built; --package: a C++20 compiler and libssl-dev, or perl and
make (--vendored).
"""
import os, re, shlex, shutil, subprocess, sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "tests" / "lib"))
from harness import CACHE, LIB_DIR, REPO, source_env, use_build_dir  # noqa: E402

sys.stdout.reconfigure(line_buffering=True)  # in order with the commands' output
TEST = ["cargo", "test", "--locked", "--no-default-features", "--features", "alloc"]
# The tests that print counts run once, on their own, their output shown (from each match to the line's end):
# heading, cargo test arguments (--nocapture added), lines shown, lines counted, how many (0: any), the failure.
COUNTED = [
    ("HPKE (tests/hpke.rs): RFC 9180's vectors and interop with the hpke crate, their counts shown",
     "--test hpke -- --exact rfc9180_vectors interop_with_hpke_crate", "^(hpke|test result)",
     "^hpke/rfc9180.json: 128 cases|^hpke interop: ", 3, "tests/hpke.rs did not print its vector and interop counts"),
    ("HPKE post-quantum (tests/hpke_pq.rs): draft-ietf-hpke-pq's vectors, their counts shown",
     "--test hpke_pq -- --exact hpke_pq_vectors", "^(hpke/hpke-pq.json|test result)",
     "^hpke/hpke-pq.json: 13 cases: ", 0, "tests/hpke_pq.rs did not print its vector counts"),
    ("streaming AEAD (tests/stream.rs): each format against its RustCrypto oracle, the counts shown",
     "--test stream -- --exact rfc8188_against_oracle age_against_oracle tink_against_oracle",
     "(rfc8188|age|tink) oracle: |^test result", "(rfc8188|age|tink) oracle: ", 3,
     "tests/stream.rs did not print its oracle counts"),
    ("AEGIS (tests/aegis.rs): each variant and tag size against the aegis crate's pure-Rust code, the counts shown",
     "--test aegis -- aegis_crate", "^(aegis crate: |test result)",
     r"^aegis crate: AEGIS-.* tag (16|32): [0-9]+ cases, .* 0 disagreements$", 12,
     "tests/aegis.rs did not report 12 runs against the aegis crate without disagreement"),
    ("conformance vectors, per file (tests/vectors.rs, families.rs, siv.rs), their counts shown",
     "--test vectors --test families --test siv -- wycheproof nist_cavp", "^(wycheproof|nist-cavp)/",
     "^(wycheproof|nist-cavp)/", 0, "the vector tests printed no counts"),
]


def run(*argv, **kw):
    if subprocess.run(argv, **kw).returncode:
        sys.exit(f"test.py: failed: {shlex.join(map(str, argv))}")


def counted(heading, args, shown, counts, want, failure):
    print(f"== {heading}")
    cargo, filters = args.split(" -- ")
    p = subprocess.run(TEST + cargo.split() + ["--", "--nocapture", *filters.split()], text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines = p.stdout.splitlines()
    for m in filter(None, map(re.compile(f"({shown}).*").search, [] if p.returncode else lines)):
        print(m[0])
    n = sum(bool(re.search(counts, line)) for line in lines)
    if p.returncode or (n != want if want else not n):
        print(p.stdout)
        sys.exit(f"FAIL: {'cargo test failed' if p.returncode else failure}")


def pkg_config(fips):
    build = use_build_dir("bindings/rust")
    for tool, hint in (("cargo", "install a Rust toolchain (>= 1.85)"), ("pkg-config", "apt-get install pkg-config")):
        if not shutil.which(tool):
            sys.exit(f"test.py: {tool} not found; {hint}")
    # The workspace's benchmark member enables default features; this switch makes it link the meson build too.
    os.environ.update(LIBAEAD_SYS_USE_PKG_CONFIG="1", RUSTFLAGS="-D warnings", RUSTDOCFLAGS="-D warnings")
    # Its own target folder in the cache, as the other crates': a fresh clone then compiles the binding, not its
    # dev-dependencies again; what earlier clones left there goes after days unread.
    if not os.environ.get("CARGO_TARGET_DIR"):
        os.environ["CARGO_TARGET_DIR"] = str(CACHE / "cargo-target/rust")
        run(sys.executable, LIB_DIR / "prune_cargo_target.py", os.environ["CARGO_TARGET_DIR"])
    os.chdir(HERE)
    cargo = subprocess.run(["cargo", "--version"], stdout=subprocess.PIPE, text=True).stdout.split()[1]
    print(f"== cargo {cargo}, library: {build}")
    run("cargo", "fetch", "--locked")
    run(*TEST, "--", *(a for c in COUNTED for t in c[1].split(" -- ")[1].split() for a in ("--skip", t) if t[0] != "-"))
    for step in COUNTED:
        counted(*step)
    # The pkg-config path must really link the meson build's shared library.
    api = max((p for p in Path(os.environ["CARGO_TARGET_DIR"], "debug/deps").glob("api-*") if p.suffix != ".d"),
              key=lambda p: p.stat().st_mtime)
    ldd = subprocess.run(["ldd", api], stdout=subprocess.PIPE, text=True).stdout
    if f"libaead.so.1 => {build}/" not in ldd:
        sys.exit(f"test.py: {api} does not load {build}/libaead.so.1:\n{ldd}")
    print(f"== linked {build}/libaead.so.1 through pkg-config")
    print("== the Rust blocks of README.md and this README, built and run (tests/snippets/rust.py)")
    run(sys.executable, REPO / "tests/snippets/rust.py", "--crate", HERE, "--self",
        'default-features = false, features = ["alloc"]', REPO / "README.md", HERE / "README.md")
    print("== cargo doc (broken intra-doc links are errors)")
    run("cargo", "doc", "--locked", "--no-deps")
    if subprocess.run(["cargo", "clippy", "--version"], capture_output=True).returncode == 0:
        print("== cargo clippy")  # the binding only: the benchmark member (aws-lc-rs, ring) is linted by bench.sh
        run("cargo", "clippy", "--locked", "-p", "libaead", "--all-targets", "--", "-D", "warnings")
    else:
        print("== cargo clippy not installed: skipped")
    if fips:
        print("== FIPS provider as the only cipher provider: tests/options.rs with AEAD_TEST_FIPS=1")
        source_env(REPO / "tests/fips/env.sh")
        run(*TEST, "--test", "options", env={**os.environ, "AEAD_TEST_FIPS": "1"})
    print("== bindings/rust: all tests passed")


def tee(argv, env, log):
    """argv's output (with stderr) shown and written to log; its text. A failure ends the script."""
    p = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    run("tee", log, stdin=p.stdout)
    if p.wait():
        sys.exit(f"test.py: failed: {shlex.join(map(str, argv))}")
    return log.read_text(errors="replace")


def package(mode):
    # One scratch folder per mode in the cache, emptied but for its target/: cargo then reuses its builds of the
    # registry crates (with --vendored, openssl-src's OpenSSL: minutes of CPU) while their versions stay, as it does
    # for a user building twice; the unpacked libaead is new each time and so always compiled (checked below).
    scratch = CACHE / f"rust-scratch-{mode}"
    scratch.mkdir(parents=True, exist_ok=True)
    for p in scratch.iterdir():
        if p.name != "target":
            shutil.rmtree(p) if p.is_dir() and not p.is_symlink() else p.unlink()
    version = re.search(r'^version = "([^"]*)"', (HERE / "Cargo.toml").read_text(), re.M)[1]
    crate = os.environ.get("LIBAEAD_CRATE")
    if not crate:  # not verified here (package.sh does that): the scratch build below is the build that counts
        run("bash", HERE / "vendor-csrc.sh", stdout=subprocess.DEVNULL)
        run("cargo", "package", "-p", "libaead", "--allow-dirty", "--no-verify", "--quiet", "--target-dir",
            scratch / "package-target", cwd=HERE)
        crate = scratch / f"package-target/package/libaead-{version}.crate"
    (scratch / "crates").mkdir()
    run("tar", "-xzf", crate, "-C", scratch / "crates")
    pkg = scratch / f"crates/libaead-{version}"
    # tar keeps the archive's times: newer ones make cargo compile this libaead, not reuse the last run's.
    [os.utime(f) for f in pkg.rglob("*") if f.is_file()]
    if not (pkg / "Cargo.toml").is_file():
        sys.exit(f"test.py: {crate} holds no libaead-{version}/")
    run("bash", HERE / "vendor-csrc.sh", "--check", pkg / "csrc")
    print(f"== {Path(crate).name}: {os.path.getsize(crate)} bytes")
    features = {"system": "", "vendored": ', features = ["vendored"]',
                "pkg-config": ', default-features = false, features = ["alloc"]'}[mode]
    # The unpacked .crate stands in for the libaead that crates.io would serve; the package's own hpke_pq.rs runs
    # too (draft-ietf-hpke-pq's vectors and PQ round trips).
    (scratch / "Cargo.toml").write_text(f"""\
package = {{ name = "libaead-scratch", version = "0.0.0", edition = "2021", publish = false }}
lib = {{ path = "lib.rs" }}
dependencies = {{ libaead = {{ version = "={version}"{features} }} }}
test = [{{ name = "hpke_pq", path = "{pkg}/tests/hpke_pq.rs" }}]
patch.crates-io.libaead = {{ path = "{pkg}" }}

[dev-dependencies]
aes-gcm = {{ version = "0.11.1", default-features = false, features = ["aes", "alloc"] }}
aes-gcm-siv = {{ version = "0.12.1", default-features = false, features = ["aes", "alloc"] }}
ccm = {{ version = "0.6.1", default-features = false, features = ["alloc"] }}
ocb3 = {{ version = "0.2.0", default-features = false, features = ["alloc"] }}
chacha20poly1305 = {{ version = "0.11.0", default-features = false, features = ["alloc"] }}
aes = "0.9.4"
serde_json = "1"
""")
    (scratch / "lib.rs").write_text("pub use libaead;\n")
    shutil.copy(HERE / "Cargo.lock", scratch)  # the same dependency versions the repository tests with
    (scratch / "tests").mkdir()
    shutil.copy(HERE / "scratch/bundled.rs", scratch / "tests")
    if not os.environ.get("AEAD_VECTORS_DIR"):  # hpke_pq.rs reads hpke/hpke-pq.json; tests/run-all.sh exports it
        vectors = subprocess.run([sys.executable, REPO / "tests/vectors.py"], stdout=subprocess.PIPE, text=True)
        if vectors.returncode:
            sys.exit("test.py: tests/vectors.py failed")
        os.environ["AEAD_VECTORS_DIR"] = vectors.stdout.splitlines()[-1]
    os.chdir(scratch)
    print(f"== scratch crate in {scratch} (mode: {mode})")
    build = use_build_dir("test.py --package --pkg-config") if mode == "pkg-config" else None
    # None of the environment's search paths; with a meson tree, what a user of a libaead not installed sets.
    # scratch/bundled.rs is told the mode, the package's version and where to leave the version line.
    env = {k: v for k, v in os.environ.items() if k not in
           ("PKG_CONFIG_PATH", "LD_LIBRARY_PATH", "LIBAEAD_SYS_USE_PKG_CONFIG", "RUSTFLAGS", "CARGO_TARGET_DIR")}
    env.update(SCRATCH_MODE=mode, SCRATCH_VERSION=version, SCRATCH_OUT=str(scratch),
               **({"PKG_CONFIG_PATH": f"{build}/meson-uninstalled", "LD_LIBRARY_PATH": str(build)} if build else {}))
    log = tee(["nice", "cargo", "test", "--jobs", "2", "--", "--nocapture"], env, scratch / "test.log")
    # The counts follow the libcrypto's version (the test asserts them); OpenSSL 3.5's are fixed here.
    want = "13 cases: " + ("10 passed, 3 refused (TurboSHAKE), 0 refused" if mode == "vendored" else "")
    if not any(line.startswith(f"hpke/hpke-pq.json: {want}") for line in log.splitlines()):
        sys.exit(f'test.py: tests/hpke_pq.rs did not report "{want}"')
    if f"Compiling libaead v{version} ({pkg})" not in log:
        sys.exit(f"test.py: libaead was not compiled from the unpacked package {pkg}")
    binary = sorted(str(p) for p in Path("target/debug/deps").glob("bundled-*") if p.suffix != ".d")[0]
    print(f"== {binary} links:")
    ldd = tee(["ldd", binary], env, scratch / "ldd.txt")
    if build and f"libaead.so.1 => {build}/" not in ldd:
        sys.exit(f"test.py: --pkg-config binary does not load {build}/libaead.so.1")
    if not build and "libaead" in ldd:
        sys.exit("test.py: the test binary loads a shared libaead; the bundled copy was not used")
    if mode == "vendored":
        if "libcrypto" in ldd:
            sys.exit("test.py: --vendored binary loads a shared libcrypto")
        # The package's NOTICE and OpenSSL's licence name the OpenSSL that the `vendored` build reports.
        version_line = (scratch / "version.txt").read_text().rstrip("\n")
        run(sys.executable, REPO / "tests/release/run.py", "check-notice", "crate", pkg, version_line)
    print(f"== bindings/rust from its package{f' (pkg-config, {build})' if build else f', bundled ({mode})'}: passed")


MODES = {(): (pkg_config, False), ("--fips",): (pkg_config, True), ("--package",): (package, "system"),
         ("--package", "--vendored"): (package, "vendored"), ("--package", "--pkg-config"): (package, "pkg-config")}
if tuple(sys.argv[1:]) not in MODES:
    sys.exit(print(f"usage: {sys.argv[0]} [--fips | --package [--vendored | --pkg-config]]", file=sys.stderr) or 2)
step, arg = MODES[tuple(sys.argv[1:])]
step(arg)
