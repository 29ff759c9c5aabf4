"""Build glue: the bundled libaead.so.1, the compiled modules, and the generated _config.py.

Metadata lives in pyproject.toml. Two compiled modules, both optional (a machine without a C compiler
still installs a working package, which then uses ``ffi.dlopen``): ``libaead._fast`` (the hot path,
CPython's stable ABI from 3.11) and ``libaead._aead_cffi`` (cffi API mode, from ffi_build.py).

Where libaead comes from, chosen at build time:
* default: built by build_libaead.py from the C sources (the repository's, or an sdist's copy) with
  meson on the vendored OpenSSL (LIBAEAD_LIBCRYPTO=system: the system libcrypto), copied into the
  package as libaead.so.1, and found by the modules through an rpath of $ORIGIN; the licences meson
  installs beside such a build go next to it: LICENSE-libaegis.txt, and with the vendored OpenSSL
  LICENSE, NOTICE and LICENSE-OpenSSL.txt;
* LIBAEAD_SYSTEM=1: an installed libaead found by ``pkg-config aead`` (rpath to its directory unless it
  is a system one or LIBAEAD_NO_RPATH=1).
LIBAEAD_REQUIRE_COMPILED=1 makes a failed compile an error instead of a fallback; LIBAEAD_WERROR=1
builds _fast.c with -Wall -Wextra -Werror (CI).

The cffi declarations (libaead/_cdef.py in the built package, and the API-mode module's) are generated
from include/aead.h at build time by gen_cdef.py; the source tree has no copy of them.

The sdist (``python -m build --sdist``) carries the C sources in libaead-c/, generated from the
checkout when the sdist is made (BuildSdist), so that it builds on its own (libaegis's sources included:
no cargo needed), and LICENSE, NOTICE, LICENSE-OpenSSL.txt and LICENSE-libaegis.txt at its root. The wheel is abi3 when
built on CPython >= 3.11 (tagged cp39-abi3): the cffi module uses the stable ABI of every Python 3, and
_fast the stable ABI of 3.11 (buffers and METH_FASTCALL are only there from 3.11), so _config.py
records FAST_MIN_PYTHON and on 3.9 and 3.10 the same wheel runs on cffi API mode ("api").
"""

import os
import runpy
import shlex
import shutil
import subprocess
import sys
import sysconfig
from typing import Any, Dict, List

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = os.path.dirname(os.path.abspath(__file__))
SONAME = "libaead.so.1"
# The stable ABI _fast.c needs (buffer protocol, METH_FASTCALL), and the oldest Python an abi3 wheel serves.
FAST_LIMITED_API = (3, 11)
WHEEL_MIN_PYTHON = "cp39"
# Default linker search directories: no rpath is needed (or wanted) for these.
_SYSTEM_LIBDIRS = ("/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib")


