//! libaead::stream (library 1.7): RFC 8188's examples, each format against an oracle built here from
//! RustCrypto's aes-gcm, chacha20poly1305 and hkdf (both directions, random sizes), Tink's random
//! access, and streams cut short, reordered, extended or modified, which every reader refuses.
mod common;

use aead::{Aead, KeyInit};
use common::Rng;
use hkdf::Hkdf;
use libaead::stream::{AgePayload, HkdfHash, Rfc8188, StreamReader, StreamWriter, TinkAesGcmHkdf};
use libaead::Error;
use std::io::{self, Cursor, Read, Seek, SeekFrom, Write};

type Array12 = aead::array::Array<u8, aead::consts::U12>;

fn is_auth(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::InvalidData && e.get_ref().and_then(|x| x.downcast_ref::<Error>()) == Some(&Error::Auth)
}

fn gcm_seal(key: &[u8], nonce: &[u8; 12], pt: &[u8]) -> Vec<u8> {
    let n: Array12 = (*nonce).into();
    match key.len() {
        16 => aes_gcm::Aes128Gcm::new_from_slice(key).unwrap().encrypt(&n, pt),
        _ => aes_gcm::Aes256Gcm::new_from_slice(key).unwrap().encrypt(&n, pt),
    }
    .unwrap()
}

fn gcm_open(key: &[u8], nonce: &[u8; 12], ct: &[u8]) -> Option<Vec<u8>> {
    let n: Array12 = (*nonce).into();
    match key.len() {
        16 => aes_gcm::Aes128Gcm::new_from_slice(key).unwrap().decrypt(&n, ct),
        _ => aes_gcm::Aes256Gcm::new_from_slice(key).unwrap().decrypt(&n, ct),
    }
    .ok()
}

/// Writes `data` through `w` in random pieces (empty ones too) and finishes.
fn write_pieces<W: Write>(mut w: StreamWriter<W>, data: &[u8], rng: &mut Rng) -> W {
    let mut rest = data;
    while !rest.is_empty() {
        let n = match rng.below(4) {
            0 => 0,
            1 => rng.below(16),
            2 => rng.below(5000),
            _ => rng.below(200_000),
        }
        .min(rest.len());
        w.write_all(&rest[..n]).unwrap();
        rest = &rest[n..];
    }
    w.finish().unwrap()
}

/// Reads all of `r` in random pieces.
fn read_pieces<R: Read>(r: &mut R, rng: &mut Rng) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut buf = vec![0u8; 300_000];
    loop {
        let bound = if rng.below(2) == 0 { 100 } else { buf.len() };
        let want = 1 + rng.below(bound);
        match r.read(&mut buf[..want])? {
            0 => return Ok(out),
            n => out.extend_from_slice(&buf[..n]),
        }
    }
}

/// A length biased to the segment edges of `seg` (plaintext bytes of a full segment).
fn stream_len(rng: &mut Rng, seg: usize) -> usize {
    match rng.below(6) {
        0 => [0, 1, seg - 1, seg, seg + 1, 2 * seg - 1, 2 * seg, 2 * seg + 1, 3 * seg][rng.below(9)],
        1 => seg * (1 + rng.below(5)) + rng.below(3) - 1,
        2 => rng.below(30 * seg),
        _ => rng.below(4 * seg),
    }
}

// ---------------------------------------------------------------------------------------------
// RFC 8188

