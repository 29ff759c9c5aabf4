//! QUIC packet protection through rustls's `quic` API: RFC 9001 Appendix A (and the QUIC v2
//! draft's vectors, as rustls's *ring* provider tests them) byte for byte against our keys, a
//! random differential against rustls+ring's keys both ways, header protection that changes
//! nothing on error, libaead's packet-number and limit rules, and the forgery count.
mod common;

use common::bytes;
use rustls::crypto::cipher::{AeadKey, Iv};
use rustls::crypto::tls13::OkmBlock;
use rustls::quic::{Algorithm, HeaderProtectionKey, Keys, PacketKey, Version};
use rustls::{Side, Tls13CipherSuite};


fn ours(name: &str) -> &'static Tls13CipherSuite {
    rustls_libaead::suite_by_name(name)
        .and_then(|s| s.tls13())
        .expect(name)
}

fn ring(name: &str) -> &'static Tls13CipherSuite {
    rustls::crypto::ring::ALL_CIPHER_SUITES
        .iter()
        .find(|s| s.suite().as_str() == Some(name))
        .and_then(|s| s.tls13())
        .expect(name)
}

fn quic(s: &'static Tls13CipherSuite) -> &'static dyn Algorithm {
    s.quic.expect("the suite has QUIC support")
}


fn hex(s: &str) -> Vec<u8> {
    assert!(s.len() % 2 == 0);
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// HKDF-Expand-Label(secret, label, "", len) with the suite's HKDF (RFC 8446 section 7.1).
fn expand_label(suite: &Tls13CipherSuite, secret: &[u8], label: &str, len: usize) -> Vec<u8> {
    let expander = suite.hkdf_provider.expander_for_okm(&OkmBlock::new(secret));
    let full = format!("tls13 {label}");
    let (len16, llen, clen) = ((len as u16).to_be_bytes(), [full.len() as u8], [0u8]);
    let mut out = vec![0u8; len];
    expander
        .expand_slice(&[&len16, &llen, full.as_bytes(), &clen], &mut out)
        .unwrap();
    out
}

/// A packet key and header-protection key of `alg` from raw 32-byte key material (rustls's
/// `AeadKey` can only be built from 32 bytes outside rustls; 16-byte keys come from
/// `Keys::initial`).
fn keys_from(
    alg: &dyn Algorithm,
    key: &[u8],
    iv: &[u8],
    hp: &[u8],
) -> (Box<dyn PacketKey>, Box<dyn HeaderProtectionKey>) {
    let iv: [u8; 12] = iv.try_into().unwrap();
    (
        alg.packet_key(AeadKey::from(<[u8; 32]>::try_from(key).unwrap()), Iv::from(iv)),
        alg.header_protection_key(AeadKey::from(<[u8; 32]>::try_from(hp).unwrap())),
    )
}

/// Protects `header || payload` the way a QUIC stack does with rustls's API: seal, append the
/// tag, then mask with the sample at pn_offset + 4.
fn protect(
    pk: &dyn PacketKey,
    hp: &dyn HeaderProtectionKey,
    pn: u64,
    header: &[u8],
    payload: &[u8],
) -> Result<Vec<u8>, rustls::Error> {
    let mut pkt = header.to_vec();
    let mut body = payload.to_vec();
    let tag = pk.encrypt_in_place(pn, header, &mut body)?;
    pkt.extend_from_slice(&body);
    pkt.extend_from_slice(tag.as_ref());
    let pn_len = usize::from(header[0] & 3) + 1;
    let pn_offset = header.len() - pn_len;
    let (head, rest) = pkt.split_at_mut(pn_offset + 4);
    let sample = &rest[..hp.sample_len()];
    let (first, after) = head.split_at_mut(1);
    hp.encrypt_in_place(sample, &mut first[0], &mut after[pn_offset - 1..])?;
    Ok(pkt)
}

/// The reverse: unmask (the packet-number length read from the unmasked first byte), open.
/// Returns (header, plaintext).
fn unprotect(
    pk: &dyn PacketKey,
    hp: &dyn HeaderProtectionKey,
    pn: u64,
    packet: &[u8],
    pn_offset: usize,
) -> Result<(Vec<u8>, Vec<u8>), rustls::Error> {
    let mut pkt = packet.to_vec();
    {
        let (head, rest) = pkt.split_at_mut(pn_offset + 4);
        let sample = rest[..hp.sample_len()].to_vec();
        let (first, after) = head.split_at_mut(1);
        hp.decrypt_in_place(&sample, &mut first[0], &mut after[pn_offset - 1..])?;
    }
    let pn_len = usize::from(pkt[0] & 3) + 1;
    let (header, payload) = pkt.split_at_mut(pn_offset + pn_len);
    let plain = pk.decrypt_in_place(pn, header, payload)?.to_vec();
    Ok((header.to_vec(), plain))
}

// RFC 9001 A.2: the client Initial's CRYPTO frame (ClientHello; padded to 1162 bytes) and the
// protected 1200-byte packet.
const CLIENT_HELLO_FRAME: &str = concat!(
    "060040f1010000ed0303ebf8fa56f12939b9584a3896472ec40bb863cfd3e86804fe3a47f06a2b69484c000004130113",
    "02010000c000000010000e00000b6578616d706c652e636f6dff01000100000a00080006001d00170018001000070005",
    "04616c706e000500050100000000003300260024001d00209370b2c9caa47fbabaf4559fedba753de171fa71f50f1ce1",
    "5d43e994ec74d748002b0003020304000d0010000e0403050306030203080408050806002d00020101001c0002400100",
    "3900320408ffffffffffffffff05048000ffff07048000ffff0801100104800075300901100f088394c8f03e51570806",
    "048000ffff",
);
const CLIENT_INITIAL_PROTECTED: &str = concat!(
    "c000000001088394c8f03e5157080000449e7b9aec34d1b1c98dd7689fb8ec11d242b123dc9bd8bab936b47d92ec356c",
    "0bab7df5976d27cd449f63300099f3991c260ec4c60d17b31f8429157bb35a1282a643a8d2262cad67500cadb8e7378c",
    "8eb7539ec4d4905fed1bee1fc8aafba17c750e2c7ace01e6005f80fcb7df621230c83711b39343fa028cea7f7fb5ff89",
    "eac2308249a02252155e2347b63d58c5457afd84d05dfffdb20392844ae812154682e9cf012f9021a6f0be17ddd0c208",
    "4dce25ff9b06cde535d0f920a2db1bf362c23e596d11a4f5a6cf3948838a3aec4e15daf8500a6ef69ec4e3feb6b1d98e",
    "610ac8b7ec3faf6ad760b7bad1db4ba3485e8a94dc250ae3fdb41ed15fb6a8e5eba0fc3dd60bc8e30c5c4287e53805db",
    "059ae0648db2f64264ed5e39be2e20d82df566da8dd5998ccabdae053060ae6c7b4378e846d29f37ed7b4ea9ec5d82e7",
    "961b7f25a9323851f681d582363aa5f89937f5a67258bf63ad6f1a0b1d96dbd4faddfcefc5266ba6611722395c906556",
    "be52afe3f565636ad1b17d508b73d8743eeb524be22b3dcbc2c7468d54119c7468449a13d8e3b95811a198f3491de3e7",
    "fe942b330407abf82a4ed7c1b311663ac69890f4157015853d91e923037c227a33cdd5ec281ca3f79c44546b9d90ca00",
    "f064c99e3dd97911d39fe9c5d0b23a229a234cb36186c4819e8b9c5927726632291d6a418211cc2962e20fe47feb3edf",
    "330f2c603a9d48c0fcb5699dbfe5896425c5bac4aee82e57a85aaf4e2513e4f05796b07ba2ee47d80506f8d2c25e50fd",
    "14de71e6c418559302f939b0e1abd576f279c4b2e0feb85c1f28ff18f58891ffef132eef2fa09346aee33c28eb130ff2",
    "8f5b766953334113211996d20011a198e3fc433f9f2541010ae17c1bf202580f6047472fb36857fe843b19f5984009dd",
    "c324044e847a4f4a0ab34f719595de37252d6235365e9b84392b061085349d73203a4a13e96f5432ec0fd4a1ee65accd",
    "d5e3904df54c1da510b0ff20dcc0c77fcb2c0e0eb605cb0504db87632cf3d8b4dae6e705769d1de354270123cb11450e",
    "fc60ac47683d7b8d0f811365565fd98c4c8eb936bcab8d069fc33bd801b03adea2e1fbc5aa463d08ca19896d2bf59a07",
    "1b851e6c239052172f296bfb5e72404790a2181014f3b94a4e97d117b438130368cc39dbb2d198065ae3986547926cd2",
    "162f40a29f0c3c8745c0f50fba3852e566d44575c29d39a03f0cda721984b6f440591f355e12d439ff150aab7613499d",
    "bd49adabc8676eef023b15b65bfc5ca06948109f23f350db82123535eb8a7433bdabcb909271a6ecbcb58b936a88cd4e",
    "8f2e6ff5800175f113253d8fa9ca8885c2f552e657dc603f252e1a8e308f76f0be79e2fb8f5d5fbbe2e30ecadd220723",
    "c8c0aea8078cdfcb3868263ff8f0940054da48781893a7e49ad5aff4af300cd804a6b6279ab3ff3afb64491c85194aab",
    "760d58a606654f9f4400e8b38591356fbf6425aca26dc85244259ff2b19c41b9f96f3ca9ec1dde434da7d2d392b905dd",
    "f3d1f9af93d1af5950bd493f5aa731b4056df31bd267b6b90a079831aaf579be0a39013137aac6d404f518cfd4684064",
    "7e78bfe706ca4cf5e9c5453e9f7cfd2b8b4c8d169a44e55c88d4a9a7f9474241e221af44860018ab0856972e194cd934",
);

// RFC 9001 A.3: the server Initial's CRYPTO frame (ServerHello) and the protected packet; the QUIC
// v2 draft's A.3 protects the same frame.
const SERVER_HELLO_FRAME: &str = concat!(
    "02000000000600405a020000560303eefce7f7b37ba1d1632e96677825ddf73988cfc79825df566dc5430b9a045a12",
    "00130100002e00330024001d00209d3c940d89690b84d08a60993c144eca684d1081287c834d5311bcf32bb9da1a00",
    "2b00020304",
);
const SERVER_INITIAL_PROTECTED: &str = concat!(
    "cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a5816b6394100f37a1c697975",
    "54780bb38cc5a99f5ede4cf73c3ec2493a1839b3dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded",
    "74b562bfb19fb84022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc42158407dd0",
    "74ee",
);
const SERVER_INITIAL_PROTECTED_V2: &str = concat!(
    "dc6b3343cf0008f067a5502a4262b5004075d92faaf16f05d8a4398c47089698baeea26b91eb761d9b8923",
    "7bbf87263017915358230035f7fd3945d88965cf17f9af6e16886c61bfc703106fbaf3cb4cfa52382dd16a",
    "393e42757507698075b2c984c707f0a0812d8cd5a6881eaf21ceda98f4bd23f6fe1a3e2c43edd9ce7ca84b",
    "ed8521e2e140",
);

/// RFC 9001 A.2 / A.3: the client and server Initials, through rustls's Initial key derivation
/// (DCID 0x8394c8f03e515708) and our keys, byte for byte; then the peer's keys open them.
#[test]
fn rfc9001_a2_a3_initials() {
    let s = ours("TLS13_AES_128_GCM_SHA256");
    let dcid = hex("8394c8f03e515708");
    let client = Keys::initial(Version::V1, s, quic(s), &dcid, Side::Client);
    let server = Keys::initial(Version::V1, s, quic(s), &dcid, Side::Server);
    let mut hello = hex(CLIENT_HELLO_FRAME);
    hello.resize(1162, 0);
    let header = hex("c300000001088394c8f03e5157080000449e00000002");
    let pkt = protect(&*client.local.packet, &*client.local.header, 2, &header, &hello).unwrap();
    assert_eq!(pkt, hex(CLIENT_INITIAL_PROTECTED));
    let (h, plain) = unprotect(&*server.remote.packet, &*server.remote.header, 2, &pkt, 18).unwrap();
    assert_eq!((h, plain), (header, hello));

    let header = hex("c1000000010008f067a5502a4262b50040750001");
    let payload = hex(SERVER_HELLO_FRAME);
    let pkt = protect(&*server.local.packet, &*server.local.header, 1, &header, &payload).unwrap();
    assert_eq!(pkt, hex(SERVER_INITIAL_PROTECTED));
    let (h, plain) = unprotect(&*client.remote.packet, &*client.remote.header, 1, &pkt, 18).unwrap();
    assert_eq!((h, plain), (header, payload));
}

/// RFC 9001 A.2's header protection alone: hp key, sample, mask 437b9aec36.
#[test]
fn rfc9001_a2_header_protection_mask() {
    let s = ours("TLS13_AES_128_GCM_SHA256");
    // hp = 9f50449e04a0e810283a1e9933adedd2, from rustls's derivation.
    let hp = Keys::initial(Version::V1, s, quic(s), &hex("8394c8f03e515708"), Side::Client).local.header;
    let sample = hex("d1b1c98dd7689fb8ec11d242b123dc9b");
    // A long header's first byte 0xc3 (pn length 4): mask[0] & 0x0f, then 4 pn bytes.
    let (mut first, mut pn) = (0xc3u8, [0u8; 4]);
    hp.encrypt_in_place(&sample, &mut first, &mut pn).unwrap();
    assert_eq!((first, pn), (0xc3 ^ (0x43 & 0x0f), [0x7b, 0x9a, 0xec, 0x36]));
}

/// The ChaCha20-Poly1305 short-header packet (RFC 9001 A.5; QUIC v2 draft's counterpart), as
/// rustls's *ring* provider tests it: keys derived from the 1-RTT secret with the version's labels.
fn short_packet(version: Version, prefix: &str, expected: &str) {
    let name = "TLS13_CHACHA20_POLY1305_SHA256";
    if !common::quic_suites().contains(&name) {
        eprintln!("{name} not available from the loaded OpenSSL providers: skipped");
        return;
    }
    let s = ours(name);
    let secret = hex("9ac312a7f877468ebe69422748ad00a15443f18203a07d6060f688f30f21632b");
    let key = expand_label(s, &secret, &format!("{prefix} key"), 32);
    let iv = expand_label(s, &secret, &format!("{prefix} iv"), 12);
    let hpk = expand_label(s, &secret, &format!("{prefix} hp"), 32);
    if matches!(version, Version::V1) {
        assert_eq!(key, hex("c6d98ff3441c3fe1b2182094f69caa2ed4b716b65488960a7a984979fb23e1c8"));
        assert_eq!(iv, hex("e0459b3474bdd0e44a41c144"));
        assert_eq!(hpk, hex("25a282b9e82f06f21f488917a4fc8f1b73573685608597d0efcb076b0ab7a7a4"));
    }
    let (pk, hp) = keys_from(quic(s), &key, &iv, &hpk);
    const PN: u64 = 654360564;
    let pkt = protect(&*pk, &*hp, PN, &hex("4200bff4"), &[0x01]).unwrap();
    assert_eq!(pkt, hex(expected));
    let (h, plain) = unprotect(&*pk, &*hp, PN, &pkt, 1).unwrap();
    assert_eq!((h, plain), (hex("4200bff4"), vec![0x01]));
}

#[test]
fn rfc9001_a5_chacha20_short_header() {
    short_packet(Version::V1, "quic", "4cfe4189655e5cd55c41f69080575d7999c25a5bfb");
}

#[test]
fn quic_v2_chacha20_short_header() {
    short_packet(Version::V2, "quicv2", "5558b1c60ae7b6b932bc27d786f4bc2bb20f2162ba");
}

/// The QUIC v2 server Initial (draft-ietf-quic-v2-10 A.3), as rustls's *ring* provider tests it.
#[test]
fn quic_v2_server_initial() {
    let s = ours("TLS13_AES_128_GCM_SHA256");
    let server = Keys::initial(Version::V2, s, quic(s), &hex("8394c8f03e515708"), Side::Server);
    let header = hex("d16b3343cf0008f067a5502a4262b5004075 0001".replace(' ', "").as_str());
    let payload = hex(SERVER_HELLO_FRAME);
    let pkt = protect(&*server.local.packet, &*server.local.header, 1, &header, &payload).unwrap();
    assert_eq!(pkt, hex(SERVER_INITIAL_PROTECTED_V2));
}

/// Our keys and rustls+ring's for suite `name` from the same key material: rustls's Initial
/// derivation from `dcid` (SHA-256 HKDF), with the suite's QUIC algorithm (so its key length).
fn key_pair(name: &str, dcid: &[u8]) -> (Keys, Keys) {
    let (o, r) = (ours("TLS13_AES_128_GCM_SHA256"), ring("TLS13_AES_128_GCM_SHA256"));
    (
        Keys::initial(Version::V1, o, quic(ours(name)), dcid, Side::Client),
        Keys::initial(Version::V1, r, quic(ring(name)), dcid, Side::Client),
    )
}

/// A random header whose packet-number field holds the low bytes of `pn`: long or short form,
/// packet-number length 1-4, random other bytes.
fn random_header(seed: u64, pn: u64) -> Vec<u8> {
    let r = bytes(64, seed);
    let long = r[0] & 1 == 1;
    let pn_len = usize::from(r[1] & 3) + 1;
    let len = if long { 7 + usize::from(r[2] % 20) } else { 1 + usize::from(r[2] % 21) } + pn_len;
    let mut h = r[8..8 + len].to_vec();
    h[0] = (if long { 0xc0 } else { 0x40 }) | (h[0] & 0x3c) | (pn_len as u8 - 1);
    let n = h.len();
    for i in 0..pn_len {
        h[n - 1 - i] = (pn >> (8 * i)) as u8;
    }
    h
}

/// Random packets (keys, packet numbers with gaps, headers, payloads 0-1400 bytes) protected by
/// our keys and by rustls+ring's: byte-identical packets; each side unprotects the other's.
#[test]
fn differential_against_ring_random_packets() {
    for name in common::quic_suites() {
        for k in 0..4u64 {
            let dcid = bytes(8 + (k as usize) * 3, 1000 + k);
            let (ours_k, ring_k) = key_pair(name, &dcid);
            let mut pn = bytes(1, k)[0] as u64;
            for i in 0..150u64 {
                let seed = k * 1_000_000 + i;
                pn += 1 + bytes(2, seed)[1] as u64 % 300;
                let header = random_header(seed, pn);
                let payload_len = if i % 10 == 0 { 4 } else { bytes(2, seed + 7)[0] as usize * 1400 / 255 };
                let payload = bytes(payload_len.max(4), seed + 3);
                let a = protect(&*ours_k.local.packet, &*ours_k.local.header, pn, &header, &payload).unwrap();
                let b = protect(&*ring_k.local.packet, &*ring_k.local.header, pn, &header, &payload).unwrap();
                assert_eq!(a, b, "{name} key {k} packet {i}");
                let pn_offset = header.len() - (usize::from(header[0] & 3) + 1);
                let want = (header.clone(), payload.clone());
                assert_eq!(unprotect(&*ours_k.local.packet, &*ours_k.local.header, pn, &b, pn_offset).unwrap(), want);
                assert_eq!(unprotect(&*ring_k.local.packet, &*ring_k.local.header, pn, &a, pn_offset).unwrap(), want);
            }
        }
    }
}

/// Header protection alone on random samples, first bytes and packet-number fields (1-4 bytes
/// used, the field possibly longer as quinn passes it): identical to ring's both ways.
#[test]
fn differential_against_ring_header_protection() {
    for name in common::quic_suites() {
        let (o, r) = key_pair(name, &bytes(16, 77));
        for i in 0..500u64 {
            let x = bytes(24, 5000 + i);
            let sample = &x[..16];
            let first = x[16];
            let field = &x[17..17 + 1 + (i as usize % 4)];
            for decrypt in [false, true] {
                let (mut f1, mut p1, mut f2, mut p2) = (first, field.to_vec(), first, field.to_vec());
                if decrypt {
                    o.local.header.decrypt_in_place(sample, &mut f1, &mut p1).unwrap();
                    r.local.header.decrypt_in_place(sample, &mut f2, &mut p2).unwrap();
                } else {
                    o.local.header.encrypt_in_place(sample, &mut f1, &mut p1).unwrap();
                    r.local.header.encrypt_in_place(sample, &mut f2, &mut p2).unwrap();
                }
                assert_eq!((f1, p1), (f2, p2), "{name} {i} decrypt={decrypt}");
            }
        }
    }
}

/// HeaderProtectionKey changes nothing on error: a sample of the wrong length, a packet-number
/// field over 4 bytes (ring refuses the same inputs).
#[test]
fn header_protection_changes_nothing_on_error() {
    for name in common::quic_suites() {
        let (o, r) = key_pair(name, &bytes(8, 3));
        assert_eq!(o.local.header.sample_len(), 16);
        let sample = bytes(17, 9);
        for (s, pn_len) in [(&sample[..15], 2), (&sample[..17], 2), (&sample[..0], 1), (&sample[..16], 5)] {
            for hp in [&o.local.header, &r.local.header] {
                let (mut first, mut pn) = (0xc3u8, vec![0xaa; pn_len]);
                assert!(hp.encrypt_in_place(s, &mut first, &mut pn).is_err());
                assert!(hp.decrypt_in_place(s, &mut first, &mut pn).is_err());
                assert_eq!((first, pn), (0xc3, vec![0xaa; pn_len]), "{name}");
            }
        }
    }
}

/// What libaead adds: a packet number not above the last sealed one under a key is refused with
/// nothing changed (ring would seal it: a nonce reuse); limits are RFC 9001's, as ring reports.
#[test]
fn packet_number_rules_and_limits() {
    for name in common::quic_suites() {
        let (o, r) = key_pair(name, &bytes(8, 11));
        let pk = &o.local.packet;
        let header = random_header(1, 10);
        let mut payload = bytes(40, 2);
        pk.encrypt_in_place(10, &header, &mut payload).unwrap();
        for pn in [10, 9, 0] {
            let mut p = bytes(40, 3);
            let Err(e) = pk.encrypt_in_place(pn, &header, &mut p) else {
                panic!("{name}: packet number {pn} sealed twice or out of order")
            };
            assert!(format!("{e}").contains("libaead did not seal the packet"), "{e}");
            assert_eq!(p, bytes(40, 3), "a refused seal changes nothing");
        }
        pk.encrypt_in_place(11, &header, &mut payload).unwrap();
        let mut p = bytes(40, 3);
        assert!(pk.encrypt_in_place(1 << 62, &header, &mut p).is_err(), "2^62");
        assert!(pk.encrypt_in_place((1 << 62) - 1, &header, &mut p).is_ok(), "2^62 - 1");
        assert_eq!(pk.tag_len(), r.local.packet.tag_len());
        assert_eq!(pk.confidentiality_limit(), r.local.packet.confidentiality_limit(), "{name}");
        assert_eq!(pk.integrity_limit(), r.local.packet.integrity_limit(), "{name}");
        let want = if name.contains("CHACHA") { (u64::MAX, 1 << 36) } else { (1 << 23, 1 << 52) };
        assert_eq!((pk.confidentiality_limit(), pk.integrity_limit()), want);
        // Multipath: path 0 is the ordinary nonce; other paths are refused, never sealed.
        let mut p0 = bytes(40, 4);
        let mut q0 = p0.clone();
        let t0 = pk.encrypt_in_place_for_path(0, 5, &header, &mut p0);
        assert!(t0.is_err(), "below the last packet number: refused on path 0 too");
        let t = r.local.packet.encrypt_in_place_for_path(0, 77, &header, &mut q0).unwrap();
        let got = o.local.packet.decrypt_in_place_for_path(0, 77, &header, &mut [&q0[..], t.as_ref()].concat()).map(|p| p.to_vec());
        assert_eq!(got.unwrap(), bytes(40, 4));
        assert!(pk.encrypt_in_place_for_path(2, u64::MAX >> 2, &header, &mut bytes(40, 4)).is_err());
    }
}

/// A tampered packet: `DecryptError`, the payload not released, and the crate's forgery count
/// (libaead's `aead_ctx_usage`) rises by one per packet.
#[test]
fn tampered_packets_count_as_forgeries() {
    for name in common::quic_suites() {
        let (o, _) = key_pair(name, &bytes(8, 21));
        let header = random_header(5, 1);
        let mut payload = bytes(100, 6);
        let tag = o.local.packet.encrypt_in_place(1, &header, &mut payload).unwrap();
        let sealed = [&payload[..], tag.as_ref()].concat();
        let before = rustls_libaead::quic_forgeries();
        for flip in [0usize, 50, 115] {
            let mut p = sealed.clone();
            p[flip] ^= 0x40;
            let e = o.local.packet.decrypt_in_place(1, &header, &mut p).unwrap_err();
            assert_eq!(e, rustls::Error::DecryptError);
            assert!(p[..100].iter().all(|&b| b == 0), "no unauthenticated plaintext");
        }
        assert!(o.local.packet.decrypt_in_place(1, &header, &mut [0u8; 15]).is_err());
        // Other tests run in parallel and may add their own: at least these three.
        assert!(rustls_libaead::quic_forgeries() >= before + 3);
        let mut p = sealed.clone();
        assert_eq!(o.local.packet.decrypt_in_place(1, &header, &mut p).unwrap(), &bytes(100, 6)[..]);
    }
}

/// `fips()` of the QUIC algorithms is libaead's indicator for a QUIC context (false under OpenSSL's
/// default provider; true for the AES suites under a FIPS provider), like the record side.
#[test]
fn fips_follows_the_indicator() {
    let ind = libaead::quic::PacketKey::new(libaead::Algorithm::Aes128Gcm, &[0u8; 16], &[0u8; 12])
        .unwrap()
        .indicator();
    let approved = ind.seal_approved() && ind.open_approved();
    assert_eq!(approved, ind.fips_provider());
    for name in common::quic_suites() {
        let q = quic(ours(name));
        assert_eq!(q.fips(), approved && !name.contains("CHACHA"), "{name}");
        assert_eq!(q.fips(), ours(name).aead_alg.fips(), "{name}: QUIC and record sides agree");
        assert_eq!(q.aead_key_len(), quic(ring(name)).aead_key_len());
    }
}
