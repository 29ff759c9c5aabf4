//! Safe wrappers over [`crate::sys`]: the only module of the crate that contains `unsafe` code.
//!
//! Every function here passes (pointer, length) pairs taken from Rust slices, so the C side only
//! ever sees valid memory. Empty slices are passed as NULL with length 0 (a Rust empty slice has a
//! dangling non-NULL pointer; the C side never reads a pointer whose length is 0 anyway).
//! Rust's borrow rules already guarantee that an output `&mut [u8]` does not overlap any input
//! slice; the only aliasing this module creates on purpose is the exact in-place case
//! (`in == out`), which aead.h allows.
#![allow(unsafe_code)]

use crate::{sys, Error};
use core::ffi::{c_char, c_int, CStr};
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::ptr::{self, NonNull};

#[inline(always)]
fn ptr_or_null(s: &[u8]) -> *const u8 {
    if s.is_empty() {
        ptr::null()
    } else {
        s.as_ptr()
    }
}

/// A mutable slice as the C side takes it: (pointer, length), the pointer NULL when it is empty.
#[inline(always)]
fn mut_parts<T, U>(s: &mut [T]) -> (*mut U, usize) {
    if s.is_empty() {
        (ptr::null_mut(), 0)
    } else {
        (s.as_mut_ptr().cast::<U>(), s.len())
    }
}

/// Converts an `aead_seal_open` return value to a length, checking the C contract that the
/// output length never exceeds `out_cap` (the `MaybeUninit` paths below rely on it).
#[inline(always)]
fn check_len(rc: i64, cap: usize) -> Result<usize, Error> {
    if rc < 0 {
        return Err(Error::from_code(rc));
    }
    // try_from, not `as`: a length that does not fit usize must not be truncated into one that
    // passes the comparison.
    match usize::try_from(rc) {
        Ok(n) if n <= cap => Ok(n),
        _ => panic!("libaead: aead_seal_open returned {rc} > out_cap {cap}"),
    }
}

/// Longest OpenSSL property query aead_ctx_new_ex takes (aead.h).
pub(crate) const MAX_PROPERTIES: usize = 255;

/// A batch record type over one C record struct: the same constructor (`nonce`, the AAD in
/// `$aad_ty`, `input`, `out`), `result()`, `Debug` and `Send + Sync` for both record kinds.
macro_rules! batch_record {
    (
        $(#[$doc:meta])*
        $name:ident($raw:ident), borrows $borrows:ty,
        $(#[$new_doc:meta])*
        new($aad:ident: $aad_ty:ty) => { $($field:ident: $value:expr),* $(,)? }
    ) => {
        $(#[$doc])*
        #[repr(transparent)]
        pub struct $name<'a> {
            raw: sys::$raw,
            _borrows: PhantomData<$borrows>,
        }

        // SAFETY: a record only holds the pointers of shared borrows of Send + Sync data and of
        // one `&mut [u8]`.
        unsafe impl Send for $name<'_> {}
        unsafe impl Sync for $name<'_> {}

        impl<'a> $name<'a> {
            $(#[$new_doc])*
            #[doc = concat!("(Not run yet: [`", stringify!($name), "::result`] is [`Error::Arg`] until a batch call has processed it.)")]
            pub fn new(nonce: &'a [u8], $aad: $aad_ty, input: &'a [u8], out: &'a mut [u8]) -> Self {
                let out_cap = out.len();
                let out = if out.is_empty() { ptr::null_mut() } else { out.as_mut_ptr() };
                $name {
                    raw: sys::$raw {
                        nonce: ptr_or_null(nonce),
                        nonce_len: nonce.len(),
                        $($field: $value,)*
                        input: ptr_or_null(input),
                        in_len: input.len(),
                        out,
                        out_cap,
                        result: i64::from(sys::AEAD_ERR_ARG),
                    },
                    _borrows: PhantomData,
                }
            }

            /// The record's outcome: the output length written to its `out`, or the error.
            pub fn result(&self) -> Result<usize, Error> {
                check_len(self.raw.result, self.raw.out_cap)
            }
        }

        impl core::fmt::Debug for $name<'_> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("in_len", &self.raw.in_len)
                    .field("out_cap", &self.raw.out_cap)
                    .field("result", &self.result())
                    .finish_non_exhaustive()
            }
        }
    };
}

batch_record!(
    /// One record of a batch call ([`crate::Cipher::seal_many`] / [`crate::Cipher::open_many`]):
    /// the arguments of one seal or open and, after the call, its result. Built from borrowed slices,
    /// so the batch cannot outlive or alias its buffers.
    Record(aead_record), borrows (&'a [u8], &'a mut [u8]),
    /// A record reading `input` and writing into `out`.
    new(aad: &'a [u8]) => { aad: ptr_or_null(aad), aad_len: aad.len() }
);

/// One associated-data component of a [`RecordV`] (`aead_buf`, ABI 1.3): a borrowed byte string,
/// made with `Component::from(slice)` (or `.into()`).
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct Component<'a> {
    raw: sys::aead_buf,
    _borrow: PhantomData<&'a [u8]>,
}

// SAFETY: a Component only holds the pointer of a `&[u8]`, which is Send + Sync.
unsafe impl Send for Component<'_> {}
unsafe impl Sync for Component<'_> {}

impl<'a> From<&'a [u8]> for Component<'a> {
    fn from(s: &'a [u8]) -> Self {
        Component { raw: sys::aead_buf { data: ptr_or_null(s), len: s.len() }, _borrow: PhantomData }
    }
}

