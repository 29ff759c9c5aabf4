//! Streaming AEAD (library 1.7): files and HTTP bodies encrypted as a sequence of segments, as
//! `std::io` adapters.
//!
//! Three formats, each byte-compatible with its own ecosystem:
//!
//! * [`TinkAesGcmHkdf`]: Tink's `AesGcmHkdfStreaming` (the raw-key primitive of Tink for Java,
//!   Go, Python and C++): AES-128-GCM or AES-256-GCM under a key HKDF (SHA-1, SHA-256 or SHA-512)
//!   derives from the main key, a random salt and the stream's associated data. It also has random
//!   access: [`TinkAesGcmHkdf::seekable_reader`].
//! * [`AgePayload`]: age's payload (age-encryption.org/v1, "STREAM"): ChaCha20-Poly1305 in
//!   64 KiB chunks under the 16-byte file key. The recipient stanzas and header MAC of an age file
//!   are the caller's (they give the file key); this is what follows them.
//! * [`Rfc8188`]: the `aes128gcm` content coding of RFC 8188 (HTTP bodies, and Web Push's
//!   RFC 8291 with the input keying material it derives): records of `rs` bytes, a key id in the
//!   header, optional padding.
//!
//! Each format type gives a [`StreamWriter`] (`std::io::Write`) and a [`StreamReader`]
//! (`std::io::Read`). The library numbers the segments and marks the last one, so a reader
//! refuses a stream that was cut short (even at a segment boundary), reordered, extended or
//! modified: the read where this is found returns an [`std::io::Error`] of kind
//! [`InvalidData`](std::io::ErrorKind::InvalidData) whose inner error is this crate's
//! [`Error::Auth`] (`err.get_ref()` and `downcast_ref::<libaead::Error>()`), never an early
//! `Ok(0)`. The error then stays: every later read returns it again. Data a reader has returned
//! before that point was authenticated, but it is not the whole stream: discard it unless the read
//! reaches `Ok(0)`.
//!
//! A writer holds back the last full segment until [`StreamWriter::finish`], which seals the
//! segment that ends the stream with the data in it (as Tink's and age's writers do), writes it
//! and returns the inner writer. **Dropping a writer without `finish` writes nothing more**: the
//! output then lacks its final segment and every reader refuses it as truncated (the held-back
//! data is lost). A reader reads one segment plus one byte ahead, to know whether the segment is
//! the last.
//!
//! Writers and readers are `Send` (and `Sync`) when their inner writer or reader is.
//!
//! ```
//! use std::io::{Read, Write};
//! use libaead::stream::{HkdfHash, TinkAesGcmHkdf};
//!
//! let key = [7u8; 32];
//! let format = TinkAesGcmHkdf::new(&key, 32, HkdfHash::Sha256, 4096).with_associated_data(b"file.txt");
//!
//! let mut w = format.writer(Vec::new())?;
//! w.write_all(&vec![42u8; 10_000])?;
//! let ciphertext = w.finish()?;
//!
//! let mut plaintext = Vec::new();
//! format.reader(&ciphertext[..])?.read_to_end(&mut plaintext)?;
//! assert_eq!(plaintext, vec![42u8; 10_000]);
//!
//! // Cut short at any point: refused.
//! let mut r = format.reader(&ciphertext[..ciphertext.len() - 100])?;
//! let err = r.read_to_end(&mut Vec::new()).unwrap_err();
//! assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
//! assert_eq!(err.get_ref().unwrap().downcast_ref::<libaead::Error>(), Some(&libaead::Error::Auth));
//! # Ok::<(), std::io::Error>(())
//! ```
use crate::ffi::stream::{Params, ReaderStart, StreamCtx};
use crate::{sys, Error};
use core::fmt;
use std::io::{self, Read, Seek, SeekFrom, Write};

