"""Builds the libaead.so.1 that the wheel carries, from the C sources, with meson.

The C sources: this repository's (../../) in a checkout; in an sdist, the copy setup.py's sdist command
generated into it (libaead-c/: meson files, sources.txt, include/, lib/, shim/, LICENSE; see C_TREE; and
libaegis's sources from the pinned crate in shim/aegis/libaegis/, bundle_aegis, so that the sdist builds
without cargo). Nothing else is kept in two places: the sdist is made from the checkout, and
tests/release/run.py python checks that its copy matches. The sdist's root also holds LICENSE, NOTICE,
LICENSE-OpenSSL.txt and LICENSE-libaegis.txt (notice_files: the NOTICE and OpenSSL's licence of
shim/openssl/build.sh's cached build, libaegis's of the pinned crate).
Used by setup.py (default mode). The build directory is kept (bindings/python/build/libaead-<libcrypto>)
so that a second ``pip install`` only relinks; it is wiped when the meson executable or the options
change, and configured afresh when reusing it fails (pip's isolated build environments come and go, and a
build directory remembers the meson that made it).
LIBAEAD_MESON_ARGS adds meson setup arguments (a cross build: --cross-file ...; part of the options).
The vendored OpenSSL itself is built once into the cache the meson option keeps outside the clone.
"""

import json
import os
import shlex
import shutil
import subprocess
import sys
from typing import List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SONAME = "libaead.so.1"
# What the bundled build needs of the repository (paths relative to its root), and where an sdist keeps it.
C_TREE = ("meson.build", "meson_options.txt", "sources.txt", "LICENSE", "include", "lib", "shim")
SDIST_C_DIR = "libaead-c"


def source_root() -> str:
    """The directory holding meson.build, include/, lib/ and shim/: the sdist's copy, else the checkout."""
    bundled = os.path.join(HERE, SDIST_C_DIR)
    if os.path.exists(os.path.join(bundled, "include", "aead.h")):
        return bundled
    return REPO


def header() -> str:
    """include/aead.h of source_root(): what gen_cdef.py makes the cffi declarations from."""
    path = os.path.join(source_root(), "include", "aead.h")
    if not os.path.exists(path):
        raise RuntimeError("libaead: no include/aead.h to generate the cffi declarations from (neither %s/%s "
                           "nor the repository's %s/include); build from the sdist or the repository"
                           % (HERE, SDIST_C_DIR, REPO))
    return path


def c_tree_files() -> List[str]:
    """The files of C_TREE (relative to source_root()): the tracked ones in a git checkout (no build
    leftovers), else every file under it (an sdist's copy)."""
    root = source_root()
    if root == REPO and os.path.exists(os.path.join(REPO, ".git")):
        try:
            out = subprocess.run(["git", "-C", REPO, "ls-files", "-z", "--"] + list(C_TREE), check=True,
                                 capture_output=True, text=True).stdout
            return sorted(f for f in out.split("\0") if f and os.path.isfile(os.path.join(REPO, f)))
        except (OSError, subprocess.CalledProcessError):
            pass
    files: List[str] = []
    for entry in C_TREE:
        path = os.path.join(root, entry)
        if os.path.isfile(path):
            files.append(entry)
        for dirpath, dirnames, filenames in os.walk(path):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            files.extend(os.path.relpath(os.path.join(dirpath, f), root) for f in filenames)
    return sorted(files)


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
    path = os.path.join(source_root(), "meson_options.txt")
    try:
        with open(path) as f:
            return ("option('%s'" % name) in f.read()
    except OSError:
        return False


def _run(cmd: List[str]) -> None:
    sys.stderr.write("libaead: %s\n" % " ".join(cmd))
    subprocess.run(cmd, check=True)


def _build_dir(libcrypto: str) -> str:
    return os.environ.get("LIBAEAD_MESON_BUILD_DIR") or os.path.join(HERE, "build", "libaead-" + libcrypto)


