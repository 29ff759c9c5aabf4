//! libaead::quic (ABI 1.2): the one-call path against RFC 9001 A.5 and against the two-call path
//! (seal + header-protection mask applied by hand) on random packets, and the refusals.
mod common;

use common::{hex, Rng};
use libaead::quic::{HeaderProtectionKey, PacketKey, TAG_LEN};
use libaead::{Algorithm, Error};

fn algs() -> Vec<Algorithm> {
    [Algorithm::Aes128Gcm, Algorithm::Aes256Gcm, Algorithm::ChaCha20Poly1305]
        .into_iter()
        .filter(|&a| HeaderProtectionKey::new(a, &vec![0; a.key_size()]).is_ok())
        .collect()
}

/// The two-call path: seal (tag appended), then the mask of the sample applied by hand.
fn two_call(pk: &PacketKey, hp: &HeaderProtectionKey, pn: u64, header: &[u8], payload: &[u8]) -> Vec<u8> {
    let mut pkt = header.to_vec();
    let pn_len = usize::from(header[0] & 3) + 1;
    let pn_offset = header.len() - pn_len;
    for i in 0..pn_len {
        pkt[pn_offset + i] = (pn >> (8 * (pn_len - 1 - i))) as u8;
    }
    let aad = pkt.clone();
    let mut body = payload.to_vec();
    body.resize(payload.len() + TAG_LEN, 0);
    assert_eq!(pk.seal_in_place(pn, &aad, &mut body, payload.len()).unwrap(), payload.len() + 16);
    pkt.extend_from_slice(&body);
    let mask = hp.mask(&pkt[pn_offset + 4..pn_offset + 20]).unwrap();
    pkt[0] ^= mask[0] & if pkt[0] & 0x80 != 0 { 0x0f } else { 0x1f };
    for i in 0..pn_len {
        pkt[pn_offset + i] ^= mask[1 + i];
    }
    pkt
}

#[test]
fn rfc9001_a5_one_call() {
    if !algs().contains(&Algorithm::ChaCha20Poly1305) {
        return eprintln!("no ChaCha20 here: skipped");
    }
    let key = hex("c6d98ff3441c3fe1b2182094f69caa2ed4b716b65488960a7a984979fb23e1c8");
    let iv: [u8; 12] = hex("e0459b3474bdd0e44a41c144").try_into().unwrap();
    let hpk = hex("25a282b9e82f06f21f488917a4fc8f1b73573685608597d0efcb076b0ab7a7a4");
    let (pk, hp) = (PacketKey::new(Algorithm::ChaCha20Poly1305, &key, &iv).unwrap(),
                    HeaderProtectionKey::new(Algorithm::ChaCha20Poly1305, &hpk).unwrap());
    let mut pkt = hex("4200000001");
    pkt.resize(pkt.len() + 16, 0);
    assert_eq!(pk.protect(&hp, 654360564, &mut pkt, 4, 1).unwrap(), 21);
    assert_eq!(pkt, hex("4cfe4189655e5cd55c41f69080575d7999c25a5bfb"));
    let rx = PacketKey::new(Algorithm::ChaCha20Poly1305, &key, &iv).unwrap();
    assert_eq!(rx.unprotect(&hp, Some(654360563), &mut pkt, 1).unwrap(), (654360564, 1));
    assert_eq!(&pkt[..5], &hex("4200bff401")[..]);
}

#[test]
fn one_call_equals_two_calls_on_random_packets() {
    let mut rng = Rng::from_env("quic");
    for alg in algs() {
        let (key, hpk) = (rng.bytes(alg.key_size()), rng.bytes(alg.key_size()));
        let iv: [u8; 12] = rng.bytes(12).try_into().unwrap();
        let one = PacketKey::new(alg, &key, &iv).unwrap();
        let two = PacketKey::new(alg, &key, &iv).unwrap();
        let rx = PacketKey::new(alg, &key, &iv).unwrap();
        let hp = HeaderProtectionKey::new(alg, &hpk).unwrap();
        // Below 100: the first packet is decoded with no largest packet number (expected 0), so
        // it must lie within half a 1-byte window of 0 (RFC 9000 A.3).
        let mut pn = rng.below(100) as u64;
        let mut largest = None;
        for _ in 0..200 {
            pn += 1 + rng.below(3) as u64;
            let pn_len = 1 + rng.below(4);
            let long = rng.below(2) == 1;
            let header_len = 1 + rng.below(30) + pn_len;
            let mut header = rng.bytes(header_len);
            header[0] = (if long { 0xc0 } else { 0x40 }) | (header[0] & 0x3c) | (pn_len as u8 - 1);
            let payload_len = 4 + rng.below(1400);
            let payload = rng.bytes(payload_len);
            let want = two_call(&two, &hp, pn, &header, &payload);
            let mut pkt = header.clone();
            pkt.extend_from_slice(&payload);
            pkt.resize(pkt.len() + 16, 0);
            assert_eq!(one.protect(&hp, pn, &mut pkt, header.len(), payload.len()).unwrap(), pkt.len());
            assert_eq!(pkt, want, "{alg:?} pn {pn}");
            let pn_offset = header.len() - pn_len;
            let (got_pn, n) = rx.unprotect(&hp, largest, &mut pkt, pn_offset).unwrap();
            assert_eq!((got_pn, &pkt[header.len()..header.len() + n]), (pn, &payload[..]));
            largest = Some(pn);
        }
        assert_eq!(one.usage(), (200, 0));
    }
}

