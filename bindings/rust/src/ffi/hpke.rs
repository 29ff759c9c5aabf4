//! HPKE (library 1.6): the calls of [`crate::hpke`], each passing (pointer, length) pairs of Rust
//! slices as the rest of [`crate::ffi`] does. The one alias made on purpose is the exact in-place
//! case (`out == pt`, `out == ct`), which aead.h allows.
use super::{check_len, mut_parts, properties_ptr, ptr_or_null, static_str, MAX_PROPERTIES};
use crate::{sys, Error};
use core::ffi::c_int;
use core::ptr::{self, NonNull};

/// The suite, mode and inputs of one key schedule, borrowed for the setup call.
pub(crate) struct Params<'a> {
    pub(crate) mode: c_int,
    pub(crate) kem: c_int,
    pub(crate) kdf: c_int,
    pub(crate) aead: c_int,
    pub(crate) info: &'a [u8],
    pub(crate) psk: &'a [u8],
    pub(crate) psk_id: &'a [u8],
    pub(crate) properties: Option<&'a str>,
    pub(crate) window: u32,
    pub(crate) ikm_e: Option<&'a [u8]>,
}

impl Params<'_> {
    /// Calls `f` with the C struct (its properties copied to a NUL-terminated stack buffer).
    fn with_raw<T>(&self, f: impl FnOnce(&sys::aead_hpke_params) -> Result<T, Error>) -> Result<T, Error> {
        let mut query = [0u8; MAX_PROPERTIES + 1];
        let properties = properties_ptr(self.properties, &mut query)?;
        let (ikm_e, ikm_e_len) = match self.ikm_e {
            // A non-NULL pointer even for an empty ikm_e: NULL would mean a random ephemeral key.
            Some(ikm) => (ikm.as_ptr(), ikm.len()),
            None => (ptr::null(), 0),
        };
        let raw = sys::aead_hpke_params {
            size: core::mem::size_of::<sys::aead_hpke_params>(),
            mode: self.mode,
            kem: self.kem,
            kdf: self.kdf,
            aead: self.aead,
            info: ptr_or_null(self.info),
            info_len: self.info.len(),
            psk: ptr_or_null(self.psk),
            psk_len: self.psk.len(),
            psk_id: ptr_or_null(self.psk_id),
            psk_id_len: self.psk_id.len(),
            properties,
            window: self.window,
            ikm_e,
            ikm_e_len,
        };
        f(&raw)
    }
}

owned_handle!(
    /// An owned `aead_hpke` (library 1.6): a sender's or a recipient's HPKE context. Freed (its
    /// secrets cleansed) on drop.
    HpkeCtx,
    sys::aead_hpke,
    sys::aead_hpke_free
);

/// A return code of `int` calls: 0, or the error.
#[inline(always)]
fn status(rc: c_int) -> Result<(), Error> {
    if rc == 0 {
        Ok(())
    } else {
        Err(Error::from_code(i64::from(rc)))
    }
}

impl HpkeCtx {
    fn created(rc: c_int, raw: *mut sys::aead_hpke) -> Result<Self, Error> {
        status(rc)?;
        NonNull::new(raw).map(HpkeCtx).ok_or(Error::Crypto)
    }

    /// `aead_hpke_setup_sender`: writes the encapsulated key to `enc` (its whole length must be
    /// the KEM's Nenc: the caller sizes it).
    pub(crate) fn sender(p: &Params<'_>, pk_r: &[u8], sk_s: &[u8], enc: &mut [u8]) -> Result<Self, Error> {
        p.with_raw(|raw| {
            let mut ctx: *mut sys::aead_hpke = ptr::null_mut();
            let (enc_ptr, enc_cap) = mut_parts(enc);
            // SAFETY: valid out-pointer and params; every buffer a (ptr, len) pair of a live slice
            // or (NULL, 0); enc is writable for enc_cap bytes.
            let rc = unsafe {
                sys::aead_hpke_setup_sender(&mut ctx, raw, ptr_or_null(pk_r), pk_r.len(), ptr_or_null(sk_s), sk_s.len(), enc_ptr, enc_cap)
            };
            Self::created(rc, ctx)
        })
    }

    /// `aead_hpke_setup_recipient`.
    pub(crate) fn recipient(p: &Params<'_>, enc: &[u8], sk_r: &[u8], pk_s: &[u8]) -> Result<Self, Error> {
        p.with_raw(|raw| {
            let mut ctx: *mut sys::aead_hpke = ptr::null_mut();
            // SAFETY: as sender, every buffer read-only.
            let rc = unsafe {
                sys::aead_hpke_setup_recipient(&mut ctx, raw, ptr_or_null(enc), enc.len(), ptr_or_null(sk_r), sk_r.len(), ptr_or_null(pk_s), pk_s.len())
            };
            Self::created(rc, ctx)
        })
    }