fn b64url(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => panic!("not base64url: {c}"),
    };
    let (mut out, mut acc, mut bits) = (Vec::new(), 0u32, 0);
    for &c in s.as_bytes() {
        acc = acc << 6 | u32::from(val(c));
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// RFC 8188's key and nonce base for a salt.
fn rfc8188_keys(ikm: &[u8], salt: &[u8]) -> ([u8; 16], [u8; 12]) {
    let hk = Hkdf::<sha2::Sha256>::new(Some(salt), ikm);
    let (mut cek, mut nonce) = ([0u8; 16], [0u8; 12]);
    hk.expand(b"Content-Encoding: aes128gcm\0", &mut cek).unwrap();
    hk.expand(b"Content-Encoding: nonce\0", &mut nonce).unwrap();
    (cek, nonce)
}

fn xor_nonce(base: &[u8; 12], seq: u64) -> [u8; 12] {
    let mut n = *base;
    for (b, s) in n[4..].iter_mut().zip(seq.to_be_bytes()) {
        *b ^= s;
    }
    n
}

/// The oracle's RFC 8188 body: records of random fill (each padded to rs but the last), the last
/// padded with `pad` zeros.
fn rfc8188_oracle_seal(rng: &mut Rng, ikm: &[u8], rs: u32, keyid: &[u8], data: &[u8], pad: usize) -> Vec<u8> {
    let salt: [u8; 16] = rng.array();
    let (cek, base) = rfc8188_keys(ikm, &salt);
    let mut out = salt.to_vec();
    out.extend_from_slice(&rs.to_be_bytes());
    out.push(keyid.len() as u8);
    out.extend_from_slice(keyid);
    let room = rs as usize - 17;
    let mut rest = data;
    let mut seq = 0;
    loop {
        let last = rest.len() + pad <= room && rng.below(4) != 0;
        let take = if last { rest.len() } else { rng.below(room + 1).min(rest.len()) };
        let mut rec = rest[..take].to_vec();
        rest = &rest[take..];
        rec.push(if last { 2 } else { 1 });
        let target = if last { take + 1 + pad } else { rs as usize - 16 };
        rec.resize(target, 0);
        out.extend(gcm_seal(&cek, &xor_nonce(&base, seq), &rec));
        seq += 1;
        if last {
            return out;
        }
    }
}

/// The oracle's RFC 8188 decoder: the plaintext, or None.
fn rfc8188_oracle_open(ikm: &[u8], body: &[u8]) -> Option<Vec<u8>> {
    let rs = u32::from_be_bytes(body.get(16..20)?.try_into().unwrap()) as usize;
    let hl = 21 + usize::from(*body.get(20)?);
    let (cek, base) = rfc8188_keys(ikm, &body[..16]);
    let mut out = Vec::new();
    let recs: Vec<&[u8]> = body.get(hl..)?.chunks(rs).collect();
    for (i, rec) in recs.iter().enumerate() {
        let mut pt = gcm_open(&cek, &xor_nonce(&base, i as u64), rec)?;
        while pt.last() == Some(&0) {
            pt.pop();
        }
        let last = i + 1 == recs.len();
        if pt.pop()? != if last { 2 } else { 1 } || (!last && rec.len() != rs) {
            return None;
        }
        out.extend(pt);
    }
    (!recs.is_empty()).then_some(out)
}

#[test]
fn rfc8188_section3_examples() {
    let examples = [
        ("yqdlZ-tYemfogSmv7Ws5PQ", "I1BsxtFttlv3u_Oo94xnmwAAEAAA-NAVub2qFgBEuQKRapoZu-IxkIva3MEB1PD-ly8Thjg", &b""[..]),
        (
            "BO3ZVPxUlnLORbVGMpbT1Q",
            "uNCkWiNYzKTnBN9ji3-qWAAAABkCYTHOG8chz_gnvgOqdGYovxyjuqRyJFjEDyoF1Fvkj6hQPdPHI51OEUKEpgz3SsLWIqS_uA",
            &b"a1"[..],
        ),
    ];
    for (ikm, body, keyid) in examples {
        let (ikm, body) = (b64url(ikm), b64url(body));
        assert_eq!(Rfc8188::keyid_of(&body), Some(keyid));
        let mut r = Rfc8188::new(&ikm).reader(&body[..]).unwrap();
        assert_eq!(r.header_len(), 21 + keyid.len());
        let mut pt = Vec::new();
        r.read_to_end(&mut pt).unwrap();
        assert_eq!(pt, b"I am the walrus");
        // The oracle agrees, and another key is refused.
        assert_eq!(rfc8188_oracle_open(&ikm, &body).unwrap(), b"I am the walrus");
        let mut other = ikm.clone();
        other[0] ^= 1;
        let err = Rfc8188::new(&other).reader(&body[..]).unwrap().read_to_end(&mut Vec::new()).unwrap_err();
        assert!(is_auth(&err), "{err:?}");
    }
}

#[test]
fn rfc8188_against_oracle() {
    let mut rng = Rng::from_env("rfc8188_against_oracle");
    let (mut ours_to_oracle, mut oracle_to_ours, mut records) = (0, 0, 0usize);
    for i in 0..240 {
        let ikm_len = 1 + rng.below(if i % 2 == 0 { 16 } else { 255 });
        let ikm = rng.bytes(ikm_len);
        let rs: u32 = match rng.below(4) {
            0 => 18 + rng.below(8) as u32,
            1 => 4096,
            _ => 18 + rng.below(600) as u32,
        };
        let keyid_bound = if rng.below(2) == 0 { 4 } else { 256 };
        let keyid_len = rng.below(keyid_bound);
        let keyid = rng.bytes(keyid_len);
        let room = rs as usize - 17;
        let len = stream_len(&mut rng, room);
        let data = rng.bytes(len);
        let pad = if rng.below(2) == 0 { 0 } else { rng.below(room + 1) };
        // Ours, then the oracle's decoder.
        let format = Rfc8188::new(&ikm).with_rs(rs).with_keyid(&keyid).with_final_padding(pad);
        let body = write_pieces(format.writer(Vec::new()).unwrap(), &data, &mut rng);
        assert_eq!(Rfc8188::keyid_of(&body), Some(&keyid[..]));
        assert_eq!(rfc8188_oracle_open(&ikm, &body).as_deref(), Some(&data[..]), "rs {rs} len {} pad {pad}", data.len());
        records += (body.len() - 21 - keyid.len()).div_ceil(rs as usize);
        ours_to_oracle += 1;
        // The oracle's body (random record fill), then ours.
        let body = rfc8188_oracle_seal(&mut rng, &ikm, rs, &keyid, &data, pad);
        let max_rs = if rng.below(2) == 0 { rs } else { libaead::stream::MAX_SEGMENT };
        let mut r = Rfc8188::new(&ikm).with_max_rs(max_rs).reader(&body[..]).unwrap();
        assert_eq!(read_pieces(&mut r, &mut rng).unwrap(), data);
        oracle_to_ours += 1;
        // A record size above the reader's bound is refused before anything is read.
        if rs > 18 {
            let err = Rfc8188::new(&ikm).with_max_rs(rs - 1).reader(&body[..]).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidData);
            assert_eq!(err.get_ref().and_then(|e| e.downcast_ref::<Error>()), Some(&Error::TooLong));
        }
    }
    // A padding that no record can hold.
    let err = Rfc8188::new(&[1; 16]).with_rs(100).with_final_padding(84).writer(Vec::new()).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    println!("rfc8188 oracle: {ours_to_oracle} ours->oracle, {oracle_to_ours} oracle->ours, {records} records");
    assert!(ours_to_oracle >= 200 && oracle_to_ours >= 200);
}

