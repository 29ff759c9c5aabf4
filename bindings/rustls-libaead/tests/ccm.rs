//! The opt-in TLS_AES_128_CCM_SHA256: records against RustCrypto's `ccm` (an independent AES-CCM,
//! with the TLS 1.3 nonce, AAD and inner plaintext built here from RFC 8446), whole rustls
//! connections over it (both sides libaead: *ring* has no AES-CCM), that it is opt-in, and what
//! rustls cannot do with it (QUIC, secret extraction). Seed: LIBAEAD_TEST_SEED (printed).
mod common;

use aes::Aes128;
use ccm::aead::{Aead, KeyInit, Payload};
use ccm::consts::{U12, U16};
use ccm::Ccm;
use common::{
    aead_key, bytes, client_config_with, handshake, only, open, pair, plain, server_config_with,
    transfer,
};
use rustls::crypto::cipher::Iv;
use rustls::{AlertDescription, CipherSuite, ContentType, ProtocolVersion, SupportedCipherSuite};
use std::io::Write;

type RefCcm = Ccm<Aes128, U16, U12>;

fn ccm() -> SupportedCipherSuite {
    *rustls_libaead::TLS13_AES_128_CCM_SHA256
}

fn seed(test: &str) -> u64 {
    let seed = std::env::var("LIBAEAD_TEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
        });
    eprintln!("{test}: LIBAEAD_TEST_SEED={seed}");
    seed
}

/// RFC 8446 section 5.3, written out: the IV XOR the sequence number, left-padded to 12 bytes.
fn rfc8446_nonce(iv: &[u8; 12], seq: u64) -> [u8; 12] {
    let mut n = *iv;
    for (i, b) in seq.to_be_bytes().iter().enumerate() {
        n[4 + i] ^= b;
    }
    n
}

/// RFC 8446 section 5.2: opaque_type 23, legacy_record_version 0x0303, length.
fn rfc8446_aad(len: usize) -> [u8; 5] {
    [23, 3, 3, (len >> 8) as u8, len as u8]
}

#[test]
fn is_opt_in_and_described() {
    let s = ccm();
    assert_eq!(s.suite(), CipherSuite::TLS13_AES_128_CCM_SHA256);
    assert_eq!(u16::from(s.suite()), 0x1304);
    assert_eq!(s.version(), &rustls::version::TLS13);
    assert_eq!(
        rustls_libaead::suite_by_name("TLS13_AES_128_CCM_SHA256"),
        Some(s)
    );
    // Not a default suite; listed as opt-in (AES-CCM is in every OpenSSL 3 provider set).
    assert!(!rustls_libaead::cipher_suites().contains(&s));
    assert!(!rustls_libaead::provider().cipher_suites.contains(&s));
    assert_eq!(rustls_libaead::opt_in_cipher_suites(), [s]);
    let t = s.tls13().unwrap();
    assert_eq!(t.aead_alg.key_len(), 16);
    assert!(t.quic.is_none() && t.quic_suite().is_none());
    assert_eq!(t.common.confidentiality_limit, 1 << 22);
    // *ring*'s SHA-256 (as TLS13_AES_128_GCM_SHA256): so a session can resume across the two.
    let gcm = rustls_libaead::suite_by_name("TLS13_AES_128_GCM_SHA256").unwrap();
    assert!(t.can_resume_from(gcm.tls13().unwrap()).is_some());
    // fips(): libaead's indicator for an AES-128-CCM TLS 1.3 context, asked independently here.
    let ind = libaead::Cipher::with_options(
        libaead::Algorithm::Aes128Ccm,
        libaead::Policy::Tls13,
        &[0; 16],
        16,
        None,
        &[0; 12],
    )
    .unwrap()
    .indicator();
    let approved = ind.seal_approved() && ind.open_approved();
    assert_eq!(t.aead_alg.fips(), approved);
    // SP 800-38C: approved exactly when a FIPS provider serves it (as AES-GCM).
    assert_eq!(approved, ind.fips_provider());
    eprintln!("TLS13_AES_128_CCM_SHA256: aead fips() = {approved}");
    assert!(!t.fips(), "ring's hash and HKDF are not FIPS");
}