impl<'a, const N: usize> From<&'a [u8; N]> for Component<'a> {
    fn from(s: &'a [u8; N]) -> Self {
        Component::from(&s[..])
    }
}

impl core::fmt::Debug for Component<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Component").field("len", &self.raw.len).finish_non_exhaustive()
    }
}

batch_record!(
    /// One record of a components batch ([`crate::Cipher::seal_many_v`] /
    /// [`crate::Cipher::open_many_v`], `aead_seal_open_many_v`, ABI 1.3): the arguments of one
    /// `seal_v_into` / `open_v_into` and, after the call, its result. Built from borrows, so the
    /// batch cannot outlive or alias its buffers.
    RecordV(aead_record_v), borrows (&'a [u8], &'a [Component<'a>], &'a mut [u8]),
    /// A record reading `input` under the components `aad` (at most
    /// [`sys::AEAD_SIV_MAX_COMPONENTS`] with the nonce, for AES-SIV) and writing into `out`.
    new(aad: &'a [Component<'a>]) => {
        aad: if aad.is_empty() { ptr::null() } else { aad.as_ptr().cast::<sys::aead_buf>() },
        aad_count: aad.len(),
    }
);

/// The associated data of one call: one AAD (`aead_seal_open`) or components (`aead_seal_open_v`,
/// ABI 1.3), the latter only ever made from [`Components`], whose borrows keep the data alive.
#[derive(Clone, Copy)]
pub(crate) enum Aad<'s> {
    One(&'s [u8]),
    V(&'s [sys::aead_buf]),
}

impl<'s> From<&'s [u8]> for Aad<'s> {
    #[inline(always)]
    fn from(aad: &'s [u8]) -> Self {
        Aad::One(aad)
    }
}

impl<'s, 'a: 's> From<&'s Components<'a>> for Aad<'s> {
    #[inline(always)]
    fn from(c: &'s Components<'a>) -> Self {
        Aad::V(&c.bufs[..c.n])
    }
}

/// Up to [`sys::AEAD_SIV_MAX_COMPONENTS`] associated-data components as the C ABI takes them,
/// on the stack, each borrowed for `'a`.
pub(crate) struct Components<'a> {
    bufs: [sys::aead_buf; sys::AEAD_SIV_MAX_COMPONENTS],
    n: usize,
    _borrows: PhantomData<&'a [u8]>,
}

impl<'a> Components<'a> {
    #[inline]
    pub(crate) fn new() -> Self {
        Components {
            bufs: [sys::aead_buf { data: ptr::null(), len: 0 }; sys::AEAD_SIV_MAX_COMPONENTS],
            n: 0,
            _borrows: PhantomData,
        }
    }

    /// Appends one; [`Error::TooLong`] (as the C call would say) past the most S2V takes.
    #[inline]
    pub(crate) fn push(&mut self, s: &'a [u8]) -> Result<(), Error> {
        let slot = self.bufs.get_mut(self.n).ok_or(Error::TooLong)?;
        *slot = sys::aead_buf { data: ptr_or_null(s), len: s.len() };
        self.n += 1;
        Ok(())
    }