// ---------------------------------------------------------------------------------------------
// age

fn age_key(file_key: &[u8; 16], nonce: &[u8]) -> [u8; 32] {
    let mut k = [0u8; 32];
    Hkdf::<sha2::Sha256>::new(Some(nonce), file_key).expand(b"payload", &mut k).unwrap();
    k
}

fn age_nonce(chunk: u64, last: bool) -> Array12 {
    let mut n = [0u8; 12];
    n[3..11].copy_from_slice(&chunk.to_be_bytes());
    n[11] = u8::from(last);
    n.into()
}

const CHUNK: usize = 65536;

fn age_oracle_seal(rng: &mut Rng, file_key: &[u8; 16], data: &[u8]) -> Vec<u8> {
    let nonce: [u8; 16] = rng.array();
    let c = chacha20poly1305::ChaCha20Poly1305::new_from_slice(&age_key(file_key, &nonce)).unwrap();
    let mut out = nonce.to_vec();
    let n = data.len().div_ceil(CHUNK).max(1);
    for i in 0..n {
        let chunk = &data[i * CHUNK..((i + 1) * CHUNK).min(data.len())];
        out.extend(c.encrypt(&age_nonce(i as u64, i + 1 == n), chunk).unwrap());
    }
    out
}

fn age_oracle_open(file_key: &[u8; 16], payload: &[u8]) -> Option<Vec<u8>> {
    let c = chacha20poly1305::ChaCha20Poly1305::new_from_slice(&age_key(file_key, payload.get(..16)?)).unwrap();
    let chunks: Vec<&[u8]> = payload[16..].chunks(CHUNK + 16).collect();
    if chunks.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    for (i, ch) in chunks.iter().enumerate() {
        let last = i + 1 == chunks.len();
        if last && i > 0 && ch.len() == 16 {
            return None; // age: an empty last chunk only for an empty payload
        }
        out.extend(c.decrypt(&age_nonce(i as u64, last), *ch).ok()?);
    }
    Some(out)
}

