//! Per-packet cost of QUIC packet protection, in one process, side by side:
//!
//! * "two-call": rustls-libaead's `quic::PacketKey` + `quic::HeaderProtectionKey` through rustls's
//!   traits, as quinn calls them (seal, then the header mask: two libaead calls per packet);
//! * "one-call": `libaead::quic::PacketKey::protect` / `unprotect` (`aead_quic_protect` /
//!   `aead_quic_unprotect`: one libaead call per packet);
//! * "ring": rustls's *ring* provider's `PacketKey` + `HeaderProtectionKey`, the same two calls.
//!
//!   cargo bench --bench quic            # writes target/rustls-libaead-quic-bench.json
//!   cargo bench --bench quic -- --quick # fewer rounds (a smoke run)
//!
//! A packet is a 9-byte short header (4-byte connection ID, 4-byte packet number) and a 64- or
//! 1200-byte payload. "protect" copies the plaintext payload in and protects it; "unprotect"
//! copies the protected packet in and removes the protection (the copies are the same for all
//! three). Contenders run in rotating order within every round; the figures are medians over
//! rounds, with the minimum over rounds beside them (the least disturbed sample, on a shared
//! machine the steadier estimate), and only the ratios (measured side by side) mean anything.
mod util;

use rustls::quic::{Keys, Version};
use rustls::{Side, Tls13CipherSuite};
use std::hint::black_box;
use std::time::Instant;
use util::median;

const SUITES: [(&str, libaead::Algorithm); 3] = [
    ("TLS13_AES_128_GCM_SHA256", libaead::Algorithm::Aes128Gcm),
    ("TLS13_AES_256_GCM_SHA384", libaead::Algorithm::Aes256Gcm),
    ("TLS13_CHACHA20_POLY1305_SHA256", libaead::Algorithm::ChaCha20Poly1305),
];
const SIZES: [usize; 2] = [64, 1200];
const HEADER: usize = 9;
const PN_OFFSET: usize = 5;
const NAMES: [&str; 3] = ["two-call", "one-call", "ring"];

fn tls13(provider_suites: &[rustls::SupportedCipherSuite], name: &str) -> &'static Tls13CipherSuite {
    provider_suites
        .iter()
        .find(|s| s.suite().as_str() == Some(name))
        .and_then(|s| s.tls13())
        .expect(name)
}

/// Two-call keys of a suite: rustls's Initial derivation with the suite's QUIC algorithm.
fn rustls_keys(suites: &[rustls::SupportedCipherSuite], name: &str) -> Keys {
    let aes128 = tls13(suites, "TLS13_AES_128_GCM_SHA256");
    let q = tls13(suites, name).quic.unwrap();
    Keys::initial(Version::V1, aes128, q, &[7u8; 8], Side::Client)
}

enum Contender {
    Rustls(Keys),
    OneCall(libaead::quic::PacketKey, libaead::quic::HeaderProtectionKey),
}

fn header(pn: u64) -> [u8; HEADER] {
    let mut h = [0x43, 1, 2, 3, 4, 0, 0, 0, 0];
    h[PN_OFFSET..].copy_from_slice(&(pn as u32).to_be_bytes());
    h
}

/// Applies (or, `remove`, removes) `k`'s header protection on `pkt` as a QUIC stack does: the mask
/// from the 16-byte sample 4 bytes past the packet-number offset.
#[inline(always)]
fn header_protection(k: &Keys, pkt: &mut [u8], remove: bool) {
    let (hdr, rest) = pkt.split_at_mut(PN_OFFSET + 4);
    let (first, pn_field) = hdr.split_at_mut(1);
    let (sample, first, pn_field) = (&rest[..16], &mut first[0], &mut pn_field[PN_OFFSET - 1..]);
    let hp = &k.local.header;
    if remove {
        hp.decrypt_in_place(sample, first, pn_field)
    } else {
        hp.encrypt_in_place(sample, first, pn_field)
    }
    .unwrap();
}

impl Contender {
    /// Protects `payload` as packet `pn` into `pkt` (HEADER + payload + 16 bytes).
    #[inline(always)]
    fn protect(&self, pn: u64, payload: &[u8], pkt: &mut [u8]) {
        let len = payload.len();
        match self {
            Contender::Rustls(k) => {
                pkt[..HEADER].copy_from_slice(&header(pn));
                pkt[HEADER..HEADER + len].copy_from_slice(payload);
                let (hdr, rest) = pkt.split_at_mut(HEADER);
                let (body, tag) = rest.split_at_mut(len);
                let t = k.local.packet.encrypt_in_place(pn, hdr, body).unwrap();
                tag.copy_from_slice(t.as_ref());
                header_protection(k, pkt, false);
            }
            Contender::OneCall(pk, hp) => {
                pkt[..HEADER].copy_from_slice(&header(0));
                pkt[HEADER..HEADER + len].copy_from_slice(payload);
                pk.protect(hp, pn, pkt, HEADER, len).unwrap();
            }
        }
    }

