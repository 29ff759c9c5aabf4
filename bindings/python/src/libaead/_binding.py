"""The loaded library, once per process: cffi's ffi and lib, the compiled hot path (or None), and
which path is in use (see _loader)."""

from libaead._loader import load

ffi, lib, fast, backend = load()


def _initialise_libcrypto() -> None:
    """Makes libaead's libcrypto read its configuration and load its providers now, before the package
    imports pyca/cryptography (for InvalidTag's base class): a FIPS provider module (fips.so) serves
    only the first libcrypto of a process that loads it, and with a vendored or a pyca OpenSSL beside
    the system one, that must be libaead's."""
    ctx = ffi.new("aead_ctx **")
    if lib.aead_ctx_new(ctx, lib.AEAD_AES_128_GCM, lib.AEAD_POLICY_NONE, bytes(16), 16, 0) == 0:
        lib.aead_ctx_free(ctx[0])


_initialise_libcrypto()
