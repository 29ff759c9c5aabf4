//! The library 1.2 families against their RustCrypto crates, seal and open at 64 B / 1 KiB /
//! 16 KiB (13-byte AAD): AES-128-CCM (tag 16, nonce 13) vs `ccm`, AES-128-GCM-SIV vs
//! `aes-gcm-siv` (skipped on OpenSSL < 3.2), AES-128-OCB3 vs `ocb3`, XChaCha20-Poly1305 vs
//! `chacha20poly1305`; library 1.3's AES-SIV AEAD form (16-byte nonce, 32- and 64-byte keys) vs
//! `aes-siv`'s `Aes128SivAead` / `Aes256SivAead`; library 1.7's AEGIS-128L, -128X2, -128X4 and
//! -256 (16-byte tags) vs the `aegis` crate (the same libaegis C code, so the ratio is the
//! binding's cost), beside AES-128-GCM vs `aes-gcm` and ChaCha20-Poly1305 vs `chacha20poly1305`
//! for scale (the ns columns compare the algorithms). Both sides do the same work through the same trait call:
//! `AeadInOut::encrypt_in_place` / `decrypt_in_place` on a `Vec` refilled from the input (its
//! capacity kept, no allocation), which for libaead is one C call in the buffer. Interleaved
//! A/B rounds, order alternating; the median per-round ratio libaead / RustCrypto and its IQR
//! are printed (one run: ratios only, no timing claims). `cargo bench -p libaead-bench --bench
//! families` (LIBAEAD_SYS_USE_PKG_CONFIG=1 and PKG_CONFIG_PATH for a meson build); a trailing
//! argument runs only the families whose name contains it (`-- AES-SIV`).
use aes_gcm::aead::consts::{U13, U16};
use aes_gcm::aead::{AeadCore, AeadInOut, Key, KeyInit, Nonce};
use std::hint::black_box;
use std::time::Instant;

mod common;

const SIZES: [usize; 3] = [64, 1024, 16 * 1024];
const AAD: [u8; 13] = [0x33; 13];
const ROUNDS: usize = 101;

fn run<C: AeadInOut>(c: &C, seal: bool, nonce: &Nonce<C>, input: &[u8], buf: &mut Vec<u8>) {
    buf.clear();
    buf.extend_from_slice(input);
    if seal {
        c.encrypt_in_place(nonce, black_box(&AAD), buf).unwrap()
    } else {
        c.decrypt_in_place(nonce, black_box(&AAD), buf).unwrap()
    }
}

fn time<C: AeadInOut>(c: &C, seal: bool, nonce: &Nonce<C>, input: &[u8], buf: &mut Vec<u8>, block: usize) -> f64 {
    let t = Instant::now();
    for _ in 0..block {
        run(c, seal, nonce, black_box(input), buf);
    }
    t.elapsed().as_nanos() as f64 / block as f64
}

fn compare<Ours, Ref>(name: &str, quick: bool, rows: &mut Vec<serde_json::Value>)
where
    Ours: KeyInit + AeadInOut,
    Ref: KeyInit<KeySize = Ours::KeySize> + AeadInOut + AeadCore<NonceSize = Ours::NonceSize, TagSize = Ours::TagSize>,
{
    if !selected(name) {
        return;
    }
    let key = Key::<Ours>::from_fn(|i| i as u8 ^ 0x5a);
    let nonce = Nonce::<Ours>::from_fn(|i| i as u8 ^ 0x22);
    let (ours, theirs) = (Ours::new(&key), Ref::new(&key));
    for size in SIZES {
        let human = if size >= 1024 { format!("{} KiB", size / 1024) } else { format!("{size} B") };
        let block = (200_000 / (size + 200)).max(20);
        let pt = vec![0x44u8; size];
        let mut sealed = Vec::with_capacity(size + 16);
        run(&theirs, true, &nonce, &pt, &mut sealed);
        for seal in [true, false] {
            let input = if seal { &pt } else { &sealed };
            let (mut a, mut b) = (Vec::with_capacity(size + 16), Vec::with_capacity(size + 16));
            run(&theirs, seal, &nonce, input, &mut a);
            run(&ours, seal, &nonce, input, &mut b);
            assert_eq!(a, b, "{name} {size}: outputs differ");
            if quick {
                continue;
            }
            for _ in 0..3 {
                time(&theirs, seal, &nonce, input, &mut a, block);
                time(&ours, seal, &nonce, input, &mut b, block);
            }
            // RustCrypto first in the even rounds.
            let common::Paired { ratio, q1, q3, ref_ns, cand_ns: ours_ns } = common::interleaved(ROUNDS, |r| r % 2 == 1, |ours_side, _| {
                if ours_side {
                    time(&ours, seal, &nonce, input, &mut b, block)
                } else {
                    time(&theirs, seal, &nonce, input, &mut a, block)
                }
            });
            let op = if seal { "seal" } else { "open" };
            println!("| {name} | {op} | {human} | {ours_ns:.1} | {ref_ns:.1} | **{ratio:.3}x** [{q1:.3}-{q3:.3}] |");
            rows.push(serde_json::json!({
                "family": name, "op": op, "size": size, "libaead_ns": ours_ns, "reference_ns": ref_ns,
                "ratio": ratio, "ratio_q1": q1, "ratio_q3": q3,
            }));
        }
    }
}