/// Ciphertext bytes of a segment beyond its plaintext for Tink and age (the tag); RFC 8188
/// records have one more (the delimiter).
pub const TAG_LEN: usize = 16;
/// The largest Tink segment size and RFC 8188 record size either side takes (16 MiB).
pub const MAX_SEGMENT: u32 = sys::AEAD_STREAM_MAX_SEGMENT;
/// age's chunk: 64 KiB of plaintext per segment.
pub const AGE_CHUNK: usize = sys::AEAD_STREAM_AGE_CHUNK as usize;
/// RFC 8188's smallest record size.
pub const RFC8188_MIN_RS: u32 = 18;
/// The record size an [`Rfc8188`] writer uses unless told otherwise.
pub const RFC8188_DEFAULT_RS: u32 = 4096;

/// The `std::io::Error` for a library error: [`InvalidData`](io::ErrorKind::InvalidData) for
/// an input the format refuses ([`Error::Auth`]; [`Error::TooLong`]: an RFC 8188 record size over
/// the reader's bound), [`InvalidInput`](io::ErrorKind::InvalidInput) for parameters
/// ([`Error::Arg`], [`Error::KeySize`]), else `Other`. The crate's [`Error`] is the inner error.
fn io_error(e: Error) -> io::Error {
    let kind = match e {
        Error::Auth | Error::TooLong => io::ErrorKind::InvalidData,
        Error::Arg | Error::KeySize => io::ErrorKind::InvalidInput,
        _ => io::ErrorKind::Other,
    };
    io::Error::new(kind, e)
}

/// A format type: its parameters (borrowed; the secret left out of `Debug`), an optional property
/// query, and `with_properties`.
macro_rules! format_type {
    ($(#[$doc:meta])* $name:ident { $secret:ident: $secret_ty:ty, $($field:ident: $ty:ty,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub struct $name<'a> {
            $secret: $secret_ty,
            $($field: $ty,)*
            properties: Option<&'a str>,
        }

        impl fmt::Debug for $name<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($name))
                    .field(stringify!($secret), &"<redacted>")
                    $(.field(stringify!($field), &self.$field))*
                    .field("properties", &self.properties)
                    .finish()
            }
        }

        impl<'a> $name<'a> {
            /// An OpenSSL property query for the cipher and HKDF (e.g. `"fips=yes"`).
            pub fn with_properties(mut self, properties: &'a str) -> Self {
                self.properties = Some(properties);
                self
            }
        }
    };
}

/// Tink's HKDF hash ([`TinkAesGcmHkdf`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HkdfHash {
    /// HKDF-SHA1 (Tink's `HashType.SHA1`).
    Sha1,
    /// HKDF-SHA256.
    Sha256,
    /// HKDF-SHA512.
    Sha512,
}

impl HkdfHash {
    fn code(self) -> core::ffi::c_int {
        match self {
            HkdfHash::Sha1 => sys::AEAD_STREAM_SHA1,
            HkdfHash::Sha256 => sys::AEAD_STREAM_SHA256,
            HkdfHash::Sha512 => sys::AEAD_STREAM_SHA512,
        }
    }
}

format_type!(
    /// Tink's `AesGcmHkdfStreaming`: the main key (at least 16 bytes, and at least `key_size`), the
    /// derived AES key size (16 or 32), the HKDF hash, the ciphertext segment size (Tink's
    /// `ciphertextSegmentSize`, e.g. 4096 or 1 MiB, at most [`MAX_SEGMENT`]), the first segment
    /// offset (bytes the caller keeps before the header, usually 0) and the stream's associated data
    /// (at most 1024 bytes). The parameters are borrowed; the key is not copied.
    ///
    /// Layout: header (length byte, salt of `key_size` bytes, 7-byte nonce prefix), then segments of
    /// `segment_size` bytes (the first shorter by the header and the offset), the last one shorter;
    /// at most 2^32 segments.
    TinkAesGcmHkdf {
        key: &'a [u8],
        key_size: usize,
        hash: HkdfHash,
        segment_size: u32,
        first_segment_offset: u32,
        associated_data: &'a [u8],
    }
);