    /// `aead_hpke_seal` into `out`: (length written, sequence number used).
    #[inline]
    pub(crate) fn seal(&self, aad: &[u8], pt: &[u8], out: &mut [u8]) -> Result<(usize, u64), Error> {
        let (out_ptr, cap) = mut_parts(out);
        let mut seq = 0u64;
        // SAFETY: live context; the inputs are live slices, out a distinct writable one (Rust's
        // borrows make them disjoint).
        let rc = unsafe { sys::aead_hpke_seal(self.0.as_ptr(), ptr_or_null(aad), aad.len(), ptr_or_null(pt), pt.len(), out_ptr, cap, &mut seq) };
        Ok((check_len(rc, cap)?, seq))
    }

    /// `aead_hpke_seal` of `buf[..pt_len]` onto itself (the exact alias aead.h allows).
    #[inline]
    pub(crate) fn seal_in_place(&self, aad: &[u8], buf: &mut [u8], pt_len: usize) -> Result<(usize, u64), Error> {
        if pt_len > buf.len() {
            return Err(Error::Arg);
        }
        let (p, cap) = mut_parts::<u8, u8>(buf);
        let mut seq = 0u64;
        // SAFETY: live context; p is writable for cap >= pt_len bytes (NULL only when both are 0),
        // read as the plaintext and written as the output: in == out.
        let rc = unsafe { sys::aead_hpke_seal(self.0.as_ptr(), ptr_or_null(aad), aad.len(), p, pt_len, p, cap, &mut seq) };
        Ok((check_len(rc, cap)?, seq))
    }

    /// `aead_hpke_open` (`seq` `None`) or `aead_hpke_open_at` of `ct` into `out`.
    #[inline]
    pub(crate) fn open(&self, seq: Option<u64>, aad: &[u8], ct: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        let (out_ptr, cap) = mut_parts(out);
        // SAFETY: as seal.
        let rc = unsafe { self.open_raw(seq, aad, ptr_or_null(ct), ct.len(), out_ptr, cap) };
        check_len(rc, cap)
    }

    /// The open of the whole of `buf` onto itself; the plaintext is `buf[..n]`.
    #[inline]
    pub(crate) fn open_in_place(&self, seq: Option<u64>, aad: &[u8], buf: &mut [u8]) -> Result<usize, Error> {
        let (p, cap) = mut_parts::<u8, u8>(buf);
        // SAFETY: p is a live buffer of cap bytes (or NULL, 0), read as ct and written as out.
        let rc = unsafe { self.open_raw(seq, aad, p, cap, p, cap) };
        check_len(rc, cap)
    }

    /// # Safety
    /// `ct` readable for `ct_len` bytes and `out` writable for `cap` (each NULL when its length is
    /// 0), `aad` live; they overlap only as `ct == out`.
    #[inline(always)]
    unsafe fn open_raw(&self, seq: Option<u64>, aad: &[u8], ct: *const u8, ct_len: usize, out: *mut u8, cap: usize) -> i64 {
        match seq {
            None => sys::aead_hpke_open(self.0.as_ptr(), ptr_or_null(aad), aad.len(), ct, ct_len, out, cap),
            Some(seq) => sys::aead_hpke_open_at(self.0.as_ptr(), seq, ptr_or_null(aad), aad.len(), ct, ct_len, out, cap),
        }
    }

    /// `aead_hpke_export`: `out.len()` bytes.
    pub(crate) fn export(&self, exporter_context: &[u8], out: &mut [u8]) -> Result<(), Error> {
        let (out_ptr, len) = mut_parts(out);
        // SAFETY: live context; exporter_context live, out writable for len bytes.
        status(unsafe { sys::aead_hpke_export(self.0.as_ptr(), ptr_or_null(exporter_context), exporter_context.len(), out_ptr, len) })
    }

    /// `aead_hpke_indicator`.
    pub(crate) fn indicator(&self) -> u32 {
        // SAFETY: live context.
        unsafe { sys::aead_hpke_indicator(self.0.as_ptr()) }
    }

    /// `aead_ctx_usage_ex` of `aead_hpke_aead_ctx`; `None` for an export-only suite.
    pub(crate) fn usage(&self) -> Option<sys::aead_usage> {
        // SAFETY: live context; the AEAD context it returns lives as long as it does.
        let aead = unsafe { sys::aead_hpke_aead_ctx(self.0.as_ptr()) };
        if aead.is_null() {
            return None;
        }
        let mut u = sys::aead_usage::default();
        // SAFETY: a live AEAD context and a valid out-pointer of the size passed.
        let rc = unsafe { sys::aead_ctx_usage_ex(aead, &mut u, core::mem::size_of::<sys::aead_usage>()) };
        (rc == 0).then_some(u)
    }