    pub(crate) fn from_slices(parts: &[&'a [u8]]) -> Result<Self, Error> {
        let mut c = Components::new();
        for p in parts {
            c.push(p)?;
        }
        Ok(c)
    }
}

/// An owned handle of the C library (`$name(NonNull<$raw>)`), freed by `$free` on drop.
macro_rules! owned_handle {
    ($(#[$doc:meta])* $name:ident, $raw:ty, $free:path) => {
        $(#[$doc])*
        pub(crate) struct $name(NonNull<$raw>);

        // SAFETY: aead.h documents that any number of threads may use one handle concurrently (an
        // aead_ctx in aead_seal_open, TLS policies included: the nonce check-and-commit is atomic;
        // an aead_hp in aead_hp_mask). The handle is only freed in Drop, which has exclusive
        // access, so no call can be running on it then.
        unsafe impl Send for $name {}
        unsafe impl Sync for $name {}

        impl Drop for $name {
            fn drop(&mut self) {
                // SAFETY: the pointer came from the library's constructor and is freed exactly
                // once; `&mut self` guarantees that no other call on it is running.
                unsafe { $free(self.0.as_ptr()) }
            }
        }
    };
}

/// The signature `aead_quic_protect` and `aead_dtls13_protect` share (see `Ctx::protect`).
pub(crate) type ProtectFn =
    unsafe extern "C" fn(*mut sys::aead_ctx, *mut sys::aead_hp, u64, *mut u8, usize, usize, usize) -> i64;

/// What `aead_ctx_new_ex` takes, and `aead_ctx_new_dtls` before its epoch and window.
#[derive(Clone, Copy)]
pub(crate) struct CtxParams<'a> {
    pub(crate) alg: c_int,
    pub(crate) policy: c_int,
    pub(crate) key: &'a [u8],
    pub(crate) tag_len: usize,
    pub(crate) properties: Option<&'a str>,
    pub(crate) iv: &'a [u8],
}

owned_handle!(
    /// An owned `aead_ctx`. Freed on drop.
    Ctx,
    sys::aead_ctx,
    sys::aead_ctx_free
);

impl Ctx {
    pub(crate) fn new(alg: c_int, policy: c_int, key: &[u8], tag_len: usize) -> Result<Self, Error> {
        let mut raw: *mut sys::aead_ctx = ptr::null_mut();
        // SAFETY: `raw` is a valid out-pointer; key is a valid (ptr, len) pair or (NULL, 0).
        let rc = unsafe {
            sys::aead_ctx_new(&mut raw, alg, policy, ptr_or_null(key), key.len(), tag_len)
        };
        Self::created(rc, raw)
    }

    /// `aead_ctx_new_ex` (ABI 1.1): an OpenSSL property query (see `with_query`) and the TLS IV up front.
    pub(crate) fn new_ex(p: CtxParams<'_>) -> Result<Self, Error> {
        let CtxParams { alg, policy, key, tag_len, properties, iv } = p;
        let (k, iv_p) = (ptr_or_null(key), ptr_or_null(iv));
        Self::with_query(properties, |raw, q| {
            // SAFETY: `raw` is a valid out-pointer; key and iv are (ptr, len) pairs or (NULL, 0);
            // q is NULL or a NUL-terminated string that outlives the call.
            unsafe { sys::aead_ctx_new_ex(raw, alg, policy, k, key.len(), tag_len, q, iv_p, iv.len()) }
        })
    }

    /// `aead_ctx_new_dtls` (ABI 1.4): a DTLS 1.2 / 1.3 (or QUIC) context with a replay window.
    pub(crate) fn new_dtls(p: CtxParams<'_>, epoch: u64, window: u32) -> Result<Self, Error> {
        let CtxParams { alg, policy, key, tag_len, properties, iv } = p;
        let (k, iv_p) = (ptr_or_null(key), ptr_or_null(iv));
        Self::with_query(properties, |raw, q| {
            // SAFETY: as new_ex.
            unsafe { sys::aead_ctx_new_dtls(raw, alg, policy, k, key.len(), tag_len, q, iv_p, iv.len(), epoch, window) }
        })
    }

    /// A constructor call with the OpenSSL property query copied to a NUL-terminated stack buffer
    /// (no allocation): `f(out-pointer, query)`. A query longer than aead.h's 255 bytes, or with a
    /// NUL inside, is [`Error::Arg`] as the C side would say.
    fn with_query(
        properties: Option<&str>,
        f: impl FnOnce(*mut *mut sys::aead_ctx, *const c_char) -> c_int,
    ) -> Result<Self, Error> {
        let mut query = [0u8; MAX_PROPERTIES + 1];
        let query_ptr = properties_ptr(properties, &mut query)?;
        let mut raw: *mut sys::aead_ctx = ptr::null_mut();
        let rc = f(&mut raw, query_ptr);
        Self::created(rc, raw)
    }

    /// `aead_ctx_usage_ex` (ABI 1.4): every counter, the window's width and right edge.
    pub(crate) fn usage_ex(&self) -> sys::aead_usage {
        let mut u = sys::aead_usage::default();
        // SAFETY: a live context and a valid out-pointer of the size passed; the only errors are
        // NULL arguments, which cannot happen here.
        unsafe { sys::aead_ctx_usage_ex(self.0.as_ptr(), &mut u, core::mem::size_of::<sys::aead_usage>()) };
        u
    }

    /// `aead_quic_protect` (ABI 1.2) or `aead_dtls13_protect` (ABI 1.4), `protect`, on `packet`
    /// (header || payload, capacity `packet.len()`) with packet or record number `number`; returns
    /// the protected length.
    #[inline]
    pub(crate) fn protect(
        &self,
        protect: ProtectFn,
        hp: &Hp,
        number: u64,
        packet: &mut [u8],
        header_len: usize,
        payload_len: usize,
    ) -> Result<usize, Error> {
        let (p, cap) = mut_parts::<u8, u8>(packet);
        // SAFETY: live ctx and hp; `packet` is an exclusive borrow of `cap` bytes, and both C calls
        // write only within [packet, packet + cap) (they check header_len + payload_len + tag <= cap).
        let rc = unsafe { protect(self.0.as_ptr(), hp.0.as_ptr(), number, p, header_len, payload_len, cap) };
        check_len(rc, cap)
    }

    /// `aead_dtls13_unprotect` (ABI 1.4) of the whole of `record`; returns (seq, plaintext length).
    pub(crate) fn dtls13_unprotect(&self, hp: &Hp, record: &mut [u8], cid_len: usize) -> Result<(u64, usize), Error> {
        let (p, len) = mut_parts::<u8, u8>(record);
        let mut seq = 0u64;
        // SAFETY: a live ctx and hp; C reads and writes within record[..len] only.
        let rc = unsafe { sys::aead_dtls13_unprotect(self.0.as_ptr(), hp.0.as_ptr(), p, len, cid_len, &mut seq) };
        Ok((seq, check_len(rc, len)?))
    }

    fn created(rc: c_int, raw: *mut sys::aead_ctx) -> Result<Self, Error> {
        if rc != 0 {
            return Err(Error::from_code(i64::from(rc)));
        }
        // A success with a NULL context would be a library bug: report it rather than crash.
        NonNull::new(raw).map(Ctx).ok_or(Error::Crypto)
    }

    /// `aead_ctx_usage` (ABI 1.2): (seals made, failed opens).
    pub(crate) fn usage(&self) -> (u64, u64) {
        let (mut seals, mut forgeries) = (0u64, 0u64);
        // SAFETY: a live context and two valid out-pointers; aead.h allows this concurrently with
        // any call but free. The only error is a NULL ctx, which cannot happen here.
        unsafe { sys::aead_ctx_usage(self.0.as_ptr(), &mut seals, &mut forgeries) };
        (seals, forgeries)
    }

    /// `aead_quic_unprotect` (ABI 1.2) of the whole of `packet`; returns (packet number, plaintext length).
    pub(crate) fn quic_unprotect(
        &self,
        hp: &Hp,
        largest_pn: u64,
        packet: &mut [u8],
        pn_offset: usize,
    ) -> Result<(u64, usize), Error> {
        let (p, len) = mut_parts::<u8, u8>(packet);
        let mut pn = 0u64;
        // SAFETY: live ctx and hp; `packet` is an exclusive borrow of `len` bytes, read and written
        // only within them; `pn` is a valid out-pointer.
        let rc = unsafe {
            sys::aead_quic_unprotect(self.0.as_ptr(), hp.0.as_ptr(), largest_pn, p, pn_offset, len, &mut pn)
        };
        check_len(rc, len).map(|n| (pn, n))
    }

    /// `aead_ctx_indicator`: the `AEAD_IND_*` bits, fixed for the context's life.
    pub(crate) fn indicator(&self) -> u32 {
        // SAFETY: a live context; aead.h allows this concurrently with any call but free.
        unsafe { sys::aead_ctx_indicator(self.0.as_ptr()) }
    }

    /// `aead_ctx_provider`: text that aead.h keeps valid for the life of the process.
    pub(crate) fn provider(&self) -> &'static str {
        // SAFETY: as indicator.
        static_str(unsafe { sys::aead_ctx_provider(self.0.as_ptr()) })
    }

    /// `aead_seal_open_many` over records whose pointers come from live borrows.
    pub(crate) fn seal_open_many(&self, op: c_int, records: &mut [Record<'_>]) -> usize {
        let (p, n) = mut_parts::<_, sys::aead_record>(records);
        // SAFETY: Record is repr(transparent) over aead_record; each one's pointers come from a
        // shared (inputs) or exclusive (output) borrow that lives as long as the record, so the
        // outputs overlap no other record's buffers. The call writes only the `result` fields and
        // the outputs.
        let rc = unsafe { sys::aead_seal_open_many(self.0.as_ptr(), op, p, n) };
        // Only AEAD_ERR_ARG is possible (NULL ctx, bad op), which cannot happen here.
        usize::try_from(rc).unwrap_or(0)
    }

    /// `aead_seal_open_many_v` (ABI 1.3) over records whose pointers come from live borrows.
    pub(crate) fn seal_open_many_v(&self, op: c_int, records: &mut [RecordV<'_>]) -> usize {
        let (p, n) = mut_parts::<_, sys::aead_record_v>(records);
        // SAFETY: RecordV is repr(transparent) over aead_record_v, Component over aead_buf; each
        // record's pointers come from shared (nonce, components, input) or exclusive (output)
        // borrows that live as long as the record. The call writes only the `result` fields and
        // the outputs.
        let rc = unsafe { sys::aead_seal_open_many_v(self.0.as_ptr(), op, p, n) };
        // Only AEAD_ERR_ARG is possible (NULL ctx, bad op), which cannot happen here.
        usize::try_from(rc).unwrap_or(0)
    }

    /// The one C call every method below makes. The nonce and AAD come from slices; the input and
    /// output pointers are the caller's, with the caller's own safety argument.
    ///
    /// # Safety
    /// `input` must be valid for reads of `in_len` bytes and `out` valid for writes of `cap` bytes
    /// (either may be NULL with a length of 0), and `out` may overlap `input` only exactly.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // the C function's flat argument list, by design
    unsafe fn call(
        &self,
        op: c_int,
        nonce: &[u8],
        aad: Aad<'_>,
        input: *const u8,
        in_len: usize,
        out: *mut u8,
        cap: usize,
    ) -> i64 {
        match aad {
            // SAFETY: nonce and aad are live slices (or NULL, 0); the rest is the caller's contract.
            Aad::One(aad) => unsafe {
                sys::aead_seal_open(
                    self.0.as_ptr(),
                    op,
                    ptr_or_null(nonce),
                    nonce.len(),
                    ptr_or_null(aad),
                    aad.len(),
                    input,
                    in_len,
                    out,
                    cap,
                )
            },
            // SAFETY: as above; `bufs` comes from a live Components, whose every entry is a slice
            // (or NULL, 0) borrowed for at least as long as `bufs`. C reads the array once.
            Aad::V(bufs) => unsafe {
                sys::aead_seal_open_v(
                    self.0.as_ptr(),
                    op,
                    ptr_or_null(nonce),
                    nonce.len(),
                    if bufs.is_empty() { ptr::null() } else { bufs.as_ptr() },
                    bufs.len(),
                    input,
                    in_len,
                    out,
                    cap,
                )
            },
        }
    }

    /// One `aead_seal_open` call from `input` to a distinct `out` buffer. Returns the output length.
    #[inline]
    pub(crate) fn seal_open<'x>(
        &self,
        op: c_int,
        nonce: &[u8],
        aad: impl Into<Aad<'x>>,
        input: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let out_ptr = if out.is_empty() { ptr::null_mut() } else { out.as_mut_ptr() };
        // SAFETY: `input` is a live slice (or NULL, 0); `out` is an exclusive borrow, so it
        // overlaps none of the inputs.
        let rc = unsafe { self.call(op, nonce, aad.into(), ptr_or_null(input), input.len(), out_ptr, out.len()) };
        check_len(rc, out.len())
    }

    /// One exact in-place call: input is `buf[..in_len]`, output goes to `buf` (capacity
    /// `buf.len()`). Returns the output length.
    #[inline]
    pub(crate) fn seal_open_in_place<'x>(
        &self,
        op: c_int,
        nonce: &[u8],
        aad: impl Into<Aad<'x>>,
        buf: &mut [u8],
        in_len: usize,
    ) -> Result<usize, Error> {
        self.seal_open_shifted(op, nonce, aad, buf, 0, in_len, 0)
    }

    /// One call within one buffer: input `buf[in_off..in_off + in_len]`, output from
    /// `buf[out_off..]` (capacity `buf.len() - out_off`). Offsets 0/0 are the exact in-place
    /// case; the random-nonce policy's in-place layouts are 12/0 (seal) and 0/12 (open), the only
    /// other overlaps aead.h allows (anything else is refused with `AEAD_ERR_OVERLAP`).
    #[inline]
    #[allow(clippy::too_many_arguments)] // buffer + two offsets + the call's own arguments
    pub(crate) fn seal_open_shifted<'x>(
        &self,
        op: c_int,
        nonce: &[u8],
        aad: impl Into<Aad<'x>>,
        buf: &mut [u8],
        in_off: usize,
        in_len: usize,
        out_off: usize,
    ) -> Result<usize, Error> {
        if in_off.checked_add(in_len).is_none_or(|end| end > buf.len()) || out_off > buf.len() {
            return Err(Error::Arg);
        }
        let cap = buf.len() - out_off;
        let base = buf.as_mut_ptr();
        // SAFETY: both offsets are within `buf` (checked above), so the pointers stay in bounds.
        let (in_ptr, out_ptr) = unsafe { (base.add(in_off) as *const u8, base.add(out_off)) };
        let in_ptr = if in_len == 0 { ptr::null() } else { in_ptr };
        let out_ptr = if cap == 0 { ptr::null_mut() } else { out_ptr };
        // SAFETY: input and output lie within the exclusive borrow `buf`; C reads
        // `in_len` bytes and writes at most `cap` bytes, both in bounds; the overlap is one aead.h
        // allows or refuses without writing.
        let rc = unsafe { self.call(op, nonce, aad.into(), in_ptr, in_len, out_ptr, cap) };
        check_len(rc, cap)
    }