impl<'a> TinkAesGcmHkdf<'a> {
    /// The format with no associated data and a first segment offset of 0. The parameters are
    /// checked when a writer or reader is made ([`Error::Arg`], [`Error::KeySize`]).
    pub fn new(key: &'a [u8], key_size: usize, hash: HkdfHash, segment_size: u32) -> Self {
        TinkAesGcmHkdf { key, key_size, hash, segment_size, first_segment_offset: 0, associated_data: &[], properties: None }
    }

    /// The stream's associated data (HKDF's info; Tink's `associatedData`).
    pub fn with_associated_data(mut self, associated_data: &'a [u8]) -> Self {
        self.associated_data = associated_data;
        self
    }

    /// Bytes of the ciphertext before the header that the caller writes and reads itself (Tink's
    /// `firstSegmentOffset`): the first segment is shorter by as much.
    pub fn with_first_segment_offset(mut self, offset: u32) -> Self {
        self.first_segment_offset = offset;
        self
    }

    fn params(&self) -> Params<'a> {
        Params {
            key_size: self.key_size,
            hkdf_hash: self.hash.code(),
            segment_size: self.segment_size,
            first_segment_offset: self.first_segment_offset,
            associated_data: self.associated_data,
            ..Params::new(sys::AEAD_STREAM_TINK_AES_GCM_HKDF, self.key, self.properties)
        }
    }

    /// A writer: draws the salt and nonce prefix and writes the header to `inner` at once.
    pub fn writer<W: Write>(&self, inner: W) -> io::Result<StreamWriter<W>> {
        StreamWriter::new(&self.params(), 0, inner)
    }

    /// A reader: reads the header from `inner` at once.
    pub fn reader<R: Read>(&self, inner: R) -> io::Result<StreamReader<R>> {
        StreamReader::new(&self.params(), inner)
    }

    /// Random access (Tink's seekable decryption): the stream is the whole of `inner` from its
    /// current position (where the header starts) to its end, which must not change while the
    /// reader is used. Each read opens the segment it falls in; the final segment is the one
    /// that ends `inner`.
    pub fn seekable_reader<R: Read + Seek>(&self, inner: R) -> io::Result<SeekableReader<R>> {
        SeekableReader::new(&self.params(), inner)
    }
}

format_type!(
    /// age's payload (age-encryption.org/v1, "STREAM"): the 16-byte file key from the file's
    /// recipient stanzas. The header is the payload's 16-byte nonce; chunks of [`AGE_CHUNK`] bytes of
    /// plaintext, the last one shorter (empty only when the whole payload is).
    AgePayload {
        file_key: &'a [u8; 16],
    }
);

impl<'a> AgePayload<'a> {
    /// The payload format under `file_key`.
    pub fn new(file_key: &'a [u8; 16]) -> Self {
        AgePayload { file_key, properties: None }
    }

    fn params(&self) -> Params<'a> {
        Params::new(sys::AEAD_STREAM_AGE, self.file_key, self.properties)
    }

    /// A writer: draws the payload nonce and writes it to `inner` at once.
    pub fn writer<W: Write>(&self, inner: W) -> io::Result<StreamWriter<W>> {
        StreamWriter::new(&self.params(), 0, inner)
    }

    /// A reader: reads the payload nonce from `inner` at once.
    pub fn reader<R: Read>(&self, inner: R) -> io::Result<StreamReader<R>> {
        StreamReader::new(&self.params(), inner)
    }
}

format_type!(
    /// RFC 8188's `aes128gcm` content coding under input keying material `ikm` (1 to 255 bytes; 16
    /// for Web Push). A writer uses record size `rs` ([`RFC8188_DEFAULT_RS`] unless
    /// [`with_rs`](Self::with_rs)), the header's key id ([`with_keyid`](Self::with_keyid)) and
    /// pads its last record with [`with_final_padding`](Self::with_final_padding) zero bytes. A reader
    /// takes the record size and key id from the header (the key id is not authenticated: RFC 8188
    /// uses it only to name the key, see [`Rfc8188::keyid_of`]), and refuses a record size above
    /// [`with_max_rs`](Self::with_max_rs) ([`MAX_SEGMENT`] unless told) before allocating anything.
    Rfc8188 {
        ikm: &'a [u8],
        rs: u32,
        keyid: &'a [u8],
        final_padding: usize,
        max_rs: u32,
    }
);