/// Random records (lengths 0..=2^14, content types, increasing sequence numbers with gaps): ours
/// and RustCrypto's are the same bytes, and each opens the other's.
#[test]
fn records_match_rustcrypto_ccm() {
    let seed = seed("records_match_rustcrypto_ccm");
    let t = ccm().tls13().unwrap();
    let mut records = 0;
    for k in 0..8u64 {
        let ks = seed.wrapping_add(1000 * k);
        let key = aead_key(16, ks);
        let reference = RefCcm::new_from_slice(key.as_ref()).unwrap();
        let iv: [u8; 12] = bytes(12, ks + 1).try_into().unwrap();
        let mut enc = t.aead_alg.encrypter(aead_key(16, ks), Iv::from(iv));
        let mut dec = t.aead_alg.decrypter(aead_key(16, ks), Iv::from(iv));
        let lens = bytes(64, ks + 2);
        let mut seq = bytes(1, ks + 3)[0] as u64 % 3;
        for (n, r) in lens.chunks(2).enumerate() {
            let len = match n {
                0 => 0,
                1 => 16384,
                2 => 1,
                _ => (usize::from(r[0]) << 8 | usize::from(r[1])) % 2049,
            };
            let data = bytes(len, ks + 10 + n as u64);
            let typ = [
                ContentType::ApplicationData,
                ContentType::Handshake,
                ContentType::Alert,
            ][n % 3];
            let ours = enc.encrypt(plain(typ, &data), seq).unwrap();
            assert_eq!(
                (ours.typ, ours.version),
                (ContentType::ApplicationData, ProtocolVersion::TLSv1_2)
            );
            let wire = ours.payload.as_ref();
            assert_eq!(wire.len(), len + 1 + 16);
            assert_eq!(wire.len(), enc.encrypted_payload_len(len));
            // TLSInnerPlaintext = content || type, no padding.
            let mut inner = data.clone();
            inner.push(u8::from(typ));
            let nonce = rfc8446_nonce(&iv, seq);
            let aad = rfc8446_aad(wire.len());
            let theirs = reference
                .encrypt(
                    (&nonce).into(),
                    Payload {
                        msg: &inner,
                        aad: &aad,
                    },
                )
                .unwrap();
            assert_eq!(wire, &theirs[..], "len {len} seq {seq} (seed {seed})");
            assert_eq!(
                reference
                    .decrypt(
                        (&nonce).into(),
                        Payload {
                            msg: wire,
                            aad: &aad
                        }
                    )
                    .unwrap(),
                inner
            );
            assert_eq!(
                open(dec.as_mut(), ContentType::ApplicationData, &theirs, seq).unwrap(),
                (typ, data)
            );
            records += 1;
            seq += 1 + u64::from(r[0] % 4) * 1000; // gaps are allowed, order is not
        }
    }
    eprintln!("records_match_rustcrypto_ccm: {records} records identical to RustCrypto ccm");
    assert_eq!(records, 8 * 32);
}

/// A record sealed by RustCrypto with one byte changed anywhere (ciphertext, inner type, tag),
/// or with a wrong AAD length or sequence number, is DecryptError; the right one still opens.
#[test]
fn altered_reference_records_are_refused() {
    let seed = seed("altered_reference_records_are_refused");
    let t = ccm().tls13().unwrap();
    let key = aead_key(16, seed);
    let reference = RefCcm::new_from_slice(key.as_ref()).unwrap();
    let iv: [u8; 12] = bytes(12, seed + 1).try_into().unwrap();
    let mut dec = t.aead_alg.decrypter(aead_key(16, seed), Iv::from(iv));
    let inner = [&bytes(100, seed + 2)[..], &[23]].concat();
    let seal = |seq: u64, aad_len: usize| {
        reference
            .encrypt(
                (&rfc8446_nonce(&iv, seq)).into(),
                Payload {
                    msg: &inner,
                    aad: &rfc8446_aad(aad_len),
                },
            )
            .unwrap()
    };
    let good = seal(7, inner.len() + 16);
    for pos in 0..good.len() {
        let mut bad = good.clone();
        bad[pos] ^= 1 << (pos % 8);
        assert_eq!(
            open(dec.as_mut(), ContentType::ApplicationData, &bad, 7).unwrap_err(),
            rustls::Error::DecryptError,
            "byte {pos}"
        );
    }
    let wrong_aad = seal(7, inner.len() + 15);
    assert_eq!(
        open(dec.as_mut(), ContentType::ApplicationData, &wrong_aad, 7).unwrap_err(),
        rustls::Error::DecryptError
    );
    for seq in [6, 8, 7 + (1 << 32)] {
        assert_eq!(
            open(dec.as_mut(), ContentType::ApplicationData, &good, seq).unwrap_err(),
            rustls::Error::DecryptError
        );
    }
    assert_eq!(
        open(dec.as_mut(), ContentType::ApplicationData, &good, 7).unwrap(),
        (ContentType::ApplicationData, inner[..100].to_vec())
    );
}

