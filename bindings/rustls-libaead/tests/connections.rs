//! Whole connections in memory, for every suite: rustls with libaead against rustls with its
//! *ring* provider in both roles (and against itself), data both ways, TLS 1.3 key updates,
//! secret extraction, and a tampered record ending in bad_record_mac.
mod common;

use common::{bytes, client_config, handshake, pair, server_config, transfer, Side};
use rustls::{AlertDescription, ConnectionTrafficSecrets, ProtocolVersion};
use std::io::Write;

const SIZES: [usize; 7] = [1, 17, 1000, 16383, 16384, 16385, 100_000];

/// Whether the loaded OpenSSL providers offer ChaCha20-Poly1305 (not under a FIPS-only configuration).
fn chacha_available() -> bool {
    libaead::Cipher::new(
        libaead::Algorithm::ChaCha20Poly1305,
        libaead::Policy::Tls13,
        &[0u8; 32],
        16,
    )
    .is_ok()
}

#[test]
fn offers_every_aead_suite_in_ring_order() {
    let ours: Vec<_> = rustls_libaead::cipher_suites()
        .iter()
        .map(|s| s.suite())
        .collect();
    let ring: Vec<_> = rustls::crypto::ring::ALL_CIPHER_SUITES
        .iter()
        .map(|s| s.suite())
        .filter(|s| chacha_available() || !s.as_str().unwrap().contains("CHACHA20"))
        .collect();
    assert_eq!(ours, ring);
    assert_eq!(ours.len(), if chacha_available() { 9 } else { 6 });
    assert!(rustls_libaead::suite_by_name("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA").is_none());
}

fn exchange(c: &mut rustls::Connection, s: &mut rustls::Connection, seed: u64) {
    for (i, len) in SIZES.into_iter().enumerate() {
        let up = bytes(len, seed + i as u64);
        c.writer().write_all(&up).unwrap();
        assert_eq!(transfer(c, s).unwrap(), up, "client -> server, {len} bytes");
        let down = bytes(len, seed + 50 + i as u64);
        s.writer().write_all(&down).unwrap();
        assert_eq!(
            transfer(s, c).unwrap(),
            down,
            "server -> client, {len} bytes"
        );
    }
}

#[test]
fn every_suite_against_ring_and_itself() {
    for suite in rustls_libaead::cipher_suites() {
        for (client, server) in [
            (Side::Libaead, Side::Ring),
            (Side::Ring, Side::Libaead),
            (Side::Libaead, Side::Libaead),
        ] {
            let (mut c, mut s) = pair(client_config(client, suite), server_config(server, suite));
            handshake(&mut c, &mut s);
            assert_eq!(
                c.negotiated_cipher_suite().map(|x| x.suite()),
                Some(suite.suite())
            );
            exchange(&mut c, &mut s, 1);
            if c.protocol_version() == Some(ProtocolVersion::TLSv1_3) {
                // New keys both ways (a fresh libaead context, sequence back to 0), then more data.
                c.refresh_traffic_keys().unwrap();
                s.refresh_traffic_keys().unwrap();
                exchange(&mut c, &mut s, 2);
            }
            c.send_close_notify();
            assert_eq!(
                transfer(&mut c, &mut s).unwrap(),
                b"",
                "{suite:?} {client:?}/{server:?}"
            );
            assert!(s.process_new_packets().unwrap().peer_has_closed());
        }
    }
}

fn key_iv(s: &ConnectionTrafficSecrets) -> (Vec<u8>, Vec<u8>) {
    match s {
        ConnectionTrafficSecrets::Aes128Gcm { key, iv }
        | ConnectionTrafficSecrets::Aes256Gcm { key, iv }
        | ConnectionTrafficSecrets::Chacha20Poly1305 { key, iv } => {
            (key.as_ref().to_vec(), iv.as_ref().to_vec())
        }
        _ => panic!("unexpected secrets"),
    }
}

#[test]
fn extracted_secrets_match_ring() {
    for suite in rustls_libaead::cipher_suites() {
        let mut cc = client_config(Side::Libaead, suite);
        cc.enable_secret_extraction = true;
        let mut sc = server_config(Side::Ring, suite);
        sc.enable_secret_extraction = true;
        let (mut c, mut s) = pair(cc, sc);
        handshake(&mut c, &mut s);
        exchange(&mut c, &mut s, 3);
        let (ours, theirs) = (
            c.dangerous_extract_secrets().unwrap(),
            s.dangerous_extract_secrets().unwrap(),
        );
        assert_eq!(ours.tx.0, theirs.rx.0, "{suite:?} sequence");
        assert_eq!(
            key_iv(&ours.tx.1),
            key_iv(&theirs.rx.1),
            "{suite:?} client write"
        );
        assert_eq!(
            key_iv(&ours.rx.1),
            key_iv(&theirs.tx.1),
            "{suite:?} server write"
        );
        assert_eq!(
            std::mem::discriminant(&ours.tx.1),
            std::mem::discriminant(&theirs.rx.1)
        );
    }
}

#[test]
fn tampered_record_ends_with_bad_record_mac() {
    for suite in rustls_libaead::cipher_suites() {
        let (mut c, mut s) = pair(
            client_config(Side::Ring, suite),
            server_config(Side::Libaead, suite),
        );
        handshake(&mut c, &mut s);
        c.writer().write_all(&bytes(500, 4)).unwrap();
        let mut wire = Vec::new();
        while c.wants_write() {
            c.write_tls(&mut wire).unwrap();
        }
        let last = wire.len() - 1;
        wire[last - 20] ^= 0x80;
        s.read_tls(&mut &wire[..]).unwrap();
        assert_eq!(
            s.process_new_packets().unwrap_err(),
            rustls::Error::DecryptError,
            "{suite:?}"
        );
        // The libaead side answers with a bad_record_mac alert, which the peer reports.
        let err = transfer(&mut s, &mut c).unwrap_err();
        assert_eq!(
            err,
            rustls::Error::AlertReceived(AlertDescription::BadRecordMac),
            "{suite:?}"
        );
    }
}

#[test]
fn fips_follows_libaead_indicator() {
    // What libaead says of an AES-GCM TLS context: approved only under a FIPS provider.
    let ind = libaead::Cipher::with_options(
        libaead::Algorithm::Aes128Gcm,
        libaead::Policy::Tls13,
        &[0u8; 16],
        16,
        None,
        &[0u8; 12],
    )
    .unwrap()
    .indicator();
    let approved = ind.seal_approved() && ind.open_approved();
    assert_eq!(approved, ind.fips_provider());
    for suite in rustls_libaead::cipher_suites() {
        let (name, aead_fips) = match suite {
            rustls::SupportedCipherSuite::Tls13(s) => (s.common.suite, s.aead_alg.fips()),
            rustls::SupportedCipherSuite::Tls12(s) => (s.common.suite, s.aead_alg.fips()),
        };
        let chacha = name.as_str().unwrap().contains("CHACHA20");
        assert_eq!(aead_fips, approved && !chacha, "{name:?}");
    }
    assert_eq!(rustls_libaead::record_protection_fips(), approved);
    // *ring* does key exchange, signatures and HKDF here: the provider never claims FIPS.
    assert!(!rustls_libaead::provider().fips());
}