    /// Like [`Ctx::seal_open`] into uninitialized memory; returns the initialized output prefix.
    #[inline]
    pub(crate) fn seal_open_uninit<'o, 'x>(
        &self,
        op: c_int,
        nonce: &[u8],
        aad: impl Into<Aad<'x>>,
        input: &[u8],
        out: &'o mut [MaybeUninit<u8>],
    ) -> Result<&'o mut [u8], Error> {
        let cap = out.len();
        let out_ptr = if cap == 0 { ptr::null_mut() } else { out.as_mut_ptr().cast::<u8>() };
        // SAFETY: as in seal_open; C only writes to `out` (never reads it).
        let rc = unsafe { self.call(op, nonce, aad.into(), ptr_or_null(input), input.len(), out_ptr, cap) };
        let n = check_len(rc, cap)?;
        if n == 0 {
            return Ok(&mut []);
        }
        // SAFETY: on success the C call wrote exactly `n` <= cap bytes at the start of `out`.
        Ok(unsafe { core::slice::from_raw_parts_mut(out_ptr, n) })
    }

    /// Appends the output of one call to `out` (reserving `max_out` bytes, no zero-fill).
    #[inline]
    pub(crate) fn seal_open_append<'x>(
        &self,
        op: c_int,
        nonce: &[u8],
        aad: impl Into<Aad<'x>>,
        input: &[u8],
        out: &mut Vec<u8>,
        max_out: usize,
    ) -> Result<usize, Error> {
        out.reserve(max_out);
        let old_len = out.len();
        let n = {
            let spare = &mut out.spare_capacity_mut()[..max_out];
            self.seal_open_uninit(op, nonce, aad, input, spare)?.len()
        };
        // SAFETY: the call initialized out[old_len..old_len + n], within the reserved capacity.
        unsafe { out.set_len(old_len + n) };
        Ok(n)
    }
}

