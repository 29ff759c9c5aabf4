#!/usr/bin/env python3
"""Builds the libFuzzer harness (clang, ASan + UBSan; tests/setup.sh installs them) in build-fuzz and runs its
twenty-one targets two at a time (a core each): each replays its corpus (seeds and campaign inputs) and the saved
crashes, then fuzzes its share of SECONDS (default 120, at least 5 s) on a temporary copy of that corpus. Exits
non-zero on any crash, sanitizer report, leak, timeout or property failure (input in build-fuzz/fuzz-artifacts/).

Usage, from anywhere: python3 tests/fuzz/run.py [SECONDS]     (campaign.py imports the build and targets from here)
"""
import atexit, os, re, shutil, subprocess, sys, tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))
from harness import REPO, die, side_by_side  # noqa: E402

HARNESS = "tests/fuzz/fuzz_seal_open"
# Target: seeds. The unfocused harness, one target per family and per sequencing policy (AEAD_FUZZ_FOCUS), then the
# DTLS and streaming modes, which read formats of their own, from seeds of their own.
SEEDS = dict.fromkeys(("all gcm chacha20-poly1305 ccm gcm-siv ocb xchacha20-poly1305 siv aegis tls12 tls13 random-nonce "
                       "counter xor-counter ssh").split(), "tests/fuzz/corpus")
SEEDS.update((t, f"tests/fuzz/corpus-{t}") for t in "dtls12 dtls13 quic-window stream-tink stream-age stream-rfc8188".split())
COV = r"(cov: \d+ ft: \d+)"
FAILED = r"(ERROR: (?:AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|property failed)"
# Any sanitizer report stops the run and fails it.
os.environ.update(ASAN_OPTIONS="halt_on_error=1:detect_leaks=1", UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1",
                  AEAD_FUZZ_STATS="1")


def count(d):
    return sum(f.is_file() for f in Path(d).rglob("*"))


def copy_dir(src, dst):  # mkdir -p dst, and cp src/* dst/ when there is a src
    Path(dst).mkdir(parents=True, exist_ok=True)
    src and Path(src).is_dir() and shutil.copytree(src, dst, dirs_exist_ok=True)


def grab(path, pattern, last=False):
    """Group 1 of the first (or last) match of pattern in a file, else ""."""
    found = re.findall(pattern, Path(path).read_text(errors="replace") if Path(path).exists() else "", re.M)
    return found[-1 if last else 0] if found else ""


def tail(path, lines):
    return "".join(Path(path).read_text(errors="replace").splitlines(True)[-lines:])


def build(d, *options):
    """The harness built in build directory d; returns start(focus, log, *args), which starts it (a Popen)."""
    run = lambda *argv: subprocess.run(argv).returncode == 0 or die("fuzz", f"FAILED: {' '.join(map(str, argv))}")
    shutil.which("clang++") or die("fuzz", "clang++ not found (run tests/setup.sh)")
    # One ASan runtime for the library and the harness, the shared one (found through an rpath, and preloaded at run
    # time because libFuzzer's libstdc++ would otherwise be loaded before it).
    rt = subprocess.run(["clang++", f"-print-file-name=libclang_rt.asan-{os.uname().machine}.so"],
                        capture_output=True, text=True).stdout.strip()
    Path(rt).is_file() or die("fuzz", f"{rt} missing (install libclang-rt-*-dev)")
    # -fsanitize=fuzzer-no-link instruments the library too, so the fuzzer is guided by its branches.
    opts = ["-Db_sanitize=address,undefined", "-Db_lundef=false", "-Dbuildtype=debugoptimized",
            "-Dcpp_args=-fsanitize=fuzzer-no-link", f"-Dcpp_link_args=['-shared-libasan','-Wl,-rpath,{Path(rt).parent}']",
            *options]
    cc = "ccache " if shutil.which("ccache") else ""  # meson adds it only to compilers it finds
    if not Path(d, "build.ninja").exists():
        run("env", f"CC={cc}clang", f"CXX={cc}clang++", "meson", "setup", d, *opts)
    elif not grab(Path(d, "meson-info/intro-buildoptions.json"), "(fuzzer-no-link)"):
        run("meson", "configure", d, *opts)  # a build made by hand: add what the harness needs
    if not grab(Path(d, "build.ninja"), rf"^(build {HARNESS}:)"):
        die("fuzz", f"{d} has no {HARNESS} (is it configured with clang?)")
    run("ninja", "-C", d, "-j", "2", HARNESS)
    Path(d, "fuzz-artifacts").mkdir(exist_ok=True)

    def start(t, log, *args):
        with open(log, "wb") as f:
            return subprocess.Popen([Path(d, HARNESS), "-max_len=4096", *args], stdout=f, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, env={**os.environ, "LD_PRELOAD": rt, "AEAD_FUZZ_FOCUS": t})
    return start