impl<'a> Rfc8188<'a> {
    /// The content coding under `ikm`, with the defaults above.
    pub fn new(ikm: &'a [u8]) -> Self {
        Rfc8188 { ikm, rs: RFC8188_DEFAULT_RS, keyid: &[], final_padding: 0, max_rs: MAX_SEGMENT, properties: None }
    }

    /// The writer's record size: ciphertext bytes of every record but the last, from
    /// [`RFC8188_MIN_RS`] to [`MAX_SEGMENT`].
    pub fn with_rs(mut self, rs: u32) -> Self {
        self.rs = rs;
        self
    }

    /// The writer's key id (at most 255 bytes), written in the header.
    pub fn with_keyid(mut self, keyid: &'a [u8]) -> Self {
        self.keyid = keyid;
        self
    }

    /// Zero bytes of padding the writer puts in its last record (at most `rs` - 17). When the
    /// held-back data and the padding do not fit one record, the data goes in a record of its own
    /// and the padding in the last one.
    pub fn with_final_padding(mut self, pad: usize) -> Self {
        self.final_padding = pad;
        self
    }

    /// The largest record size a reader takes (a header with more is
    /// [`Error::TooLong`], an `InvalidData` error), at most [`MAX_SEGMENT`].
    pub fn with_max_rs(mut self, max_rs: u32) -> Self {
        self.max_rs = max_rs;
        self
    }

    fn params(&self, segment_size: u32, keyid: &'a [u8]) -> Params<'a> {
        Params { segment_size, keyid, ..Params::new(sys::AEAD_STREAM_RFC8188, self.ikm, self.properties) }
    }

    /// The key id in a stream's header (`body` holds at least its first 21 bytes and the key id),
    /// to choose the key before making the reader; `None` when `body` is too short.
    pub fn keyid_of(body: &[u8]) -> Option<&[u8]> {
        let len = usize::from(*body.get(20)?);
        body.get(21..21 + len)
    }

    /// A writer: draws the salt and writes the header to `inner` at once. A final padding that
    /// cannot fit a record is [`Error::Arg`] (an `InvalidInput` error).
    pub fn writer<W: Write>(&self, inner: W) -> io::Result<StreamWriter<W>> {
        if self.rs < RFC8188_MIN_RS || self.final_padding > self.rs as usize - 17 {
            return Err(io_error(Error::Arg));
        }
        StreamWriter::new(&self.params(self.rs, self.keyid), self.final_padding, inner)
    }

    /// A reader: reads the header from `inner` at once.
    pub fn reader<R: Read>(&self, inner: R) -> io::Result<StreamReader<R>> {
        if self.max_rs == 0 {
            return Err(io_error(Error::Arg));
        }
        StreamReader::new(&self.params(self.max_rs, &[]), inner)
    }
}

/// Reads the header of a stream from `inner`, exactly as many bytes as the format says: the
/// reader and the header's length. A stream that ends inside the header is [`Error::Auth`].
fn read_header<R: Read>(p: &Params<'_>, inner: &mut R) -> io::Result<(StreamCtx, usize)> {
    let mut head = Vec::with_capacity(sys::AEAD_STREAM_MAX_HEADER as usize);
    loop {
        match StreamCtx::reader(p, &head).map_err(io_error)? {
            ReaderStart::Ready(ctx, len) => return Ok((ctx, len)),
            ReaderStart::Need(n) if n > head.len() && n <= sys::AEAD_STREAM_MAX_HEADER as usize => {
                let old = head.len();
                head.resize(n, 0);
                inner.read_exact(&mut head[old..]).map_err(|e| {
                    if e.kind() == io::ErrorKind::UnexpectedEof {
                        io_error(Error::Auth)
                    } else {
                        e
                    }
                })?;
            }
            ReaderStart::Need(_) => return Err(io_error(Error::Crypto)),
        }
    }
}

/// A streaming AEAD writer (`std::io::Write`) from [`TinkAesGcmHkdf::writer`],
/// [`AgePayload::writer`] or [`Rfc8188::writer`]: the header is written when it is made, each
/// segment when the data after it arrives, and the final one by [`finish`](Self::finish).
///
/// `flush` flushes the inner writer but cannot push out the held-back segment (a segment is
/// sealed only when its size and whether it is the last are known). Dropping the writer without
/// `finish` writes nothing more: the stream stays without its final segment, which readers refuse.
/// A failed write of the inner writer leaves the stream broken: every later call returns an error.
pub struct StreamWriter<W: Write> {
    inner: W,
    ctx: StreamCtx,
    /// Plaintext of the next segment, at most its size: sealed once one more byte arrives.
    buf: Vec<u8>,
    /// The sealed segment.
    out: Vec<u8>,
    index: u64,
    final_padding: usize,
    broken: bool,
}

impl<W: Write> fmt::Debug for StreamWriter<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamWriter").field("segment", &self.index).field("held", &self.buf.len()).finish_non_exhaustive()
    }
}