/// A libaead provider offering only TLS13_AES_128_CCM_SHA256.
fn ccm_only() -> std::sync::Arc<rustls::crypto::CryptoProvider> {
    let mut p = rustls_libaead::provider();
    p.cipher_suites.push(ccm());
    only(p, ccm())
}

/// A client and a server both on [`ccm_only`], handshake done.
fn ccm_connection() -> (rustls::Connection, rustls::Connection) {
    let (mut c, mut srv) = pair(
        client_config_with(ccm_only(), ccm()),
        server_config_with(ccm_only(), ccm()),
    );
    handshake(&mut c, &mut srv);
    (c, srv)
}

#[test]
fn connection_over_ccm() {
    let s = ccm();
    let (mut c, mut srv) = ccm_connection();
    assert_eq!(c.negotiated_cipher_suite(), Some(s));
    assert_eq!(srv.negotiated_cipher_suite(), Some(s));
    for round in 0..2u64 {
        for len in [1usize, 17, 1000, 16384, 16385, 100_000] {
            let up = bytes(len, 40 + round * 10 + len as u64);
            c.writer().write_all(&up).unwrap();
            assert_eq!(transfer(&mut c, &mut srv).unwrap(), up, "up {len}");
            let down = bytes(len, 41 + round * 10 + len as u64);
            srv.writer().write_all(&down).unwrap();
            assert_eq!(transfer(&mut srv, &mut c).unwrap(), down, "down {len}");
        }
        // TLS 1.3 key update both ways: new libaead contexts, sequence numbers from 0 again.
        c.refresh_traffic_keys().unwrap();
        srv.refresh_traffic_keys().unwrap();
    }
    c.send_close_notify();
    assert_eq!(transfer(&mut c, &mut srv).unwrap(), b"");
}

#[test]
fn default_peer_does_not_negotiate_ccm() {
    // Opt-in means opt-in: a CCM-only client and a server on the default provider share no suite.
    let s = ccm();
    let default = rustls_libaead::provider();
    let gcm = rustls_libaead::suite_by_name("TLS13_AES_128_GCM_SHA256").unwrap();
    let (mut c, mut srv) = pair(
        client_config_with(ccm_only(), s),
        server_config_with(default.into(), gcm),
    );
    let mut wire = Vec::new();
    c.write_tls(&mut wire).unwrap();
    srv.read_tls(&mut &wire[..]).unwrap();
    assert_eq!(
        srv.process_new_packets().unwrap_err(),
        rustls::Error::PeerIncompatible(rustls::PeerIncompatible::NoCipherSuitesInCommon)
    );
}

#[test]
fn tampered_record_ends_with_bad_record_mac() {
    let (mut c, mut srv) = ccm_connection();
    c.writer().write_all(b"flip me").unwrap();
    let mut wire = Vec::new();
    c.write_tls(&mut wire).unwrap();
    let last = wire.len() - 1;
    wire[last] ^= 0x80; // the tag's last byte
    srv.read_tls(&mut &wire[..]).unwrap();
    assert_eq!(
        srv.process_new_packets().unwrap_err(),
        rustls::Error::DecryptError
    );
    // The server's alert reaches the client as bad_record_mac.
    assert_eq!(
        transfer(&mut srv, &mut c).unwrap_err(),
        rustls::Error::AlertReceived(AlertDescription::BadRecordMac)
    );
}

#[test]
fn secret_extraction_is_unsupported() {
    // rustls 0.23.46's ConnectionTrafficSecrets has no AES-CCM variant: extract_keys refuses.
    let s = ccm();
    let mut cc = client_config_with(ccm_only(), s);
    cc.enable_secret_extraction = true;
    let mut sc = server_config_with(ccm_only(), s);
    sc.enable_secret_extraction = true;
    let (mut c, mut srv) = pair(cc, sc);
    handshake(&mut c, &mut srv);
    let rustls::Connection::Client(c) = c else {
        unreachable!()
    };
    assert!(matches!(
        c.dangerous_extract_secrets(),
        Err(rustls::Error::General(ref m)) if m.contains("not supported")
    ));
}

#[test]
fn quic_never_offers_ccm() {
    // `quic` is None: a QUIC client configured with CCM alone has no suite to offer.
    let s = ccm();
    let config = std::sync::Arc::new(client_config_with(ccm_only(), s));
    let r = rustls::quic::ClientConnection::new(
        config,
        rustls::quic::Version::V1,
        "localhost".try_into().unwrap(),
        vec![],
    );
    assert!(
        matches!(r, Err(rustls::Error::General(ref m)) if m.contains("must support QUIC")),
        "{:?}",
        r.err()
    );
}