def licence_files(libcrypto: str) -> List[Tuple[str, str]]:
    """The files that build()'s configuration installs into share/licenses/libaead (meson.build): with the
    vendored OpenSSL, libaead's LICENSE, the NOTICE naming the OpenSSL linked in and OpenSSL's licence
    (LICENSE-OpenSSL.txt) from that build; on either libcrypto libaegis's (LICENSE-libaegis.txt), which
    every build compiles in. (path, installed name) pairs: libaegis's is installed renamed. Call after
    build()."""
    out = subprocess.run(_meson_command() + ["introspect", "--installed", _build_dir(libcrypto)], check=True,
                         capture_output=True, text=True).stdout
    installed = json.loads(out)
    return sorted((src, os.path.basename(dest)) for src, dest in installed.items()
                  if os.path.basename(os.path.dirname(dest)) == "libaead"
                  and os.path.basename(os.path.dirname(os.path.dirname(dest))) == "licenses")


# The licences an sdist carries at its root: its default build links the vendored OpenSSL into the wheel,
# and every build libaegis.
SDIST_NOTICE = ("LICENSE", "NOTICE", "LICENSE-OpenSSL.txt", "LICENSE-libaegis.txt")


def _last_line(cmd: List[str]) -> str:
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout.strip().splitlines()[-1]


def notice_files() -> List[Tuple[str, str]]:
    """SDIST_NOTICE's (path, name) pairs: libaead's LICENSE, the NOTICE and OpenSSL's licence that
    shim/openssl/build.sh writes into its cached build of the OpenSSL the bundled build links (3.5), and
    the pinned libaegis's LICENSE (shim/aegis/fetch.sh)."""
    src = source_root()
    notice = os.path.join(_last_line(["bash", os.path.join(src, "shim", "openssl", "build.sh"), "3.5"]), "notice")
    aegis = _last_line(["bash", os.path.join(src, "shim", "aegis", "fetch.sh")])
    paths = [os.path.join(src, "LICENSE"), os.path.join(notice, "NOTICE"), os.path.join(notice, "LICENSE-OpenSSL.txt"),
             os.path.join(aegis, "LICENSE")]
    return list(zip(paths, SDIST_NOTICE))


def bundle_aegis(c_dir: str) -> None:
    """Copies the pinned libaegis sources (verified) into c_dir/shim/aegis/libaegis, where meson finds them
    before fetching (shim/aegis/fetch.sh)."""
    subprocess.run(["bash", os.path.join(source_root(), "shim", "aegis", "fetch.sh"), "--into",
                    os.path.join(c_dir, "shim", "aegis", "libaegis")], check=True, stdout=subprocess.DEVNULL)


def build(libcrypto: str) -> str:
    """Configures (once) and builds the shared library; returns the path of the built libaead.so.1."""
    src = source_root()
    if not os.path.exists(os.path.join(src, "include", "aead.h")):
        raise RuntimeError(
            "libaead: the C sources are not reachable from this build (neither %s/%s nor the repository's "
            "%s/include, lib, shim); build from the sdist or the repository (pip install ./bindings/python), "
            "or set LIBAEAD_SYSTEM=1 to link an installed libaead" % (HERE, SDIST_C_DIR, REPO)
        )
    options = ["--buildtype=release", "-Dwerror=false"]
    if _has_option("tests"):  # only the library is needed: no Catch2, no test targets configured
        options.append("-Dtests=false")
    if _has_option("libcrypto"):
        options.append("-Dlibcrypto=" + libcrypto)
    elif libcrypto != "system":
        sys.stderr.write("libaead: WARNING: this checkout has no -Dlibcrypto option; using the system libcrypto\n")
    # Extra meson setup arguments, e.g. the cross files of a cross-built wheel (tests/cross/python-wheel.py).
    options += shlex.split(os.environ.get("LIBAEAD_MESON_ARGS", ""))
    build_dir = _build_dir(libcrypto)
    meson = _meson_command()
    version = subprocess.run(meson + ["--version"], check=True, capture_output=True, text=True).stdout.strip()
    stamp_path = os.path.join(build_dir, ".libaead-python-stamp")
    stamp = repr((version, options, src))
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
        _run(meson + ["setup", build_dir, src] + options)
        with open(stamp_path, "w") as f:
            f.write(stamp)
        _run(compile_cmd)
    built = os.path.realpath(os.path.join(build_dir, SONAME))
    if not os.path.isfile(built):
        raise RuntimeError("libaead: the meson build did not produce %s" % os.path.join(build_dir, SONAME))
    return built