impl<W: Write> StreamWriter<W> {
    fn new(p: &Params<'_>, final_padding: usize, mut inner: W) -> io::Result<Self> {
        let mut header = [0u8; sys::AEAD_STREAM_MAX_HEADER as usize];
        let (ctx, header_len) = StreamCtx::writer(p, &mut header).map_err(io_error)?;
        inner.write_all(&header[..header_len])?;
        let max = ctx.segment_size(0).max(ctx.segment_size(1));
        Ok(StreamWriter { inner, ctx, buf: Vec::new(), out: vec![0u8; max], index: 0, final_padding, broken: false })
    }

    /// Plaintext bytes of segment `index` when it is not the last.
    fn room(&self) -> usize {
        self.ctx.segment_size(self.index) - self.ctx.overhead()
    }

    fn check(&self) -> io::Result<()> {
        if self.broken {
            return Err(io::Error::other("libaead::stream: an earlier write failed; the stream is broken"));
        }
        Ok(())
    }

    /// Seals `buf` as the next segment (with `pad` bytes of padding when `last`) and writes it.
    fn seal_buf(&mut self, pad: usize, last: bool) -> io::Result<()> {
        self.broken = true;
        let n = self.ctx.seal(&self.buf, pad, last, &mut self.out).map_err(io_error)?;
        self.inner.write_all(&self.out[..n])?;
        self.buf.clear();
        self.index += 1;
        self.broken = false;
        Ok(())
    }

    /// Seals and writes the held-back data as the final segment, flushes the inner writer and
    /// returns it. After an earlier failed write: an error, nothing written.
    pub fn finish(mut self) -> io::Result<W> {
        self.check()?;
        let pad = self.final_padding;
        if pad != 0 && self.buf.len() + pad > self.room() {
            // RFC 8188: the data in a record of its own, the padding in the last one.
            self.seal_buf(0, false)?;
        }
        self.seal_buf(pad, true)?;
        self.inner.flush()?;
        Ok(self.inner)
    }

    /// The inner writer.
    pub fn get_ref(&self) -> &W {
        &self.inner
    }
}

impl<W: Write> Write for StreamWriter<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.check()?;
        let mut rest = data;
        while !rest.is_empty() {
            let room = self.room();
            if self.buf.len() == room {
                // A full segment and more data after it: not the last.
                self.seal_buf(0, false)?;
                continue;
            }
            let take = (room - self.buf.len()).min(rest.len());
            self.buf.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.check()?;
        self.inner.flush()
    }
}

/// A streaming AEAD reader (`std::io::Read`) from [`TinkAesGcmHkdf::reader`],
/// [`AgePayload::reader`] or [`Rfc8188::reader`]: reads a segment and one byte more, opens the
/// segment (the last one when the input ends there) and returns its plaintext. `Ok(0)` only once
/// the final segment has opened; a stream that is cut short, reordered, extended or modified is
/// an [`InvalidData`](io::ErrorKind::InvalidData) error wrapping [`Error::Auth`] at the read that
/// finds it, and stays one.
pub struct StreamReader<R: Read> {
    inner: R,
    ctx: StreamCtx,
    /// Ciphertext read ahead: the segment being gathered, or the byte after the last one opened.
    ct: Vec<u8>,
    pt: Vec<u8>,
    pt_pos: usize,
    index: u64,
    header_len: usize,
    done: bool,
    failed: Option<Error>,
}