if __name__ == "__main__":
    secs = (sys.argv[1:] or ["120"])[0]
    re.fullmatch("[0-9]+", secs) or sys.exit("usage: tests/fuzz/run.py [SECONDS]")
    os.chdir(REPO)
    start, work, out = build("build-fuzz"), Path(tempfile.mkdtemp()), {}
    atexit.register(shutil.rmtree, work, True)
    art, log, per = REPO / "build-fuzz/fuzz-artifacts", REPO / "build-fuzz/fuzz-last.log", max(int(secs) // len(SEEDS), 5)
    # Each target's corpus: its seeds and what the long campaigns kept for it (tests/fuzz/campaign/<target>); the
    # inputs of bugs found earlier are replayed with them (they fail until the library is fixed).
    for t, seeds in SEEDS.items():
        copy_dir(seeds, work / "corpora" / t)
        copy_dir(f"tests/fuzz/campaign/{t}", work / "corpora" / t)
    copy_dir("tests/fuzz/crashes", work / "crashes")
    n_inputs = count(work / "corpora")
    print(f"=== fuzz: {len(SEEDS)} targets; each replays its corpus (seeds and campaign inputs, {n_inputs} over all "
          f"targets) and {count(work / 'crashes')} saved crash inputs, then fuzzes {per} s ===", flush=True)

    def fail(t, log, what):
        out[t] = f"{tail(log, 80)}fuzz: FAILED {what}; full log {log}; inputs in {art}\n"

    def one_target(t):  # its output into out[t], printed in order once all are done (they run side by side)
        corpus, tlog, a = work / "corpora" / t, f"{log}.{t}", f"-artifact_prefix={art}/"
        if start(t, f"{tlog}.seeds", a, "-runs=0", corpus, work / "crashes").wait():
            return fail(t, f"{tlog}.seeds", f"on the seed corpus (focus {t})")
        before = count(corpus)
        status = start(t, tlog, a, f"-max_total_time={per}", "-timeout=20", "-rss_limit_mb=4096",
                       "-print_final_stats=1", corpus).wait()
        if status or grab(tlog, FAILED):  # the status as the shell gives it: 128+N when signal N ended it
            return fail(t, tlog, f"(exit {status if status >= 0 else 128 - status}, focus {t})")
        # (The DTLS modes print their own counts instead: no libsodium line, and the usage snapshots checked.)
        sodium, usage = (grab(tlog, rf"{w} (\d+)", True) for w in ("libsodium agreed with:", "usage snapshots checked"))
        out[t] = "fuzz: %-19s seeds %-18s -> after %3s s %-18s %9s execs (%s/s), %3d new inputs%s%s\n" % (
            t, grab(f"{tlog}.seeds", rf"^#\d+[ \t]+INITED.*?{COV}") or "?", per, *(grab(tlog, p) or "?" for p in (
                rf"^#\d+[ \t]+DONE.*?{COV}", r"^stat::number_of_executed_units.*?(\d+)$",
                r"^stat::average_exec_per_sec.*?(\d+)$")), count(corpus) - before,
            sodium not in ("", "0") and f", {sodium} XChaCha20 seals agreed with libsodium" or "",
            usage and f", {usage} usage snapshots agreed with the window model")
        return True
    passed = side_by_side([(f"fuzz {t}", lambda t=t: one_target(t)) for t in SEEDS])
    print("".join(out.get(t) or "" for t in SEEDS), end="")
    passed or sys.exit(1)
    print(f"fuzz: passed; new inputs found this run: {count(work / 'corpora') - n_inputs}")