#[test]
fn age_against_oracle() {
    let mut rng = Rng::from_env("age_against_oracle");
    let mut sizes = vec![0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 3 * 1024 * 1024 + 17, 5 * 1024 * 1024];
    while sizes.len() < 210 {
        let len = match rng.below(3) {
            0 => [1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK - 1, 2 * CHUNK + 1, 3 * CHUNK][rng.below(7)],
            1 => rng.below(4096),
            _ => rng.below(3 * CHUNK),
        };
        sizes.push(len);
    }
    let mut total = 0usize;
    for &len in &sizes {
        let file_key: [u8; 16] = rng.array();
        let data = rng.bytes(len);
        let payload = write_pieces(AgePayload::new(&file_key).writer(Vec::new()).unwrap(), &data, &mut rng);
        assert_eq!(payload.len(), 16 + len + 16 * len.div_ceil(CHUNK).max(1));
        assert_eq!(age_oracle_open(&file_key, &payload).as_deref(), Some(&data[..]), "len {len}");
        let payload = age_oracle_seal(&mut rng, &file_key, &data);
        let mut r = AgePayload::new(&file_key).reader(&payload[..]).unwrap();
        assert_eq!(read_pieces(&mut r, &mut rng).unwrap(), data, "len {len}");
        total += len;
    }
    println!("age oracle: {} sizes both ways, {total} bytes each way", sizes.len());
}

// ---------------------------------------------------------------------------------------------
// Tink

struct TinkCase {
    key: Vec<u8>,
    key_size: usize,
    hash: HkdfHash,
    segment_size: u32,
    offset: u32,
    ad: Vec<u8>,
}