    /// Unprotects a copy of `protected` (packet `pn`) in `pkt`; returns the plaintext length.
    #[inline(always)]
    fn unprotect(&self, pn: u64, protected: &[u8], pkt: &mut [u8]) -> usize {
        pkt.copy_from_slice(protected);
        match self {
            Contender::Rustls(k) => {
                header_protection(k, pkt, true);
                let (hdr, body) = pkt.split_at_mut(HEADER);
                k.local.packet.decrypt_in_place(pn, hdr, body).unwrap().len()
            }
            Contender::OneCall(pk, hp) => pk.unprotect(hp, Some(pn - 1), pkt, PN_OFFSET).unwrap().1,
        }
    }
}

fn main() {
    let (quick, rounds) = util::rounds();
    let packets: u64 = if quick { 2000 } else { 20000 };
    let ours = rustls_libaead::cipher_suites();
    let ring = rustls::crypto::ring::ALL_CIPHER_SUITES.to_vec();
    println!("QUIC packet protection, ns per packet (median of {rounds} rotating rounds of {packets} packets)");
    println!("libaead: {}", libaead::version());
    println!(
        "{:<32} {:>5} {:>10} {:>9} {:>9} {:>9} {:>10} {:>10} {:>10}",
        "suite", "size", "op", NAMES[0], NAMES[1], NAMES[2], "two/ring", "one/ring", "one/two"
    );
    let mut json = Vec::new();
    let mut next_pn = 1u64;
    for (name, alg) in SUITES {
        if !ours.iter().any(|s| s.suite().as_str() == Some(name)) {
            println!("{name}: not available from the loaded OpenSSL providers, skipped");
            continue;
        }
        let kl = alg.key_size();
        let contenders = [
            Contender::Rustls(rustls_keys(&ours, name)),
            Contender::OneCall(
                libaead::quic::PacketKey::new(alg, &[9u8; 32][..kl], &[5u8; 12]).unwrap(),
                libaead::quic::HeaderProtectionKey::new(alg, &[3u8; 32][..kl]).unwrap(),
            ),
            Contender::Rustls(rustls_keys(&ring, name)),
        ];
        for size in SIZES {
            let payload = vec![0x5au8; size];
            let mut pkt = vec![0u8; HEADER + size + 16];
            // One protected packet per contender, to unprotect over and over (opens check no order).
            let protected: Vec<Vec<u8>> = contenders
                .iter()
                .map(|c| {
                    c.protect(next_pn, &payload, &mut pkt);
                    pkt.clone()
                })
                .collect();
            let fixed_pn = next_pn;
            next_pn += 1;
            let mut times = vec![[Vec::new(), Vec::new()]; 3];
            for r in 0..=rounds {
                for k in 0..3 {
                    let i = (r + k) % 3;
                    let c = &contenders[i];
                    let t = Instant::now();
                    for _ in 0..packets {
                        c.protect(next_pn, black_box(&payload), &mut pkt);
                        next_pn += 1;
                    }
                    let protect = t.elapsed().as_nanos() as f64 / packets as f64;
                    black_box(&pkt);
                    let t = Instant::now();
                    for _ in 0..packets {
                        black_box(c.unprotect(fixed_pn, black_box(&protected[i]), &mut pkt));
                    }
                    let unprotect = t.elapsed().as_nanos() as f64 / packets as f64;
                    if r > 0 {
                        // round 0 is the warm-up
                        times[i][0].push(protect);
                        times[i][1].push(unprotect);
                    }
                }
            }
            for (d, op) in ["protect", "unprotect"].into_iter().enumerate() {
                let lo: Vec<f64> = times.iter().map(|t| t[d].iter().copied().fold(f64::MAX, f64::min)).collect();
                let m: Vec<f64> = times.iter_mut().map(|t| median(&mut t[d])).collect();
                println!(
                    "{:<32} {:>5} {:>10} {:>9.0} {:>9.0} {:>9.0} {:>10.2} {:>10.2} {:>10.2}   min: {:.0} {:.0} {:.0} -> {:.2} {:.2} {:.2}",
                    name,
                    size,
                    op,
                    m[0],
                    m[1],
                    m[2],
                    m[0] / m[2],
                    m[1] / m[2],
                    m[1] / m[0],
                    lo[0],
                    lo[1],
                    lo[2],
                    lo[0] / lo[2],
                    lo[1] / lo[2],
                    lo[1] / lo[0]
                );
                json.push(format!(
                    "{{\"suite\":\"{name}\",\"size\":{size},\"op\":\"{op}\",\"rounds\":{rounds},\"packets\":{packets},\
                     \"median_ns_per_packet\":{{\"two_call\":{:.1},\"one_call\":{:.1},\"ring\":{:.1}}},\
                     \"min_ns_per_packet\":{{\"two_call\":{:.1},\"one_call\":{:.1},\"ring\":{:.1}}},\
                     \"two_over_ring\":{:.4},\"one_over_ring\":{:.4},\"one_over_two\":{:.4}}}",
                    m[0], m[1], m[2], lo[0], lo[1], lo[2], m[0] / m[2], m[1] / m[2], m[1] / m[0]
                ));
            }
        }
    }
    util::write_json("rustls-libaead-quic-bench.json", quick, &json);
}
