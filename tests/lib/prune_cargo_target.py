#!/usr/bin/env python3
"""Removes what no build has read for DAYS days (default 4) from cargo target folders kept in the cache.

The stages build libaead's crates from a fresh clone each time, in target folders that outlive it: the
registry crates are reused, but the path crates (libaead, rustls-libaead, dimpl-libaead) get a new hash
per checkout, so every run leaves its own copies of them behind. Each top-level entry of
<target>/<profile>/{deps,build,.fingerprint,incremental,examples} goes when none of its files was read
(atime) within DAYS days: a reused dependency is read by every build, so it stays. On a mount without
atime updates this prunes everything older, which costs one rebuild, not a wrong result.

Usage: prune_cargo_target.py TARGET_DIR... [--days N]
Or, sourced from bash: `source <(python3 prune_cargo_target.py --cache-target NAME)` sets CARGO_TARGET_DIR,
unless it is set, to the cache's cargo-target/NAME and prunes that folder.
"""

import os
import shlex
import shutil
import sys
import time


def newest_atime(path):
    if not os.path.isdir(path) or os.path.islink(path):
        return os.lstat(path).st_atime
    newest = 0.0
    for root, _dirs, files in os.walk(path):
        for name in files:
            try:
                newest = max(newest, os.lstat(os.path.join(root, name)).st_atime)
            except OSError:
                pass
    return newest


def prune(target, cutoff):
    freed = removed = 0
    if not os.path.isdir(target):
        return 0, 0
    for profile in os.listdir(target):
        for kind in ("deps", "build", ".fingerprint", "incremental", "examples"):
            folder = os.path.join(target, profile, kind)
            if not os.path.isdir(folder):
                continue
            for name in os.listdir(folder):
                entry = os.path.join(folder, name)
                if newest_atime(entry) >= cutoff:
                    continue
                size = sum(os.lstat(os.path.join(r, f)).st_size for r, _d, fs in os.walk(entry) for f in fs) \
                    if os.path.isdir(entry) else os.lstat(entry).st_size
                if os.path.isdir(entry) and not os.path.islink(entry):
                    shutil.rmtree(entry, ignore_errors=True)
                else:
                    os.unlink(entry)
                freed += size
                removed += 1
    return removed, freed


def main(argv):
    if argv[:1] == ["--cache-target"] and len(argv) == 2:
        if not os.environ.get("CARGO_TARGET_DIR"):
            cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
            target = os.path.join(cache, "libaead", "cargo-target", argv[1])
            removed, freed = prune(target, time.time() - 4 * 86400)
            if removed:
                print("echo %s" % shlex.quote("prune: %s: %d entries unread for 4 days, %.0f MiB" % (target, removed, freed / 2**20)))
            print("export CARGO_TARGET_DIR=%s" % shlex.quote(target))
        return
    days = 4.0
    if "--days" in argv:
        i = argv.index("--days")
        days = float(argv[i + 1])
        del argv[i:i + 2]
    if not argv:
        sys.exit(__doc__)
    cutoff = time.time() - days * 86400
    for target in argv:
        removed, freed = prune(target, cutoff)
        if removed:
            print("prune: %s: %d entries unread for %g days, %.0f MiB" % (target, removed, days, freed / 2**20))


if __name__ == "__main__":
    main(sys.argv[1:])