impl TinkCase {
    fn random(rng: &mut Rng) -> TinkCase {
        let key_size = if rng.below(2) == 0 { 16 } else { 32 };
        let hash = [HkdfHash::Sha1, HkdfHash::Sha256, HkdfHash::Sha512][rng.below(3)];
        let offset = if rng.below(2) == 0 { 0 } else { rng.below(40) as u32 };
        let min = offset as usize + 1 + key_size + 7 + 16 + 1;
        let segment_size = match rng.below(3) {
            0 => min + rng.below(8),
            1 => 4096,
            _ => min + rng.below(2000),
        } as u32;
        let key_len = key_size.max(16) + rng.below(3) * 8;
        let key = rng.bytes(key_len);
        let ad_bound = if rng.below(4) == 0 { 1025 } else { 20 };
        let ad = rng.bytes_below(ad_bound);
        TinkCase {
            key_size,
            hash,
            segment_size,
            offset,
            key,
            ad,
        }
    }
    fn format(&self) -> TinkAesGcmHkdf<'_> {
        TinkAesGcmHkdf::new(&self.key, self.key_size, self.hash, self.segment_size)
            .with_associated_data(&self.ad)
            .with_first_segment_offset(self.offset)
    }
    fn header_len(&self) -> usize {
        1 + self.key_size + 7
    }
    /// Ciphertext bytes of segment i when it is not the last.
    fn full(&self, i: usize) -> usize {
        let s = self.segment_size as usize;
        if i == 0 {
            s - self.header_len() - self.offset as usize
        } else {
            s
        }
    }
    fn derive(&self, salt: &[u8]) -> Vec<u8> {
        let mut k = vec![0u8; self.key_size];
        match self.hash {
            HkdfHash::Sha1 => Hkdf::<sha1::Sha1>::new(Some(salt), &self.key).expand(&self.ad, &mut k).unwrap(),
            HkdfHash::Sha256 => Hkdf::<sha2::Sha256>::new(Some(salt), &self.key).expand(&self.ad, &mut k).unwrap(),
            HkdfHash::Sha512 => Hkdf::<sha2::Sha512>::new(Some(salt), &self.key).expand(&self.ad, &mut k).unwrap(),
        }
        k
    }
    fn nonce(prefix: &[u8], i: usize, last: bool) -> [u8; 12] {
        let mut n = [0u8; 12];
        n[..7].copy_from_slice(prefix);
        n[7..11].copy_from_slice(&(i as u32).to_be_bytes());
        n[11] = u8::from(last);
        n
    }
    fn oracle_seal(&self, rng: &mut Rng, data: &[u8]) -> Vec<u8> {
        let hl = self.header_len();
        let mut out = vec![hl as u8];
        out.extend(rng.bytes(self.key_size + 7));
        let key = self.derive(&out[1..1 + self.key_size]);
        let prefix = out[1 + self.key_size..hl].to_vec();
        let (mut rest, mut i) = (data, 0);
        loop {
            let room = self.full(i) - 16;
            let last = rest.len() <= room;
            let take = rest.len().min(room);
            out.extend(gcm_seal(&key, &Self::nonce(&prefix, i, last), &rest[..take]));
            rest = &rest[take..];
            i += 1;
            if last {
                return out;
            }
        }
    }
    fn oracle_open(&self, ct: &[u8]) -> Option<Vec<u8>> {
        let hl = self.header_len();
        if ct.len() < hl || ct[0] as usize != hl {
            return None;
        }
        let key = self.derive(&ct[1..1 + self.key_size]);
        let prefix = &ct[1 + self.key_size..hl];
        let (mut rest, mut i, mut out) = (&ct[hl..], 0, Vec::new());
        loop {
            let last = rest.len() <= self.full(i);
            let take = if last { rest.len() } else { self.full(i) };
            out.extend(gcm_open(&key, &Self::nonce(prefix, i, last), &rest[..take])?);
            rest = &rest[take..];
            i += 1;
            if last {
                return Some(out);
            }
        }
    }
}

#[test]
fn tink_against_oracle() {
    let mut rng = Rng::from_env("tink_against_oracle");
    let (mut cases, mut seeks) = (0, 0);
    for _ in 0..240 {
        let t = TinkCase::random(&mut rng);
        let len = stream_len(&mut rng, t.full(1) - 16);
        let data = rng.bytes(len);
        let format = t.format();
        // Ours, then the oracle.
        let ct = write_pieces(format.writer(Vec::new()).unwrap(), &data, &mut rng);
        assert_eq!(ct[0] as usize, t.header_len());
        assert_eq!(t.oracle_open(&ct).as_deref(), Some(&data[..]), "{:?} len {}", format, data.len());
        // The oracle, then ours: sequential and seekable.
        let ct = t.oracle_seal(&mut rng, &data);
        assert_eq!(read_pieces(&mut format.reader(&ct[..]).unwrap(), &mut rng).unwrap(), data);
        let mut s = format.seekable_reader(Cursor::new(&ct)).unwrap();
        assert_eq!(s.len(), data.len() as u64);
        for _ in 0..8 {
            let at = rng.below(data.len() + 2) as u64;
            s.seek(SeekFrom::Start(at)).unwrap();
            let mut buf = vec![0u8; rng.below(3 * t.segment_size as usize)];
            let mut got = 0;
            while got < buf.len() {
                match s.read(&mut buf[got..]).unwrap() {
                    0 => break,
                    n => got += n,
                }
            }
            let from = (at as usize).min(data.len());
            assert_eq!(&buf[..got], &data[from..(from + buf.len()).min(data.len())]);
            seeks += 1;
        }
        s.seek(SeekFrom::End(0)).unwrap();
        assert_eq!(s.read(&mut [0u8; 4]).unwrap(), 0);
        s.rewind().unwrap();
        assert_eq!(read_pieces(&mut s, &mut rng).unwrap(), data);
        cases += 1;
    }
    println!("tink oracle: {cases} streams both ways (and seekable), {seeks} random reads");
}