impl<R: Read> fmt::Debug for StreamReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamReader")
            .field("segment", &self.index)
            .field("done", &self.done)
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

impl<R: Read> StreamReader<R> {
    fn new(p: &Params<'_>, mut inner: R) -> io::Result<Self> {
        let (ctx, header_len) = read_header(p, &mut inner)?;
        Ok(StreamReader { inner, ctx, ct: Vec::new(), pt: Vec::new(), pt_pos: 0, index: 0, header_len, done: false, failed: None })
    }

    /// The header's length in bytes (the first segment starts there).
    pub fn header_len(&self) -> usize {
        self.header_len
    }

    /// The inner reader (after the final segment: positioned at the end of the stream, which it
    /// has read to the end).
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Reads the next segment plus one byte (or to the end of the input) and opens it.
    fn next_segment(&mut self) -> io::Result<()> {
        let full = self.ctx.segment_size(self.index);
        let want = full + 1;
        while self.ct.len() < want {
            let old = self.ct.len();
            self.ct.resize(want, 0);
            match self.inner.read(&mut self.ct[old..]) {
                Ok(0) => {
                    self.ct.truncate(old);
                    break;
                }
                Ok(n) => self.ct.truncate(old + n),
                Err(e) => {
                    self.ct.truncate(old);
                    if e.kind() != io::ErrorKind::Interrupted {
                        return Err(e);
                    }
                }
            }
        }
        let last = self.ct.len() < want;
        let len = if last { self.ct.len() } else { full };
        self.pt.resize(full, 0);
        match self.ctx.open(None, &self.ct[..len], last, &mut self.pt) {
            Ok(n) => {
                self.pt.truncate(n);
                self.pt_pos = 0;
                self.ct.drain(..len);
                self.index += 1;
                self.done = last;
                Ok(())
            }
            Err(e) => {
                self.pt.clear();
                self.failed = Some(e);
                Err(io_error(e))
            }
        }
    }
}

impl<R: Read> Read for StreamReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if self.pt_pos < self.pt.len() {
                let n = buf.len().min(self.pt.len() - self.pt_pos);
                buf[..n].copy_from_slice(&self.pt[self.pt_pos..self.pt_pos + n]);
                self.pt_pos += n;
                return Ok(n);
            }
            if let Some(e) = self.failed {
                return Err(io_error(e));
            }
            if self.done {
                return Ok(0);
            }
            self.next_segment()?;
        }
    }
}

/// Random access to a Tink stream ([`TinkAesGcmHkdf::seekable_reader`]): `Read + Seek` over the
/// plaintext. Each read opens the segment the position falls in (`aead_stream_open_segment`),
/// the last segment of the input as the final one; reading at or past the end first opens the
/// final segment, so `Ok(0)` means the stream's end was authenticated. A segment that does not
/// open is an [`InvalidData`](io::ErrorKind::InvalidData) error wrapping [`Error::Auth`].
pub struct SeekableReader<R: Read + Seek> {
    inner: R,
    ctx: StreamCtx,
    /// Position in `inner` of segment 0.
    base: u64,
    segments: u64,
    last_len: usize,
    plain_len: u64,
    pos: u64,
    ct: Vec<u8>,
    pt: Vec<u8>,
    pt_len: usize,
    /// The segment whose plaintext is in `pt[..pt_len]`.
    cached: Option<u64>,
    end_checked: bool,
}

impl<R: Read + Seek> fmt::Debug for SeekableReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SeekableReader")
            .field("segments", &self.segments)
            .field("len", &self.plain_len)
            .field("pos", &self.pos)
            .finish_non_exhaustive()
    }
}

