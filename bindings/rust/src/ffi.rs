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
use core::ffi::{c_int, CStr};
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

/// Converts an `aead_seal_open` return value to a length, checking the C contract that the
/// output length never exceeds `out_cap` (the `MaybeUninit` paths below rely on it).
#[inline(always)]
fn check_len(rc: i64, cap: usize) -> Result<usize, Error> {
    if rc < 0 {
        return Err(Error::from_code(rc));
    }
    let n = rc as u64 as usize;
    assert!(n <= cap, "libaead: aead_seal_open returned {n} > out_cap {cap}");
    Ok(n)
}

/// An owned `aead_ctx`. Freed on drop.
pub(crate) struct Ctx(NonNull<sys::aead_ctx>);

// SAFETY: aead.h documents that any number of threads may call aead_seal_open concurrently on one
// ctx (TLS policies included: the nonce check-and-commit is atomic). The context is only freed in
// Drop, which has exclusive access, so no call can be running on it then.
unsafe impl Send for Ctx {}
unsafe impl Sync for Ctx {}

impl Drop for Ctx {
    fn drop(&mut self) {
        // SAFETY: the pointer came from aead_ctx_new and is freed exactly once; `&mut self`
        // guarantees that no other call on it is running.
        unsafe { sys::aead_ctx_free(self.0.as_ptr()) }
    }
}

impl Ctx {
    pub(crate) fn new(alg: c_int, policy: c_int, key: &[u8], tag_len: usize) -> Result<Self, Error> {
        let mut raw: *mut sys::aead_ctx = ptr::null_mut();
        // SAFETY: `raw` is a valid out-pointer; key is a valid (ptr, len) pair or (NULL, 0).
        let rc = unsafe {
            sys::aead_ctx_new(&mut raw, alg, policy, ptr_or_null(key), key.len(), tag_len)
        };
        if rc != 0 {
            return Err(Error::from_code(i64::from(rc)));
        }
        // A success with a NULL context would be a library bug: report it rather than crash.
        NonNull::new(raw).map(Ctx).ok_or(Error::Crypto)
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
        aad: &[u8],
        input: *const u8,
        in_len: usize,
        out: *mut u8,
        cap: usize,
    ) -> i64 {
        // SAFETY: nonce and aad are live slices (or NULL, 0); the rest is the caller's contract.
        unsafe {
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
        }
    }

    /// One `aead_seal_open` call from `input` to a distinct `out` buffer. Returns the output length.
    #[inline]
    pub(crate) fn seal_open(
        &self,
        op: c_int,
        nonce: &[u8],
        aad: &[u8],
        input: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let out_ptr = if out.is_empty() { ptr::null_mut() } else { out.as_mut_ptr() };
        // SAFETY: `input` is a live slice (or NULL, 0); `out` is an exclusive borrow, so it
        // overlaps none of the inputs.
        let rc = unsafe { self.call(op, nonce, aad, ptr_or_null(input), input.len(), out_ptr, out.len()) };
        check_len(rc, out.len())
    }

    /// One exact in-place call: input is `buf[..in_len]`, output goes to `buf` (capacity
    /// `buf.len()`). Returns the output length.
    #[inline]
    pub(crate) fn seal_open_in_place(
        &self,
        op: c_int,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        in_len: usize,
    ) -> Result<usize, Error> {
        if in_len > buf.len() {
            return Err(Error::Arg);
        }
        let cap = buf.len();
        let out_ptr = if cap == 0 { ptr::null_mut() } else { buf.as_mut_ptr() };
        let in_ptr = if in_len == 0 { ptr::null() } else { out_ptr as *const u8 };
        // SAFETY: in = out = buf (exact in-place, allowed by aead.h); in_len <= cap = buf.len().
        let rc = unsafe { self.call(op, nonce, aad, in_ptr, in_len, out_ptr, cap) };
        check_len(rc, cap)
    }

    /// Like [`Ctx::seal_open`] into uninitialized memory; returns the initialized output prefix.
    #[inline]
    pub(crate) fn seal_open_uninit<'o>(
        &self,
        op: c_int,
        nonce: &[u8],
        aad: &[u8],
        input: &[u8],
        out: &'o mut [MaybeUninit<u8>],
    ) -> Result<&'o mut [u8], Error> {
        let cap = out.len();
        let out_ptr = if cap == 0 { ptr::null_mut() } else { out.as_mut_ptr().cast::<u8>() };
        // SAFETY: as in seal_open; C only writes to `out` (never reads it).
        let rc = unsafe { self.call(op, nonce, aad, ptr_or_null(input), input.len(), out_ptr, cap) };
        let n = check_len(rc, cap)?;
        if n == 0 {
            return Ok(&mut []);
        }
        // SAFETY: on success the C call wrote exactly `n` <= cap bytes at the start of `out`.
        Ok(unsafe { core::slice::from_raw_parts_mut(out_ptr, n) })
    }

    /// Appends the output of one call to `out` (reserving `max_out` bytes, no zero-fill).
    #[inline]
    pub(crate) fn seal_open_append(
        &self,
        op: c_int,
        nonce: &[u8],
        aad: &[u8],
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

/// Writes `a || b` into the start of `dst` and returns that initialized prefix.
/// Panics if `dst` is shorter than `a.len() + b.len()`.
#[inline]
pub(crate) fn concat_uninit<'d>(dst: &'d mut [MaybeUninit<u8>], a: &[u8], b: &[u8]) -> &'d [u8] {
    let n = a.len() + b.len();
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

pub(crate) fn abi_version() -> u32 {
    // SAFETY: thread-safe, no arguments.
    unsafe { sys::aead_abi_version() }
}

pub(crate) fn sizes(alg: c_int) -> (usize, usize, usize) {
    // SAFETY: thread-safe; any alg value is accepted (0 for unknown).
    unsafe { (sys::aead_key_size(alg), sys::aead_nonce_size(alg), sys::aead_tag_size(alg)) }
}