#[test]
fn tink_parameters_checked() {
    let key = [1u8; 32];
    for (key_len, key_size, seg) in [(32, 24, 4096), (15, 16, 4096), (16, 32, 4096), (32, 32, 1 + 32 + 7 + 16)] {
        let err = TinkAesGcmHkdf::new(&key[..key_len], key_size, HkdfHash::Sha256, seg).writer(Vec::new()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{key_len} {key_size} {seg}");
    }
    let err = AgePayload::new(&[0; 16]).with_properties("bad\0query").writer(Vec::new()).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
}

// ---------------------------------------------------------------------------------------------
// Refused streams

/// Reads a whole stream with one format's reader.
type OpenFn = dyn Fn(&[u8]) -> io::Result<Vec<u8>>;

/// A stream of each format with several segments, its segment boundaries (offsets after the
/// header), and a reader constructor.
struct Sample {
    name: &'static str,
    data: Vec<u8>,
    ct: Vec<u8>,
    header_len: usize,
    full: usize,
    first: usize,
    open: Box<OpenFn>,
}

fn samples(rng: &mut Rng) -> Vec<Sample> {
    let mut out = Vec::new();
    let tink_key = rng.bytes(32);
    let data = rng.bytes(5 * 200 + 77);
    let k = tink_key.clone();
    let ct = write_pieces(TinkAesGcmHkdf::new(&k, 16, HkdfHash::Sha256, 216).writer(Vec::new()).unwrap(), &data, rng);
    out.push(Sample {
        name: "tink",
        data,
        ct,
        header_len: 24,
        full: 216,
        first: 216 - 24,
        open: Box::new(move |ct| {
            let mut v = Vec::new();
            TinkAesGcmHkdf::new(&tink_key, 16, HkdfHash::Sha256, 216).reader(ct)?.read_to_end(&mut v)?;
            Ok(v)
        }),
    });
    let file_key: [u8; 16] = rng.array();
    let data = rng.bytes(3 * CHUNK + 5);
    let ct = write_pieces(AgePayload::new(&file_key).writer(Vec::new()).unwrap(), &data, rng);
    out.push(Sample {
        name: "age",
        data,
        ct,
        header_len: 16,
        full: CHUNK + 16,
        first: CHUNK + 16,
        open: Box::new(move |ct| {
            let mut v = Vec::new();
            AgePayload::new(&file_key).reader(ct)?.read_to_end(&mut v)?;
            Ok(v)
        }),
    });
    let ikm = rng.bytes(16);
    let data = rng.bytes(6 * 83 + 9);
    let ct = write_pieces(Rfc8188::new(&ikm).with_rs(100).with_keyid(b"k1").with_final_padding(5).writer(Vec::new()).unwrap(), &data, rng);
    out.push(Sample {
        name: "rfc8188",
        data,
        ct,
        header_len: 23,
        full: 100,
        first: 100,
        open: Box::new(move |ct| {
            let mut v = Vec::new();
            Rfc8188::new(&ikm).reader(ct)?.read_to_end(&mut v)?;
            Ok(v)
        }),
    });
    out
}

#[test]
fn tampered_streams_refused() {
    let mut rng = Rng::from_env("tampered_streams_refused");
    let mut refused = 0;
    for s in samples(&mut rng) {
        assert_eq!((s.open)(&s.ct).unwrap(), s.data, "{}", s.name);
        let bounds: Vec<usize> = std::iter::successors(Some(s.header_len + s.first), |b| Some(b + s.full))
            .take_while(|&b| b < s.ct.len())
            .collect();
        assert!(bounds.len() >= 3, "{}: {} segments", s.name, bounds.len() + 1);
        let refuse = |ct: &[u8], what: &str, auth_only: bool| {
            let err = (s.open)(ct).expect_err(&format!("{}: {what} opened", s.name));
            if auth_only {
                assert!(is_auth(&err), "{}: {what}: {err:?}", s.name);
            } else {
                assert_eq!(err.kind(), io::ErrorKind::InvalidData, "{}: {what}: {err:?}", s.name);
            }
        };
        // Truncated: at every segment boundary, right after the header, inside the header and
        // at random points.
        let mut cuts: Vec<usize> = bounds.clone();
        cuts.extend([0, 1, s.header_len - 1, s.header_len, s.ct.len() - 1, s.ct.len() - 16]);
        cuts.extend((0..40).map(|_| rng.below(s.ct.len())));
        for cut in cuts {
            refuse(&s.ct[..cut], &format!("cut at {cut}"), true);
            refused += 1;
        }
        // Reordered: two full segments swapped (segment 1 and 2 have the same size).
        let (a, b) = (bounds[0], bounds[1]);
        let mut ct = s.ct[..a].to_vec();
        ct.extend_from_slice(&s.ct[b..b + s.full]);
        ct.extend_from_slice(&s.ct[a..b]);
        ct.extend_from_slice(&s.ct[b + s.full..]);
        refuse(&ct, "segments 1 and 2 swapped", true);
        // A segment dropped from the middle, and one repeated.
        let mut ct = s.ct[..a].to_vec();
        ct.extend_from_slice(&s.ct[b..]);
        refuse(&ct, "segment 1 dropped", true);
        let mut ct = s.ct[..b].to_vec();
        ct.extend_from_slice(&s.ct[a..]);
        refuse(&ct, "segment 1 repeated", true);
        // Extended: one byte, a copy of the last segment, a whole stream after it.
        for tail in [vec![0u8], s.ct[*bounds.last().unwrap()..].to_vec(), s.ct[s.header_len..].to_vec()] {
            let mut ct = s.ct.clone();
            ct.extend_from_slice(&tail);
            refuse(&ct, &format!("{} bytes appended", tail.len()), true);
        }
        refused += 6;
        // One bit flipped: anywhere in the body (authentication), in the header (a format error
        // or authentication, both InvalidData).
        for _ in 0..60 {
            let mut ct = s.ct.clone();
            let bit = rng.flip_bit(&mut ct[s.header_len..]);
            refuse(&ct, &format!("body bit {bit} flipped"), true);
            // (RFC 8188's key id is not authenticated: it only names the key.)
            let mut ct = s.ct.clone();
            let bit = rng.flip_bit(&mut ct[..s.header_len.min(21)]);
            refuse(&ct, &format!("header bit {bit} flipped"), false);
            refused += 2;
        }
    }
    println!("tampered: {refused} streams refused");
}

#[test]
fn drop_without_finish_is_refused() {
    let mut rng = Rng::from_env("drop_without_finish_is_refused");
    let ikm = [9u8; 16];
    let file_key = [3u8; 16];
    let tink_key = [5u8; 16];
    for len in [0usize, 1, 100, 5000, 3 * CHUNK] {
        let data = rng.bytes(len);
        let mut out = Vec::new();
        let mut w = Rfc8188::new(&ikm).with_rs(64).writer(&mut out).unwrap();
        w.write_all(&data).unwrap();
        drop(w);
        let err = Rfc8188::new(&ikm).reader(&out[..]).unwrap().read_to_end(&mut Vec::new()).unwrap_err();
        assert!(is_auth(&err), "rfc8188 {len}: {err:?}");

        let mut out = Vec::new();
        let mut w = AgePayload::new(&file_key).writer(&mut out).unwrap();
        w.write_all(&data).unwrap();
        drop(w);
        let err = AgePayload::new(&file_key).reader(&out[..]).unwrap().read_to_end(&mut Vec::new()).unwrap_err();
        assert!(is_auth(&err), "age {len}: {err:?}");

        let mut out = Vec::new();
        let f = TinkAesGcmHkdf::new(&tink_key, 16, HkdfHash::Sha1, 512);
        let mut w = f.writer(&mut out).unwrap();
        w.write_all(&data).unwrap();
        drop(w);
        let err = f.reader(&out[..]).unwrap().read_to_end(&mut Vec::new()).unwrap_err();
        assert!(is_auth(&err), "tink {len}: {err:?}");
        let err = f.seekable_reader(Cursor::new(&out)).unwrap().read_to_end(&mut Vec::new()).unwrap_err();
        assert!(is_auth(&err), "tink seekable {len}: {err:?}");
    }
}

#[test]
fn reader_errors_are_sticky() {
    let mut rng = Rng::from_env("reader_errors_are_sticky");
    let file_key = [4u8; 16];
    let data = rng.bytes(2 * CHUNK + 10);
    let ct = write_pieces(AgePayload::new(&file_key).writer(Vec::new()).unwrap(), &data, &mut rng);
    // Cut at the second chunk's end: the first two chunks open (not the last), the third fails.
    let cut = 16 + 2 * (CHUNK + 16);
    let mut r = AgePayload::new(&file_key).reader(&ct[..cut]).unwrap();
    let mut buf = vec![0u8; CHUNK];
    r.read_exact(&mut buf).unwrap();
    assert_eq!(buf, data[..CHUNK]);
    let mut rest = Vec::new();
    let err = r.read_to_end(&mut rest).unwrap_err();
    assert!(is_auth(&err));
    assert!(rest.len() <= CHUNK);
    for _ in 0..3 {
        assert!(is_auth(&r.read(&mut buf).unwrap_err()));
    }
}

#[test]
fn tink_seekable_refuses_tampering() {
    let mut rng = Rng::from_env("tink_seekable_refuses_tampering");
    let key = rng.bytes(32);
    let f = TinkAesGcmHkdf::new(&key, 32, HkdfHash::Sha512, 300).with_associated_data(b"ad");
    let data = rng.bytes(2000);
    let ct = write_pieces(f.writer(Vec::new()).unwrap(), &data, &mut rng);
    let hl = 1 + 32 + 7;
    let bounds: Vec<usize> = (0..).map(|i| hl + 300 - hl + i * 300).take_while(|&b| b < ct.len()).collect();
    // Cut at a boundary: the lengths say the stream ends there, and its last segment is not final.
    for &b in &bounds {
        let mut s = f.seekable_reader(Cursor::new(&ct[..b])).unwrap();
        s.seek(SeekFrom::End(0)).unwrap();
        assert!(is_auth(&s.read(&mut [0u8; 8]).unwrap_err()), "cut at {b}");
    }
    // A flipped bit in segment k fails a read there, and the other segments still open.
    let mut bad = ct.clone();
    let at = bounds[1] + 10;
    bad[at] ^= 4;
    let mut s = f.seekable_reader(Cursor::new(&bad)).unwrap();
    let seg_plain = 300 - 16;
    s.seek(SeekFrom::Start((300 - hl - 16 + seg_plain + 3) as u64)).unwrap();
    assert!(is_auth(&s.read(&mut [0u8; 8]).unwrap_err()));
    s.seek(SeekFrom::Start(5)).unwrap();
    let mut b8 = [0u8; 8];
    s.read_exact(&mut b8).unwrap();
    assert_eq!(b8, data[5..13]);
    // Associated data is bound: another one fails.
    let g = TinkAesGcmHkdf::new(&key, 32, HkdfHash::Sha512, 300).with_associated_data(b"AD");
    assert!(is_auth(&g.seekable_reader(Cursor::new(&ct)).unwrap().read(&mut b8).unwrap_err()));
}

#[test]
fn streams_are_send_and_sync() {
    fn both<T: Send + Sync>() {}
    both::<StreamWriter<Vec<u8>>>();
    both::<StreamReader<&[u8]>>();
    both::<libaead::stream::SeekableReader<Cursor<Vec<u8>>>>();
    both::<TinkAesGcmHkdf<'static>>();
}
