//! Streaming AEAD (library 1.7): the calls of [`crate::stream`], each passing (pointer, length)
//! pairs of Rust slices as the rest of [`crate::ffi`] does. No alias is made: every output is a
//! buffer distinct from the input.
use super::{check_len, mut_parts, properties_ptr, ptr_or_null, MAX_PROPERTIES};
use crate::{sys, Error};
use core::ffi::c_int;
use core::ptr::{self, NonNull};

/// A stream's parameters, borrowed for the constructor call (the library keeps none of them).
pub(crate) struct Params<'a> {
    pub(crate) format: c_int,
    pub(crate) key: &'a [u8],
    pub(crate) key_size: usize,
    pub(crate) hkdf_hash: c_int,
    pub(crate) segment_size: u32,
    pub(crate) first_segment_offset: u32,
    pub(crate) associated_data: &'a [u8],
    pub(crate) keyid: &'a [u8],
    pub(crate) properties: Option<&'a str>,
}

impl<'a> Params<'a> {
    /// A format's parameters with only the key and property query set (the other fields 0 / empty).
    pub(crate) fn new(format: c_int, key: &'a [u8], properties: Option<&'a str>) -> Self {
        Params {
            format,
            key,
            key_size: 0,
            hkdf_hash: 0,
            segment_size: 0,
            first_segment_offset: 0,
            associated_data: &[],
            keyid: &[],
            properties,
        }
    }

    /// Calls `f` with the C struct (its properties copied to a NUL-terminated stack buffer).
    fn with_raw<T>(&self, f: impl FnOnce(&sys::aead_stream_params) -> Result<T, Error>) -> Result<T, Error> {
        let mut query = [0u8; MAX_PROPERTIES + 1];
        let properties = properties_ptr(self.properties, &mut query)?;
        let raw = sys::aead_stream_params {
            size: core::mem::size_of::<sys::aead_stream_params>(),
            format: self.format,
            key: ptr_or_null(self.key),
            key_len: self.key.len(),
            key_size: self.key_size,
            hkdf_hash: self.hkdf_hash,
            segment_size: self.segment_size,
            first_segment_offset: self.first_segment_offset,
            associated_data: ptr_or_null(self.associated_data),
            associated_data_len: self.associated_data.len(),
            keyid: ptr_or_null(self.keyid),
            keyid_len: self.keyid.len(),
            properties,
        };
        f(&raw)
    }
}

owned_handle!(
    /// An owned `aead_stream` (library 1.7): a writer or a reader. Freed (its key cleansed) on drop.
    StreamCtx,
    sys::aead_stream,
    sys::aead_stream_free
);

/// What `StreamCtx::reader` found at the start of a stream.
pub(crate) enum ReaderStart {
    /// The reader, and the header's length.
    Ready(StreamCtx, usize),
    /// The bytes given are too few: call again with this many.
    Need(usize),
}

impl StreamCtx {
    /// `aead_stream_writer_new`: the writer, and the header's length in `header`.
    pub(crate) fn writer(p: &Params<'_>, header: &mut [u8]) -> Result<(Self, usize), Error> {
        p.with_raw(|raw| {
            let mut s: *mut sys::aead_stream = ptr::null_mut();
            let mut header_len = 0usize;
            let (h, cap) = mut_parts(header);
            // SAFETY: valid out-pointers and params (every buffer a live slice or NULL, 0); header
            // is writable for cap bytes.
            let rc = unsafe { sys::aead_stream_writer_new(&mut s, raw, h, cap, &mut header_len) };
            if rc != 0 {
                return Err(Error::from_code(i64::from(rc)));
            }
            let s = NonNull::new(s).map(StreamCtx).ok_or(Error::Crypto)?;
            if header_len > cap {
                panic!("libaead: aead_stream_writer_new wrote a header of {header_len} > {cap} bytes");
            }
            Ok((s, header_len))
        })
    }

    /// `aead_stream_reader_new` on the first `input.len()` bytes of a stream.
    pub(crate) fn reader(p: &Params<'_>, input: &[u8]) -> Result<ReaderStart, Error> {
        p.with_raw(|raw| {
            let mut s: *mut sys::aead_stream = ptr::null_mut();
            let mut header_len = 0usize;
            // SAFETY: valid out-pointers and params; input is a live slice (or NULL, 0).
            let rc = unsafe { sys::aead_stream_reader_new(&mut s, raw, ptr_or_null(input), input.len(), &mut header_len) };
            if rc == sys::AEAD_ERR_BUFFER_TOO_SMALL {
                return Ok(ReaderStart::Need(header_len));
            }
            if rc != 0 {
                return Err(Error::from_code(i64::from(rc)));
            }
            let s = NonNull::new(s).map(StreamCtx).ok_or(Error::Crypto)?;
            Ok(ReaderStart::Ready(s, header_len))
        })
    }

    /// `aead_stream_seal` of `input` (`pad` zero bytes of RFC 8188 padding) into `out`.
    pub(crate) fn seal(&self, input: &[u8], pad: usize, last: bool, out: &mut [u8]) -> Result<usize, Error> {
        let (o, cap) = mut_parts(out);
        // SAFETY: live handle (aead.h allows calls from any thread); input a live slice, out a
        // distinct writable one (Rust's borrows make them disjoint).
        let rc = unsafe { sys::aead_stream_seal(self.0.as_ptr(), ptr_or_null(input), input.len(), pad, c_int::from(last), o, cap) };
        check_len(rc, cap)
    }

    /// `aead_stream_open` (`index` `None`: the reader's next segment) or
    /// `aead_stream_open_segment` of `input` into `out`.
    pub(crate) fn open(&self, index: Option<u64>, input: &[u8], last: bool, out: &mut [u8]) -> Result<usize, Error> {
        let (o, cap) = mut_parts(out);
        let (i, n) = (ptr_or_null(input), input.len());
        // SAFETY: as seal.
        let rc = unsafe {
            match index {
                None => sys::aead_stream_open(self.0.as_ptr(), i, n, c_int::from(last), o, cap),
                Some(index) => sys::aead_stream_open_segment(self.0.as_ptr(), index, i, n, c_int::from(last), o, cap),
            }
        };
        check_len(rc, cap)
    }

    /// `aead_stream_segment_size`: ciphertext bytes of segment `index` when it is not the last.
    pub(crate) fn segment_size(&self, index: u64) -> usize {
        // SAFETY: live handle; a read-only query.
        unsafe { sys::aead_stream_segment_size(self.0.as_ptr(), index) }
    }

    /// `aead_stream_overhead`: ciphertext bytes of a segment beyond its plaintext.
    pub(crate) fn overhead(&self) -> usize {
        // SAFETY: live handle; a read-only query.
        unsafe { sys::aead_stream_overhead(self.0.as_ptr()) }
    }
}
