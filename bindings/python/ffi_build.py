"""cffi build script: out-of-line API mode module ``libaead._aead_cffi``.

Run by setuptools through ``cffi_modules`` (see setup.py) during ``pip install``. It finds libaead with
``pkg-config aead`` (so ``PKG_CONFIG_PATH=$AEAD_BUILD_DIR/meson-uninstalled`` makes it use a build tree)
and embeds an rpath to each library directory pkg-config names, so ``import libaead`` finds
``libaead.so.1`` without ``LD_LIBRARY_PATH``. This file must never raise: when pkg-config or the
compiler is missing, setup.py builds the extension as optional and the package falls back to ABI mode
(``ffi.dlopen``) at import time.
"""

import os
import shlex
import subprocess
import sys
from typing import Any, Dict, List

from cffi import FFI

_HERE = os.path.dirname(os.path.abspath(__file__))
_CDEF_PY = os.path.join(_HERE, "src", "libaead", "_cdef.py")

# Default linker search directories: no rpath is needed (or wanted) for these.
_SYSTEM_LIBDIRS = ("/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib")


def _read_cdef() -> str:
    # The one cdef, shared with the ABI-mode loader; read by path (this script is not part of the package).
    namespace: Dict[str, Any] = {}
    with open(_CDEF_PY) as f:
        exec(compile(f.read(), _CDEF_PY, "exec"), namespace)
    cdef: str = namespace["CDEF"]
    return cdef


def pkg_config() -> Dict[str, Any]:
    """Returns a dict: include_dirs, library_dirs, libraries, extra_compile_args, found (bool), error."""
    result: Dict[str, Any] = {
        "include_dirs": [],
        "library_dirs": [],
        "libraries": ["aead"],
        "extra_compile_args": [],
        "found": False,
        "error": None,
    }
    exe = os.environ.get("PKG_CONFIG", "pkg-config")
    try:
        cflags = subprocess.run([exe, "--cflags", "aead"], check=True, capture_output=True, text=True).stdout
        libs = subprocess.run([exe, "--libs", "aead"], check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        detail = getattr(e, "stderr", None) or str(e)
        result["error"] = "pkg-config aead failed: %s" % detail.strip()
        return result
    for flag in shlex.split(cflags):
        if flag.startswith("-I"):
            result["include_dirs"].append(flag[2:])
        else:
            result["extra_compile_args"].append(flag)
    result["libraries"] = []
    for flag in shlex.split(libs):
        if flag.startswith("-L"):
            result["library_dirs"].append(flag[2:])
        elif flag.startswith("-l"):
            result["libraries"].append(flag[2:])
    if "aead" not in result["libraries"]:
        result["libraries"].append("aead")
    result["found"] = True
    return result


def rpath_dirs(library_dirs: List[str]) -> List[str]:
    if os.environ.get("LIBAEAD_NO_RPATH", "") not in ("", "0"):
        return []
    out: List[str] = []
    for d in library_dirs:
        d = os.path.abspath(d)
        if d in _SYSTEM_LIBDIRS or d.startswith("/usr/lib/") and d.count("/") == 3:
            continue  # /usr/lib/x86_64-linux-gnu and friends
        if d not in out:
            out.append(d)
    return out


def make_ffibuilder() -> FFI:
    cfg = pkg_config()
    if not cfg["found"]:
        sys.stderr.write(
            "libaead: WARNING: %s\n"
            "libaead: set PKG_CONFIG_PATH to the directory holding aead.pc (for a build tree:\n"
            "libaead:   $AEAD_BUILD_DIR/meson-uninstalled); trying the default search paths.\n" % cfg["error"]
        )
    ffi = FFI()
    ffi.cdef(_read_cdef())
    ffi.set_source(
        "libaead._aead_cffi",
        "#include <aead.h>\n",
        include_dirs=cfg["include_dirs"],
        library_dirs=cfg["library_dirs"],
        libraries=cfg["libraries"],
        extra_compile_args=cfg["extra_compile_args"],
        extra_link_args=["-Wl,-rpath," + d for d in rpath_dirs(cfg["library_dirs"])],
    )
    return ffi


ffibuilder = make_ffibuilder()

if __name__ == "__main__":  # pragma: no cover - manual in-place build for development
    ffibuilder.compile(verbose=True)
