"""Type names shared by the modules (annotations only)."""

import sys
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:
    from typing_extensions import Buffer  # collections.abc.Buffer (PEP 688) on every version
elif sys.version_info >= (3, 12):
    from collections.abc import Buffer
else:
    import mmap

    Buffer = Union[bytes, bytearray, memoryview, mmap.mmap]

__all__ = ["Buffer"]
