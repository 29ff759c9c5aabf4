#!/usr/bin/env python3
"""A long fuzzing campaign on each TARGET for a budget of CPU time (default 1800 s: CPU, not wall time, so campaigns
sharing a loaded machine still get their whole budget), then a minimized merge of what it found into
tests/fuzz/campaign/<target>/, which run.py replays in CI. --vendored builds on the pinned OpenSSL 3.5
(build-fuzz-vendored): GCM-SIV and SIV's empty message exist only there, for the library and the EVP oracle. Prints a
summary line per target (CPU and wall time, executions, coverage after the replay and at the end, inputs kept), also
appended to build-fuzz*/campaigns.log. Exits non-zero on any crash or property failure (input in fuzz-artifacts/).

Usage, from anywhere: python3 tests/fuzz/campaign.py [--cpu SECONDS] [--vendored] TARGET...
"""
import argparse, atexit, os, re, shutil, signal, subprocess, sys, tempfile, time
from pathlib import Path
from run import COV, FAILED, REPO, SEEDS, build, copy_dir, count, grab, tail


def cpu_of(pid):  # CPU seconds of a running process; None once it has ended (gone, or a zombie not reaped yet)
    try:
        f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return None if f[0] == "Z" else (int(f[11]) + int(f[12])) // os.sysconf("SC_CLK_TCK")


p = argparse.ArgumentParser(usage="tests/fuzz/campaign.py [--cpu SECONDS] [--vendored] TARGET...")
p.add_argument("--cpu", type=lambda s: int(re.fullmatch("[0-9]+", s)[0]), default=1800)
p.add_argument("--vendored", action="store_true")
p.add_argument("targets", nargs="+", choices=SEEDS, metavar="TARGET")
args = p.parse_args()
d, opts = ("build-fuzz-vendored", ["-Dlibcrypto=vendored"]) if args.vendored else ("build-fuzz", [])
os.chdir(REPO)
start, art, work = build(d, *opts), REPO / d / "fuzz-artifacts", Path(tempfile.mkdtemp())
atexit.register(shutil.rmtree, work, True)
for t in args.targets:
    kept, log, w = Path("tests/fuzz/campaign", t), REPO / d / f"campaign-{t}.log", work / t
    for src, dst in ((None, kept), (None, w / "new"), (SEEDS[t], w / "seeds"), ("tests/fuzz/crashes", w / "crashes")):
        copy_dir(src, dst)
    before, t0 = count(kept), time.monotonic()
    # New inputs go to the first folder; the seeds and the earlier campaigns' inputs are read, not changed.
    # SIGUSR2 ends the run: the harness prints its own counts, then libFuzzer its final statistics.
    fuzzer = start(t, log, f"-artifact_prefix={art}/", f"-max_total_time={args.cpu * 50}", "-handle_usr2=0",
                   "-timeout=20", "-rss_limit_mb=4096", "-print_final_stats=1", w / "new", w / "seeds", kept, w / "crashes")
    while (used := cpu_of(fuzzer.pid)) is not None and used < args.cpu:
        time.sleep(5)
    used is None or os.kill(fuzzer.pid, signal.SIGUSR2)
    _, status, usage = os.wait4(fuzzer.pid, 0)  # wait4: with the CPU time it used in the end
    fuzzer.returncode = status = os.waitstatus_to_exitcode(status)
    status, used, wall = status if status >= 0 else 128 - status, usage.ru_utime + usage.ru_stime, time.monotonic() - t0
    if status or grab(log, FAILED):
        print(tail(log, 60), end="")
        sys.exit(f"campaign: FAILED on {t} (exit {status}); log {log}; inputs in {art}")
    # Minimize: of this run's inputs, keep those that add coverage features to the seeds and the inputs kept before
    # (libFuzzer's -merge=1 copies only such inputs into its first folder).
    copy_dir(w / "seeds", w / "merged")
    copy_dir(kept, w / "merged")
    if start(t, f"{log}.merge", "-merge=1", "-use_counters=0", "-timeout=20", w / "merged", w / "new").wait():
        print(tail(f"{log}.merge", 30), end="")
        sys.exit(f"campaign: the merge FAILED on {t}; log {log}.merge")
    for f in (w / "merged").iterdir():
        (w / "seeds" / f.name).exists() or (kept / f.name).exists() or shutil.copy(f, kept)
    last = grab(log, r"^#\d+[ \t]+(?:DONE|NEW|REDUCE|pulse)(.*)", True)
    extra = grab(log, r"^(.*(?:libsodium agreed with: \d+|usage snapshots checked \d+).*)$", True)
    line = "%s %-19s %s cpu %5d s, wall %5d s, %10s execs, %s -> %s, %4d inputs found, %3d kept (%d before, %s)%s" % (
        time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), t, d, used, wall,
        grab(log, r"^stat::number_of_executed_units.*?(\d+)$") or "?", grab(log, rf"^#\d+[ \t]+INITED.*?{COV}") or "?",
        (re.findall(COV, last) or ["?"])[0], count(w / "new"), count(kept), before,
        subprocess.run(["du", "-sh", kept], capture_output=True, text=True).stdout.split("\t")[0], extra and f"; {extra}")
    print(line, flush=True)
    with open(REPO / d / "campaigns.log", "a") as f:
        f.write(line + "\n")
