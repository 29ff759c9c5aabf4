#!/usr/bin/env python3
"""ABI checks: the exported symbols are exactly the checked-in list, all versioned LIBAEAD_<major>; the
released version nodes are frozen; the SONAME, AEAD_ABI_VERSION and the .pc version agree with meson.build;
`meson install` installs the header, the library with its symlink chain and aead.pc; a consumer builds
against it with pkg-config; and one built against the released 1.0 header binds to LIBAEAD_<major> and runs.

Usage: python3 tests/abi/check.py   (AEAD_BUILD_DIR: the meson build, default <repo>/build)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("AEAD_BUILD_DIR") or os.path.join(REPO, "build")
checks = 0


def out(*cmd, env=None):
    return subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=True,
                          env=None if env is None else {**os.environ, **env}).stdout


def ok(cond, passed, failed):
    global checks
    if not cond:
        sys.exit(failed)
    checks += 1
    print("ok:", passed)


def main(stage):
    lib = os.path.join(BUILD, "libaead.so.1")
    version = json.loads(out("meson", "introspect", "--projectinfo", BUILD))["version"]
    major = version.split(".")[0]
    exports = [line.split() for line in out("nm", "-D", "--defined-only", lib).splitlines()]
    want = open(os.path.join(HERE, "symbols.txt")).read()
    got = "".join(sorted(f[2] + "\n" for f in exports))
    if got != want:
        subprocess.run(["diff", "-u", os.path.join(HERE, "symbols.txt"), "-"], input=got, text=True)
    ok(got == want, "exported symbols match tests/abi/symbols.txt",
       "exported symbols changed: update tests/abi/symbols.txt only for an intended ABI change (docs/abi.md)")
    bad = [f[2] for f in exports if f[1] == "T" and not re.search(rf"@@LIBAEAD_{major}(\.[0-9]+)?$", f[2])]
    ok(not bad, f"every exported function is versioned LIBAEAD_{major} or LIBAEAD_{major}.<minor>", f"unversioned export: {bad}")
    # The released nodes are frozen: 1.0's nine functions keep LIBAEAD_1 (a new function in it would be an edit
    # of a released node, which old binaries cannot tell from the real 1.0); 1.1's five, 1.2's six, 1.3's two,
    # 1.4's four, 1.6's seventeen (1.5 added none).
    for node, n in (("", 9), (".1", 5), (".2", 6), (".3", 2), (".4", 4), (".6", 17)):
        count = len(re.findall(rf"@@LIBAEAD_{major}{re.escape(node)}$", want, re.M))
        ok(count == n, f"LIBAEAD_{major}{node} still holds exactly its {n} functions", f"LIBAEAD_{major}{node} node changed")
    soname = re.search(r"\(SONAME\).*\[(.*)\]", out("readelf", "-d", lib)).group(1)
    ok(soname == f"libaead.so.{major}", f"SONAME {soname}", f"SONAME {soname}, expected libaead.so.{major}")
    ok(re.search(rf"^#define AEAD_ABI_VERSION {major}$", open(os.path.join(REPO, "include/aead.h")).read(), re.M),
       f"AEAD_ABI_VERSION is {major}", f"AEAD_ABI_VERSION != {major}")

    subprocess.run(["meson", "install", "-C", BUILD, "--destdir", stage, "--no-rebuild"], stdout=subprocess.DEVNULL, check=True)
    options = {o["name"]: o["value"] for o in json.loads(out("meson", "introspect", "--buildoptions", BUILD))}
    root = stage + options["prefix"]
    libdir = os.path.join(root, options["libdir"])
    ok(os.path.isfile(os.path.join(root, "include/aead.h")), "header installed", "header not installed")
    chain = (os.readlink(os.path.join(libdir, "libaead.so")) == f"libaead.so.{major}" and
             os.readlink(os.path.join(libdir, f"libaead.so.{major}")) == f"libaead.so.{version}" and
             os.path.isfile(os.path.join(libdir, f"libaead.so.{version}")))
    ok(chain, f"libaead.so -> libaead.so.{major} -> libaead.so.{version}", f"bad symlink chain: {os.listdir(libdir)}")
    pc = os.path.join(libdir, "pkgconfig")
    pcver = out("pkg-config", "--modversion", "aead",
                env=dict(PKG_CONFIG_DISABLE_UNINSTALLED="1", PKG_CONFIG_PATH=pc, PKG_CONFIG_LIBDIR=pc)).strip()
    ok(pcver == version, f"aead.pc version {pcver}", f"aead.pc version {pcver}, expected {version}")
    flags = out("pkg-config", "--cflags", "--libs", "aead",
                env=dict(PKG_CONFIG_DISABLE_UNINSTALLED="1", PKG_CONFIG_PATH=pc, PKG_CONFIG_SYSROOT_DIR=stage)).split()
    consumer = os.path.join(HERE, "consumer.c")
    subprocess.run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-o", f"{stage}/consumer", consumer, *flags], check=True)
    run_env = {"LD_LIBRARY_PATH": libdir}
    subprocess.run([f"{stage}/consumer"], check=True, env={**os.environ, **run_env})
    ldd = [line for line in out("ldd", f"{stage}/consumer", env=run_env).splitlines() if "libaead" in line]
    ok(ldd and stage in ldd[0], "consumer built with pkg-config runs against the installed library",
       f"consumer loaded the wrong library: {ldd}")
    # A program compiled against the released 1.0 header (tests/abi/aead-1.0.h, kept verbatim) links to the
    # LIBAEAD_1 versions and runs unchanged on this library.
    os.makedirs(f"{stage}/h10")
    shutil.copy(os.path.join(HERE, "aead-1.0.h"), f"{stage}/h10/aead.h")
    subprocess.run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{stage}/h10", "-o", f"{stage}/consumer10",
                    consumer, f"-L{libdir}", "-laead"], check=True)
    refs = sorted(f.split()[1] for f in out("nm", "-D", "--undefined-only", f"{stage}/consumer10").splitlines() if "aead_" in f)
    subprocess.run([f"{stage}/consumer10"], stdout=subprocess.DEVNULL, check=True, env={**os.environ, **run_env})
    ok(refs and all(r.endswith(f"@LIBAEAD_{major}") for r in refs), f"a consumer built against the 1.0 header binds"
       f" to LIBAEAD_{major} ({' '.join(refs)}) and runs on {version}",
       f"1.0 consumer's references are not all @LIBAEAD_{major}: {refs}")
    print(f"abi: {checks} passed, 0 failed")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        main(tmp)
