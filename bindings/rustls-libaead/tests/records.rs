//! Record level: libaead's encrypters and decrypters against rustls's *ring* ones (same key,
//! IV and sequence numbers give the same bytes; each opens the other's records), nonce refusals
//! as errors, and tampered or short records refused, for every suite (the opt-in
//! TLS13_AES_128_CCM_SHA256 too; *ring* has no AES-CCM, tests/ccm.rs compares it with RustCrypto).
mod common;

use common::{app_data, bytes, keys, open, plain};
use rustls::crypto::cipher::{OutboundChunks, OutboundPlainMessage};
use rustls::crypto::ring::cipher_suite as ring;
use rustls::{ContentType, ProtocolVersion, SupportedCipherSuite};

fn ours(name: &str) -> SupportedCipherSuite {
    rustls_libaead::suite_by_name(name).unwrap()
}

/// Ours and *ring*'s, for every suite the loaded OpenSSL providers serve (no ChaCha20-Poly1305
/// under a FIPS provider). AES-128 keys: common::aead_key.
fn pairs() -> Vec<(SupportedCipherSuite, SupportedCipherSuite)> {
    let available = rustls_libaead::cipher_suites();
    let mut all = vec![
        (
            ours("TLS13_AES_128_GCM_SHA256"),
            ring::TLS13_AES_128_GCM_SHA256,
        ),
        (
            ours("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"),
            ring::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        ),
        (
            ours("TLS13_AES_256_GCM_SHA384"),
            ring::TLS13_AES_256_GCM_SHA384,
        ),
        (
            ours("TLS13_CHACHA20_POLY1305_SHA256"),
            ring::TLS13_CHACHA20_POLY1305_SHA256,
        ),
        (
            ours("TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"),
            ring::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
        ),
        (
            ours("TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"),
            ring::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
        ),
    ];
    all.retain(|(a, _)| available.contains(a));
    assert!(all.len() >= 4, "at least the AES-GCM suites");
    all
}

/// Ours alone: those of [`pairs`] and the opt-in suites (AES-128-CCM).
fn suites() -> Vec<SupportedCipherSuite> {
    let mut all: Vec<_> = pairs().into_iter().map(|(a, _)| a).collect();
    let opt_in = rustls_libaead::opt_in_cipher_suites();
    assert_eq!(opt_in, [*rustls_libaead::TLS13_AES_128_CCM_SHA256]);
    all.extend(opt_in);
    all
}

#[test]
fn same_records_as_ring_and_each_opens_the_other() {
    for (i, (a, b)) in pairs().into_iter().enumerate() {
        let seed = 100 * i as u64;
        let ((mut enc_a, mut dec_a), (mut enc_b, mut dec_b)) = (keys(a, seed), keys(b, seed));
        let mut seq = 0u64;
        for (n, len) in [0usize, 1, 15, 16, 17, 255, 1024, 4097, 16384]
            .into_iter()
            .enumerate()
        {
            let data = bytes(len, seed + n as u64 + 7);
            let typ = if n % 3 == 0 {
                ContentType::Handshake
            } else {
                ContentType::ApplicationData
            };
            let x = enc_a.encrypt(plain(typ, &data), seq).unwrap();
            let y = enc_b.encrypt(plain(typ, &data), seq).unwrap();
            assert_eq!(
                x.payload.as_ref(),
                y.payload.as_ref(),
                "{:?} len {len} seq {seq}",
                a.suite()
            );
            assert_eq!((x.typ, x.version), (y.typ, y.version));
            assert_eq!(x.payload.as_ref().len(), enc_a.encrypted_payload_len(len));
            // Opened by the other implementation, then by our own.
            assert_eq!(
                open(dec_b.as_mut(), x.typ, x.payload.as_ref(), seq).unwrap(),
                (typ, data.clone())
            );
            assert_eq!(
                open(dec_a.as_mut(), y.typ, y.payload.as_ref(), seq).unwrap(),
                (typ, data)
            );
            seq += 1 + (n as u64 * 977); // gaps are allowed, order is not
        }
    }
}

#[test]
fn refused_nonces_are_errors_and_consume_nothing() {
    for a in suites() {
        let (mut enc, _) = keys(a, 9);
        enc.encrypt(app_data(b"first"), 5).unwrap();
        for bad in [5, 4, 0, u64::MAX] {
            let err = enc.encrypt(app_data(b"again"), bad).unwrap_err();
            assert!(
                matches!(err, rustls::Error::General(ref m) if m.contains("libaead")),
                "{err:?}"
            );
        }
        // The refusals consumed no sequence number: 6 is still the next accepted one.
        enc.encrypt(app_data(b"next"), 6).unwrap();
        enc.encrypt(app_data(b"max-1"), u64::MAX - 1).unwrap();
    }
}

#[test]
fn tampered_or_short_records_are_decrypt_errors() {
    for a in suites() {
        let (mut enc, mut dec) = keys(a, 21);
        let data = bytes(300, 3);
        let rec = enc.encrypt(app_data(&data), 0).unwrap();
        let wire = rec.payload.as_ref().to_vec();
        for pos in [0, wire.len() / 2, wire.len() - 1] {
            let mut bad = wire.clone();
            bad[pos] ^= 0x01;
            assert_eq!(
                open(dec.as_mut(), rec.typ, &bad, 0).unwrap_err(),
                rustls::Error::DecryptError
            );
        }
        // Wrong sequence number (a replayed or reordered record).
        assert_eq!(
            open(dec.as_mut(), rec.typ, &wire, 1).unwrap_err(),
            rustls::Error::DecryptError
        );
        for len in [0, 1, 15, 23] {
            assert_eq!(
                open(dec.as_mut(), rec.typ, &wire[..len], 0).unwrap_err(),
                rustls::Error::DecryptError
            );
        }
        assert_eq!(open(dec.as_mut(), rec.typ, &wire, 0).unwrap().1, data);
    }
}

#[test]
fn oversized_fragments_are_refused_before_sealing() {
    // More than 2^14 bytes cannot be one TLS record (its length would not fit the AAD's and the
    // header's 16 bits for long enough inputs): refused, and no sequence number is consumed.
    for a in suites() {
        let (mut enc, mut dec) = keys(a, 33);
        let big = bytes(16385, 1);
        let err = enc.encrypt(app_data(&big), 0).unwrap_err();
        assert!(
            matches!(err, rustls::Error::General(ref m) if m.contains("16385-byte fragment")),
            "{err:?}"
        );
        // A fragment made of chunks (rustls's own shape) is measured the same way.
        let parts: [&[u8]; 2] = [&big[..10000], &big[10000..]];
        assert!(enc
            .encrypt(
                OutboundPlainMessage {
                    typ: ContentType::ApplicationData,
                    version: ProtocolVersion::TLSv1_2,
                    payload: OutboundChunks::new(&parts),
                },
                0
            )
            .is_err());
        let rec = enc.encrypt(app_data(&big[..16384]), 0).unwrap();
        assert_eq!(
            open(dec.as_mut(), rec.typ, rec.payload.as_ref(), 0).unwrap(),
            (ContentType::ApplicationData, big[..16384].to_vec())
        );
        assert_eq!(enc.encrypted_payload_len(usize::MAX), usize::MAX);
    }
}
