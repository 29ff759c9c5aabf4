"""cffi build script: out-of-line API mode module ``libaead._aead_cffi``.

Run by setuptools through ``cffi_modules`` (see setup.py) during ``pip install``. It only declares the
module (the one cdef, shared with the ABI-mode loader, and ``#include <aead.h>``); setup.py's build_ext
adds the include path, the library and the rpath, the same for every compiled module: the bundled
libaead.so.1 found by $ORIGIN (default), or an installed one found by pkg-config (LIBAEAD_SYSTEM=1).
"""

import os
from typing import Any, Dict

from cffi import FFI

_HERE = os.path.dirname(os.path.abspath(__file__))
_CDEF_PY = os.path.join(_HERE, "src", "libaead", "_cdef.py")


def _read_cdef() -> str:
    # The one cdef, shared with the ABI-mode loader; read by path (this script is not part of the package).
    namespace: Dict[str, Any] = {}
    with open(_CDEF_PY) as f:
        exec(compile(f.read(), _CDEF_PY, "exec"), namespace)
    cdef: str = namespace["CDEF"]
    return cdef


def make_ffibuilder() -> FFI:
    ffi = FFI()
    ffi.cdef(_read_cdef())
    ffi.set_source("libaead._aead_cffi", "#include <aead.h>\n")
    return ffi


ffibuilder = make_ffibuilder()