def _truthy(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")


def _system_mode() -> bool:
    return _truthy("LIBAEAD_SYSTEM")


def _builder() -> Dict[str, Any]:
    return runpy.run_path(os.path.join(HERE, "build_libaead.py"), run_name="libaead_build_libaead")


def _fast_limited() -> bool:
    """_fast.c on the stable ABI: CPython >= 3.11 (not a free-threaded build, which has no stable ABI)."""
    return (sys.version_info >= FAST_LIMITED_API and sys.implementation.name == "cpython"
            and not sysconfig.get_config_var("Py_GIL_DISABLED"))


def pkg_config() -> Dict[str, Any]:
    """include_dirs, library_dirs, libraries, extra_compile_args of ``pkg-config aead``; error on failure."""
    result: Dict[str, Any] = {"include_dirs": [], "library_dirs": [], "libraries": [], "extra_compile_args": [],
                              "error": None}
    exe = os.environ.get("PKG_CONFIG", "pkg-config")
    try:
        cflags = subprocess.run([exe, "--cflags", "aead"], check=True, capture_output=True, text=True).stdout
        libs = subprocess.run([exe, "--libs", "aead"], check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        detail = getattr(e, "stderr", None) or str(e)
        result["error"] = "pkg-config aead failed: %s" % detail.strip()
        result["libraries"] = ["aead"]
        return result
    for flag in shlex.split(cflags):
        if flag.startswith("-I"):
            result["include_dirs"].append(flag[2:])
        else:
            result["extra_compile_args"].append(flag)
    for flag in shlex.split(libs):
        if flag.startswith("-L"):
            result["library_dirs"].append(os.path.abspath(flag[2:]))
        elif flag.startswith("-l"):
            result["libraries"].append(flag[2:])
    if "aead" not in result["libraries"]:
        result["libraries"].append("aead")
    return result


def rpath_dirs(library_dirs: List[str]) -> List[str]:
    if _truthy("LIBAEAD_NO_RPATH"):
        return []
    out: List[str] = []
    for d in library_dirs:
        d = os.path.abspath(d)
        if d in _SYSTEM_LIBDIRS or d.startswith("/usr/lib/") and d.count("/") == 3:
            continue  # /usr/lib/x86_64-linux-gnu and friends
        if d not in out:
            out.append(d)
    return out


class BuildExt(build_ext):
    def run(self) -> None:
        required = _truthy("LIBAEAD_REQUIRE_COMPILED")
        if _system_mode():
            cfg = pkg_config()
            if cfg["error"]:
                sys.stderr.write("libaead: WARNING: %s\nlibaead: set PKG_CONFIG_PATH to the directory holding "
                                 "aead.pc (a build tree: <build>/meson-uninstalled)\n" % cfg["error"])
            link = dict(include_dirs=cfg["include_dirs"], library_dirs=cfg["library_dirs"],
                        libraries=cfg["libraries"], extra_compile_args=cfg["extra_compile_args"],
                        extra_link_args=["-Wl,-rpath," + d for d in rpath_dirs(cfg["library_dirs"])])
        else:
            link = self._bundle()
        for ext in self.extensions:
            ext.optional = not required
            ext.include_dirs = list(ext.include_dirs) + link["include_dirs"]
            ext.library_dirs = list(ext.library_dirs) + link["library_dirs"]
            ext.libraries = list(ext.libraries) + link["libraries"]
            ext.extra_compile_args = list(ext.extra_compile_args) + link["extra_compile_args"]
            ext.extra_link_args = list(ext.extra_link_args) + link["extra_link_args"]
        # Always rebuild: the library and rpath come from this moment's configuration, and a stale in-tree
        # build/ (pip builds in the source directory) would keep the previous one's.
        self.force = True
        # A failed optional build must not ship the module a previous build left in build/lib.
        for ext in self.extensions:
            stale = self.get_ext_fullpath(ext.name)
            if os.path.exists(stale):
                os.remove(stale)
        super().run()

    def build_extensions(self) -> None:
        # An interpreter built with an rpath to its own libdir (pyenv: -Wl,-rpath,.../lib in LDSHARED)
        # would put that build machine's path into every module; the modules need only their own rpaths
        # (extra_link_args), and none links libpython.
        self.compiler.linker_so = [a for a in self.compiler.linker_so if not a.startswith("-Wl,-rpath")]
        super().build_extensions()

    def _bundle(self) -> Dict[str, List[str]]:
        """Builds libaead.so.1 from the repository and puts it next to the modules (a failure here is an
        error: without it nothing works)."""
        libcrypto = os.environ.get("LIBAEAD_LIBCRYPTO", "vendored")
        if libcrypto not in ("vendored", "system"):
            raise RuntimeError("LIBAEAD_LIBCRYPTO must be 'vendored' or 'system', not %r" % libcrypto)
        builder = _builder()
        built = builder["build"](libcrypto)
        targets = [os.path.join(self.build_lib, "libaead")]
        if self.inplace:
            targets.append(os.path.join(HERE, "src", "libaead"))
        for target in targets:
            os.makedirs(target, exist_ok=True)
            shutil.copyfile(built, os.path.join(target, SONAME))
        # Beside the library: libaegis's licence, and with the vendored OpenSSL LICENSE, NOTICE and
        # LICENSE-OpenSSL.txt.
        for path, name in builder["licence_files"](libcrypto):
            shutil.copyfile(path, os.path.join(targets[0], name))
        link_dir = targets[0]
        return dict(include_dirs=[os.path.join(builder["source_root"](), "include")], library_dirs=[], libraries=[],
                    extra_compile_args=[],
                    # -l:libaead.so.1 links the copy by its SONAME; $ORIGIN finds it beside the module.
                    extra_link_args=["-L" + link_dir, "-l:" + SONAME, "-Wl,-rpath,$ORIGIN"])


class BuildPyWithConfig(build_py):
    """Writes the package's generated modules: libaead/_config.py, the library directories pkg-config
    reported at build time (LIBAEAD_SYSTEM=1), for the ABI-mode fallback to dlopen the library the modules
    link to; and libaead/_cdef.py, the cffi declarations gen_cdef.py makes from include/aead.h, which
    ABI mode needs at run time, where there is no header."""

    def run(self) -> None:
        # pip builds in the source tree: start from an empty build/lib/libaead so that files removed
        # from the source (or a module or library an earlier build made) never reach the wheel.
        shutil.rmtree(os.path.join(self.build_lib, "libaead"), ignore_errors=True)
        super().run()
        gen = runpy.run_path(os.path.join(HERE, "gen_cdef.py"), run_name="libaead_gen_cdef")
        cdef = gen["module_text"](gen["cdef_from_file"](_builder()["header"]()))
        if getattr(self, "editable_mode", False):
            # An editable install imports the package from src/; build_py copied nothing into build_lib
            # (so there is no _config.py either, which the loader does without).
            with open(os.path.join(HERE, "src", "libaead", "_cdef.py"), "w") as f:
                f.write(cdef)
            return
        with open(os.path.join(self.build_lib, "libaead", "_cdef.py"), "w") as f:
            f.write(cdef)
        dirs = pkg_config()["library_dirs"] if _system_mode() else []
        target = os.path.join(self.build_lib, "libaead", "_config.py")
        with open(target, "w") as f:
            f.write("# Generated by setup.py at build time; do not edit.\n")
            f.write("LIBRARY_DIRS = %r\n" % (dirs,))
            f.write("BUNDLED = %r\n" % (not _system_mode(),))
            # _fast is compiled for the stable ABI of this version: older ones (an abi3 wheel) skip it.
            f.write("FAST_MIN_PYTHON = %r\n" % (FAST_LIMITED_API if _fast_limited() else (3,),))


class BuildSdist(sdist):
    """Puts the C sources the bundled build needs into the sdist (libaead-c/, build_libaead.C_TREE),
    copied from the checkout (or from the sdist being rebuilt) as the sdist is made, with libaegis's from
    the pinned crate (build_libaead.bundle_aegis), and at its root LICENSE, NOTICE, LICENSE-OpenSSL.txt and
    LICENSE-libaegis.txt (build_libaead.notice_files: the wheel it builds by default links the vendored
    OpenSSL, and every build libaegis)."""

    def make_release_tree(self, base_dir: str, files: List[str]) -> None:
        super().make_release_tree(base_dir, files)
        builder = _builder()
        root = builder["source_root"]()
        target = os.path.join(base_dir, builder["SDIST_C_DIR"])
        shutil.rmtree(target, ignore_errors=True)
        for rel in builder["c_tree_files"]():
            os.makedirs(os.path.dirname(os.path.join(target, rel)), exist_ok=True)
            shutil.copy2(os.path.join(root, rel), os.path.join(target, rel))  # keeps build.sh executable
        builder["bundle_aegis"](target)
        for path, name in builder["notice_files"]():
            dest = os.path.join(base_dir, name)
            if os.path.lexists(dest):
                os.unlink(dest)  # a hard link into the tree being packaged (an sdist made from an sdist)
            shutil.copyfile(path, dest)


def _fast_extension() -> Extension:
    limited = _fast_limited()
    args = ["-Wall", "-Wextra", "-Werror"] if _truthy("LIBAEAD_WERROR") else []
    return Extension(
        "libaead._fast",
        sources=["src/libaead/_fast.c"],
        # The stable ABI has the buffer protocol from 3.11 on; older versions build against the full API.
        define_macros=[("Py_LIMITED_API", "0x030B0000")] if limited else [],
        py_limited_api=limited,
        extra_compile_args=args,
    )


setup(
    ext_modules=[_fast_extension()],
    cffi_modules=["ffi_build.py:ffibuilder"],
    cmdclass={"build_ext": BuildExt, "build_py": BuildPyWithConfig, "sdist": BuildSdist},
    # One wheel for CPython >= 3.9 (see the docstring); a build on 3.9/3.10 gets that version's own tag.
    options={"bdist_wheel": {"py_limited_api": WHEEL_MIN_PYTHON}} if _fast_limited() else {},
)