/// The name filter: the first argument that is not a flag (cargo passes `--bench`).
fn selected(name: &str) -> bool {
    std::env::args().skip(1).find(|a| !a.starts_with("--")).is_none_or(|f| name.contains(&f))
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let quick = std::env::args().any(|a| a == "--test"); // `cargo test --benches`: outputs only
    let mut rows = Vec::new();
    println!("libaead: {}; AAD 13 bytes; {ROUNDS} interleaved rounds; ratio = libaead time / RustCrypto time\n", libaead::version());
    println!("| family (RustCrypto crate) | op | size | libaead ns | RustCrypto ns | ratio [IQR] |");
    println!("|---|---|---:|---:|---:|---|");
    compare::<libaead::Aes128Ccm<U16, U13>, ccm::Ccm<aes::Aes128, U16, U13>>("AES-128-CCM t16 n13 (ccm 0.6.1)", quick, &mut rows);
    if !libaead::Aes128GcmSiv::is_supported() {
        if selected("AES-128-GCM-SIV") {
            println!("| AES-128-GCM-SIV | - | - | - | - | unsupported by this libcrypto (OpenSSL < 3.2) |");
            rows.push(serde_json::json!({"family": "AES-128-GCM-SIV", "unsupported": true}));
        }
    } else {
        compare::<libaead::Aes128GcmSiv, aes_gcm_siv::Aes128GcmSiv>("AES-128-GCM-SIV (aes-gcm-siv 0.12.1)", quick, &mut rows);
    }
    compare::<libaead::Aes128Ocb3, ocb3::Ocb3<aes::Aes128>>("AES-128-OCB3 n12 (ocb3 0.2.0)", quick, &mut rows);
    compare::<libaead::XChaCha20Poly1305, chacha20poly1305::XChaCha20Poly1305>(
        "XChaCha20-Poly1305 (chacha20poly1305 0.11.0)",
        quick,
        &mut rows,
    );
    compare::<libaead::Aes128SivAead, aes_siv::Aes128SivAead>("AES-SIV-CMAC-256 AEAD n16 (aes-siv 0.8.0)", quick, &mut rows);
    compare::<libaead::Aes256SivAead, aes_siv::Aes256SivAead>("AES-SIV-CMAC-512 AEAD n16 (aes-siv 0.8.0)", quick, &mut rows);
    compare::<libaead::Aes128Gcm, aes_gcm::Aes128Gcm>("AES-128-GCM (aes-gcm 0.11.1)", quick, &mut rows);
    compare::<libaead::ChaCha20Poly1305, chacha20poly1305::ChaCha20Poly1305>(
        "ChaCha20-Poly1305 (chacha20poly1305 0.11.0)",
        quick,
        &mut rows,
    );
    use aegis::compat::rustcrypto_traits_06 as aegis06;
    compare::<libaead::Aegis128L, aegis06::Aegis128L<16>>("AEGIS-128L (aegis 0.9.20)", quick, &mut rows);
    compare::<libaead::Aegis128X2, aegis06::Aegis128X2<16>>("AEGIS-128X2 (aegis 0.9.20)", quick, &mut rows);
    compare::<libaead::Aegis128X4, aegis06::Aegis128X4<16>>("AEGIS-128X4 (aegis 0.9.20)", quick, &mut rows);
    compare::<libaead::Aegis256, aegis06::Aegis256<16>>("AEGIS-256 (aegis 0.9.20)", quick, &mut rows);
    // LIBAEAD_BENCH_JSON=FILE: the rows machine-readably (benches/results/families-*.json, for the documents).
    if let (false, Ok(path)) = (quick, std::env::var("LIBAEAD_BENCH_JSON")) {
        let doc = serde_json::json!({
            "benchmark": "bindings/rust/benches/families.rs", "aad": 13, "rounds": ROUNDS,
            "libaead": libaead::version(), "results": rows,
        });
        common::write_json(&path, &doc);
    }
}