/// The NUL-terminated copy of an OpenSSL property query in `buf` (NULL for `None`); a query
/// longer than aead.h's 255 bytes, or with a NUL inside, is [`Error::Arg`] as the C side would say.
fn properties_ptr(properties: Option<&str>, buf: &mut [u8; MAX_PROPERTIES + 1]) -> Result<*const c_char, Error> {
    match properties {
        None => Ok(ptr::null()),
        Some(p) if p.len() > MAX_PROPERTIES || p.as_bytes().contains(&0) => Err(Error::Arg),
        Some(p) => {
            buf[..p.len()].copy_from_slice(p.as_bytes());
            buf[p.len()] = 0;
            Ok(buf.as_ptr().cast::<c_char>())
        }
    }
}

owned_handle!(
    /// An owned `aead_hp` (ABI 1.2, QUIC header protection). Freed on drop.
    Hp,
    sys::aead_hp,
    sys::aead_hp_free
);

impl Hp {
    pub(crate) fn new(alg: c_int, key: &[u8], properties: Option<&str>) -> Result<Self, Error> {
        let mut query = [0u8; MAX_PROPERTIES + 1];
        let query_ptr = properties_ptr(properties, &mut query)?;
        let mut raw: *mut sys::aead_hp = ptr::null_mut();
        // SAFETY: valid out-pointer; key is a (ptr, len) pair or (NULL, 0); query_ptr is NULL or
        // NUL-terminated and outlives the call.
        let rc = unsafe { sys::aead_hp_new(&mut raw, alg, ptr_or_null(key), key.len(), query_ptr) };
        if rc != 0 {
            return Err(Error::from_code(i64::from(rc)));
        }
        NonNull::new(raw).map(Hp).ok_or(Error::Crypto)
    }