    /// `aead_ctx_provider` of the context's AEAD; `None` for an export-only suite.
    pub(crate) fn provider(&self) -> Option<&'static str> {
        // SAFETY: as usage.
        let aead = unsafe { sys::aead_hpke_aead_ctx(self.0.as_ptr()) };
        // SAFETY: aead is a live context; the text is valid for the life of the process.
        (!aead.is_null()).then(|| static_str(unsafe { sys::aead_ctx_provider(aead) }))
    }
}

/// `aead_hpke_seal_single`: writes `enc` (sized by the caller) and the ciphertext to `out`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn seal_single(
    p: &Params<'_>,
    pk_r: &[u8],
    sk_s: &[u8],
    enc: &mut [u8],
    aad: &[u8],
    pt: &[u8],
    out: &mut [u8],
) -> Result<usize, Error> {
    p.with_raw(|raw| {
        let (enc_ptr, enc_cap) = mut_parts(enc);
        let (out_ptr, cap) = mut_parts(out);
        // SAFETY: valid params; read-only inputs are live slices, enc and out distinct writable ones.
        let rc = unsafe {
            sys::aead_hpke_seal_single(
                raw,
                ptr_or_null(pk_r),
                pk_r.len(),
                ptr_or_null(sk_s),
                sk_s.len(),
                enc_ptr,
                enc_cap,
                ptr_or_null(aad),
                aad.len(),
                ptr_or_null(pt),
                pt.len(),
                out_ptr,
                cap,
            )
        };
        check_len(rc, cap)
    })
}

/// `aead_hpke_open_single` of `ct` into `out`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn open_single(
    p: &Params<'_>,
    enc: &[u8],
    sk_r: &[u8],
    pk_s: &[u8],
    aad: &[u8],
    ct: &[u8],
    out: &mut [u8],
) -> Result<usize, Error> {
    p.with_raw(|raw| {
        let (out_ptr, cap) = mut_parts(out);
        // SAFETY: as seal_single.
        let rc = unsafe {
            sys::aead_hpke_open_single(
                raw,
                ptr_or_null(enc),
                enc.len(),
                ptr_or_null(sk_r),
                sk_r.len(),
                ptr_or_null(pk_s),
                pk_s.len(),
                ptr_or_null(aad),
                aad.len(),
                ptr_or_null(ct),
                ct.len(),
                out_ptr,
                cap,
            )
        };
        check_len(rc, cap)
    })
}

/// How a key pair is made: DeriveKeyPair(ikm), fresh from the DRBG, or the public key of `sk`.
pub(crate) enum KeyOp<'a> {
    Derive(&'a [u8]),
    Generate,
    Public,
}

/// `aead_hpke_derive_keypair` / `_generate_keypair` (writing `sk` and `pk`) or
/// `aead_hpke_public_key` (reading `sk`, writing `pk`); each buffer sized by the caller.
pub(crate) fn keypair(op: KeyOp<'_>, kem: c_int, sk: &mut [u8], pk: &mut [u8]) -> Result<(), Error> {
    let (pk_ptr, pk_cap) = mut_parts(pk);
    // SAFETY: sk and pk are distinct live buffers of the lengths passed; ikm live; properties NULL.
    status(unsafe {
        match op {
            KeyOp::Derive(ikm) => {
                let (sk_ptr, sk_cap) = mut_parts(sk);
                sys::aead_hpke_derive_keypair(kem, ptr_or_null(ikm), ikm.len(), sk_ptr, sk_cap, pk_ptr, pk_cap, ptr::null())
            }
            KeyOp::Generate => {
                let (sk_ptr, sk_cap) = mut_parts(sk);
                sys::aead_hpke_generate_keypair(kem, sk_ptr, sk_cap, pk_ptr, pk_cap, ptr::null())
            }
            KeyOp::Public => sys::aead_hpke_public_key(kem, ptr_or_null(sk), sk.len(), pk_ptr, pk_cap, ptr::null()),
        }
    })
}

/// `aead_hpke_enc_size` and `aead_hpke_private_key_size`.
pub(crate) fn kem_sizes(kem: c_int) -> (usize, usize, usize) {
    // SAFETY: pure functions of an integer.
    unsafe { (sys::aead_hpke_enc_size(kem), sys::aead_hpke_public_key_size(kem), sys::aead_hpke_private_key_size(kem)) }
}

/// Overwrites `buf` with zeros in a way the compiler keeps (a private key's drop).
pub(crate) fn cleanse(buf: &mut [u8]) {
    for b in buf.iter_mut() {
        // SAFETY: b is a valid, aligned, exclusive reference.
        unsafe { ptr::write_volatile(b, 0) };
    }
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}