#[test]
fn refusals_change_nothing() {
    for alg in algs() {
        let k = vec![7u8; alg.key_size()];
        let pk = PacketKey::new(alg, &k, &[1; 12]).unwrap();
        let hp = HeaderProtectionKey::new(alg, &k).unwrap();
        assert_eq!(hp.mask(&[0; 15]), Err(Error::Arg));
        let mut pkt = vec![0x43u8, 0, 0, 0, 0, 9, 9, 9, 9, 9];
        pkt.resize(pkt.len() + 16, 0);
        let orig = pkt.clone();
        assert_eq!(pk.protect(&hp, 5, &mut pkt, 5, 5).unwrap(), 26);
        for bad in [5, 4, 1 << 62] {
            let mut p = orig.clone();
            assert!(pk.protect(&hp, bad, &mut p, 5, 5).is_err(), "{bad}");
            assert_eq!(p, orig);
        }
        let mut small = orig[..25].to_vec();
        assert_eq!(pk.protect(&hp, 6, &mut small, 5, 5), Err(Error::BufferTooSmall));
        // A tampered packet: Auth, header back as it arrived, payload zeroed, one forgery.
        pkt[25] ^= 1; // in the tag, outside the sample (which would change the mask)
        let arrived = pkt.clone();
        assert_eq!(pk.unprotect(&hp, Some(4), &mut pkt, 1), Err(Error::Auth));
        assert_eq!(&pkt[..5], &arrived[..5]);
        assert_eq!(pk.usage(), (1, 1));
        assert_eq!(PacketKey::new(alg, &k, &[1; 12]).unwrap().confidentiality_limit(),
                   if alg == Algorithm::ChaCha20Poly1305 { u64::MAX } else { 1 << 23 });
    }
    assert_eq!(Error::KeyLimit.code(), -18);
}

/// The detached-tag seal (stack scratch up to 2048 bytes, heap above) equals the in-place seal,
/// and opens back, at the boundaries.
#[test]
fn seal_detached_equals_seal_in_place() {
    let mut rng = Rng::from_env("quic-detached");
    for alg in algs() {
        let key = rng.bytes(alg.key_size());
        let iv: [u8; 12] = rng.bytes(12).try_into().unwrap();
        let (a, b) = (PacketKey::new(alg, &key, &iv).unwrap(), PacketKey::new(alg, &key, &iv).unwrap());
        for (pn, len) in [0usize, 1, 2047, 2048, 2049, 5000].into_iter().enumerate() {
            let (pn, header, msg) = (pn as u64 * 7, rng.bytes(1 + len % 20), rng.bytes(len));
            let mut detached = msg.clone();
            let tag = a.seal_detached(pn, &header, &mut detached).unwrap();
            let mut in_place = msg.clone();
            in_place.resize(len + TAG_LEN, 0);
            b.seal_in_place(pn, &header, &mut in_place, len).unwrap();
            assert_eq!([&detached[..], &tag[..]].concat(), in_place, "{alg:?} {len}");
            assert_eq!(a.open_in_place(pn, &header, &mut in_place).unwrap(), len);
            assert_eq!(&in_place[..len], &msg[..]);
            // The same packet number again: refused, payload unchanged.
            let mut again = msg.clone();
            assert_eq!(a.seal_detached(pn, &header, &mut again), Err(Error::NonceOrder));
            assert_eq!(again, msg);
        }
    }
}