impl<R: Read + Seek> SeekableReader<R> {
    fn new(p: &Params<'_>, mut inner: R) -> io::Result<Self> {
        let (ctx, _) = read_header(p, &mut inner)?;
        let base = inner.stream_position()?;
        let end = inner.seek(SeekFrom::End(0))?;
        let ct_len = end.saturating_sub(base);
        let (first, seg, tag) = (ctx.segment_size(0) as u64, ctx.segment_size(1) as u64, ctx.overhead() as u64);
        let (segments, last_len) = if ct_len <= first {
            (1, ct_len)
        } else {
            let more = (ct_len - first).div_ceil(seg);
            (1 + more, ct_len - first - (more - 1) * seg)
        };
        let plain_len = if segments == 1 {
            last_len.saturating_sub(tag)
        } else {
            (first - tag) + (segments - 2) * (seg - tag) + last_len.saturating_sub(tag)
        };
        let max = first.max(seg) as usize;
        Ok(SeekableReader {
            inner,
            ctx,
            base,
            segments,
            last_len: last_len as usize,
            plain_len,
            pos: 0,
            ct: vec![0u8; max],
            pt: vec![0u8; max],
            pt_len: 0,
            cached: None,
            end_checked: false,
        })
    }

    /// The plaintext's length, from the input's length (the final segment's tag is checked when
    /// it is read).
    pub fn len(&self) -> u64 {
        self.plain_len
    }

    /// Whether the plaintext is empty.
    pub fn is_empty(&self) -> bool {
        self.plain_len == 0
    }

    /// The inner reader.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Plaintext bytes of a segment that is not the last.
    fn plain(&self, index: u64) -> u64 {
        (self.ctx.segment_size(index) - self.ctx.overhead()) as u64
    }

    /// The segment holding plaintext position `pos` (< plain_len), and its plaintext start.
    fn locate(&self, pos: u64) -> (u64, u64) {
        let first = self.plain(0);
        if pos < first {
            return (0, 0);
        }
        let i = 1 + (pos - first) / self.plain(1);
        let i = i.min(self.segments - 1);
        (i, first + (i - 1) * self.plain(1))
    }

    /// Opens segment `index` into `pt` (unless it is there already).
    fn load(&mut self, index: u64) -> io::Result<()> {
        if self.cached == Some(index) {
            return Ok(());
        }
        let last = index + 1 == self.segments;
        let (full0, full) = (self.ctx.segment_size(0) as u64, self.ctx.segment_size(1) as u64);
        let offset = self.base + if index == 0 { 0 } else { full0 + (index - 1) * full };
        let len = if last { self.last_len } else { self.ctx.segment_size(index) };
        self.cached = None;
        self.inner.seek(SeekFrom::Start(offset))?;
        self.inner.read_exact(&mut self.ct[..len]).map_err(|e| {
            if e.kind() == io::ErrorKind::UnexpectedEof {
                io_error(Error::Auth)
            } else {
                e
            }
        })?;
        let n = self.ctx.open(Some(index), &self.ct[..len], last, &mut self.pt).map_err(io_error)?;
        self.pt_len = n;
        self.cached = Some(index);
        if last {
            self.end_checked = true;
        }
        Ok(())
    }
}

impl<R: Read + Seek> Read for SeekableReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos >= self.plain_len {
            if !self.end_checked {
                self.load(self.segments - 1)?;
            }
            return Ok(0);
        }
        if buf.is_empty() {
            return Ok(0);
        }
        let (index, start) = self.locate(self.pos);
        self.load(index)?;
        let off = (self.pos - start) as usize;
        let avail = self.pt_len.saturating_sub(off);
        if avail == 0 {
            // The plaintext is shorter than the input's length said: only a forged last segment.
            return Err(io_error(Error::Auth));
        }
        let n = buf.len().min(avail);
        buf[..n].copy_from_slice(&self.pt[off..off + n]);
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: Read + Seek> Seek for SeekableReader<R> {
    /// Moves within the plaintext (`SeekFrom::End` from [`len`](SeekableReader::len)); no I/O.
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let pos = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::End(d) => self.plain_len.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        self.pos = pos.ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek before the start of the stream"))?;
        Ok(self.pos)
    }
}
