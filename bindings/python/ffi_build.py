"""cffi build script: out-of-line API mode module ``libaead._aead_cffi``.

Run by setuptools through ``cffi_modules`` (see setup.py) during ``pip install``. It only declares the
module (the cdef gen_cdef.py makes from the include/aead.h the package is built from, the same text that
setup.py writes into the package as _cdef.py for the ABI-mode loader, and ``#include <aead.h>``); setup.py's
build_ext adds the include path, the library and the rpath, the same for every compiled module: the
bundled libaead.so.1 found by $ORIGIN (default), or an installed one found by pkg-config (LIBAEAD_SYSTEM=1).
"""

import os
import runpy

from cffi import FFI

_HERE = os.path.dirname(os.path.abspath(__file__))


def make_ffibuilder() -> FFI:
    # Read by path: the build scripts are not part of the package.
    builder = runpy.run_path(os.path.join(_HERE, "build_libaead.py"), run_name="libaead_build_libaead")
    gen = runpy.run_path(os.path.join(_HERE, "gen_cdef.py"), run_name="libaead_gen_cdef")
    ffi = FFI()
    ffi.cdef(gen["cdef_from_file"](builder["header"]()))
    ffi.set_source("libaead._aead_cffi", "#include <aead.h>\n")
    return ffi


ffibuilder = make_ffibuilder()
