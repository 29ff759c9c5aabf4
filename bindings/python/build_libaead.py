"""Builds the libaead.so.1 that the wheel carries, from this repository's sources (../../), with meson.

Used by setup.py (default mode). The build directory is kept (bindings/python/build/libaead-<libcrypto>)
so that a second ``pip install`` only relinks; it is wiped when the meson executable or the options
change, and configured afresh when reusing it fails (pip's isolated build environments come and go, and a
build directory remembers the meson that made it).
The vendored OpenSSL itself is built once into the cache the meson option keeps outside the clone.
"""

import os
import shutil
import subprocess
import sys
from typing import List

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SONAME = "libaead.so.1"


def _meson_command() -> List[str]:
    try:  # meson from PyPI (a build requirement) in pip's isolated environment
        import mesonbuild  # noqa: F401

        return [sys.executable, "-m", "mesonbuild.mesonmain"]
    except ImportError:
        exe = shutil.which("meson")
        if exe is None:
            raise RuntimeError("libaead: meson not found (pip install meson ninja, or apt-get install meson)")
        return [exe]


def _has_option(name: str) -> bool:
    path = os.path.join(REPO, "meson_options.txt")
    try:
        with open(path) as f:
            return ("option('%s'" % name) in f.read()
    except OSError:
        return False


def _run(cmd: List[str]) -> None:
    sys.stderr.write("libaead: %s\n" % " ".join(cmd))
    subprocess.run(cmd, check=True)


def build(libcrypto: str) -> str:
    """Configures (once) and builds the shared library; returns the path of the built libaead.so.1."""
    if not os.path.exists(os.path.join(REPO, "include", "aead.h")):
        raise RuntimeError(
            "libaead: the repository's sources (%s/include, lib, shim) are not reachable from this build; "
            "build from the repository (pip install ./bindings/python) or set LIBAEAD_SYSTEM=1 to link an "
            "installed libaead" % REPO
        )
    options = ["--buildtype=release", "-Dwerror=false"]
    if _has_option("tests"):  # only the library is needed: no Catch2, no test targets configured
        options.append("-Dtests=false")
    if _has_option("libcrypto"):
        options.append("-Dlibcrypto=" + libcrypto)
    elif libcrypto != "system":
        sys.stderr.write("libaead: WARNING: this checkout has no -Dlibcrypto option; using the system libcrypto\n")
    build_dir = os.environ.get("LIBAEAD_MESON_BUILD_DIR") or os.path.join(HERE, "build", "libaead-" + libcrypto)
    meson = _meson_command()
    version = subprocess.run(meson + ["--version"], check=True, capture_output=True, text=True).stdout.strip()
    stamp_path = os.path.join(build_dir, ".libaead-python-stamp")
    stamp = repr((version, options))
    try:
        with open(stamp_path) as f:
            reuse = f.read() == stamp
    except OSError:
        reuse = False
    jobs = os.environ.get("LIBAEAD_BUILD_JOBS", "2")
    compile_cmd = meson + ["compile", "-C", build_dir, "-j", jobs, "aead"]
    if reuse:
        try:
            _run(compile_cmd)
        except subprocess.CalledProcessError:
            # e.g. a regeneration through the meson of an earlier, deleted pip build environment
            sys.stderr.write("libaead: reusing %s failed; configuring it afresh\n" % build_dir)
            reuse = False
    if not reuse:
        shutil.rmtree(build_dir, ignore_errors=True)
        _run(meson + ["setup", build_dir, REPO] + options)
        with open(stamp_path, "w") as f:
            f.write(stamp)
        _run(compile_cmd)
    built = os.path.realpath(os.path.join(build_dir, SONAME))
    if not os.path.isfile(built):
        raise RuntimeError("libaead: the meson build did not produce %s" % os.path.join(build_dir, SONAME))
    return built