    /// `aead_hp_mask`: the 5-byte mask of a sample (which must be 16 bytes: [`Error::Arg`] otherwise).
    #[inline]
    pub(crate) fn mask(&self, sample: &[u8]) -> Result<[u8; 5], Error> {
        let mut mask = [0u8; 5];
        // SAFETY: live hp; sample is a (ptr, len) pair or (NULL, 0); mask is 5 writable bytes.
        let rc = unsafe {
            sys::aead_hp_mask(self.0.as_ptr(), ptr_or_null(sample), sample.len(), mask.as_mut_ptr(), mask.len())
        };
        check_len(rc, mask.len()).and_then(|n| if n == 5 { Ok(mask) } else { Err(Error::Crypto) })
    }
}

/// Writes `a || b` into the start of `dst` and returns that initialized prefix.
/// Panics if `dst` is shorter than `a.len() + b.len()`.
#[inline]
pub(crate) fn concat_uninit<'d>(dst: &'d mut [MaybeUninit<u8>], a: &[u8], b: &[u8]) -> &'d [u8] {
    let n = a.len().checked_add(b.len()).expect("concat_uninit: length overflow");
    assert!(dst.len() >= n);
    let p = dst.as_mut_ptr().cast::<u8>();
    // SAFETY: `dst` has room for n bytes and, being an exclusive borrow, overlaps neither `a` nor
    // `b`; after the two copies the first n bytes are initialized.
    unsafe {
        ptr::copy_nonoverlapping(a.as_ptr(), p, a.len());
        ptr::copy_nonoverlapping(b.as_ptr(), p.add(a.len()), b.len());
        core::slice::from_raw_parts(p, n)
    }
}

fn static_str(p: *const core::ffi::c_char) -> &'static str {
    if p.is_null() {
        return "";
    }
    // SAFETY: aead.h: these functions return static NUL-terminated text, never NULL.
    unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("")
}

pub(crate) fn strerror(code: i64) -> &'static str {
    // SAFETY: thread-safe, takes any value.
    static_str(unsafe { sys::aead_strerror(code) })
}

pub(crate) fn version() -> &'static str {
    // SAFETY: thread-safe, no arguments.
    static_str(unsafe { sys::aead_version() })
}

pub(crate) fn version_number() -> u32 {
    // SAFETY: thread-safe, no arguments.
    unsafe { sys::aead_version_number() }
}

pub(crate) fn abi_version() -> u32 {
    // SAFETY: thread-safe, no arguments.
    unsafe { sys::aead_abi_version() }
}

pub(crate) fn sizes(alg: c_int) -> (usize, usize, usize) {
    // SAFETY: thread-safe; any alg value is accepted (0 for unknown).
    unsafe { (sys::aead_key_size(alg), sys::aead_nonce_size(alg), sys::aead_tag_size(alg)) }
}

/// HPKE (library 1.6).
pub(crate) mod hpke;

/// Streaming AEAD (library 1.7).
pub(crate) mod stream;
