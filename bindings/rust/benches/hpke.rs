//! HPKE (library 1.6): libaead's `hpke` module against the `hpke` crate 0.13.0 (RustCrypto
//! arithmetic; its RNG `rand::rng()`, as its users pass it), in one run, side by side:
//!
//! * `setup+seal 64 B`: a single-shot seal of 64 bytes to a recipient's public key (the sender's
//!   setup, with its key generation and encapsulation, and one seal): `hpke::single_shot_seal`;
//! * `setup+open 64 B`: the recipient's single-shot open of such a message;
//! * `context seal 64 B`: one seal on an existing sender context, in place, no allocation on
//!   either side (`seal_in_place` / `seal_in_place_detached`), the buffer refilled each time.
//!
//! Suites: DHKEM(X25519) and DHKEM(P-256), HKDF-SHA256, AES-128-GCM, and X25519 with
//! ChaCha20-Poly1305; base mode, 13-byte info and AAD. Each side's output is first opened by the
//! other. Interleaved A/B rounds, order alternating; the median per-round ratio libaead / `hpke`
//! and its IQR are printed (one run: ratios only, no timing claims). `-- --json FILE` also writes
//! the rows as `bench/all.sh --only hpke` reads them (bench/results/hpke-rust.json); `-- --quick`
//! runs fewer, shorter rounds.
//!
//! ```sh
//! cargo bench --locked --bench hpke                          # bundled, system libcrypto
//! cargo bench --locked --features vendored --bench hpke      # bundled, OpenSSL 3.5.5
//! LIBAEAD_SYS_USE_PKG_CONFIG=1 PKG_CONFIG_PATH=<build>/meson-uninstalled cargo bench --locked --bench hpke
//! ```
use ::hpke::{aead::Aead as TheirAead, kdf::Kdf as TheirKdf, Deserializable, Kem as TheirKem, Serializable};
use libaead::hpke::{self as ours, Aead, Kdf, Kem, OpModeR, OpModeS, Suite};
use std::hint::black_box;
use std::time::Instant;

mod common;

const INFO: [u8; 13] = [0x11; 13];
const AAD: [u8; 13] = [0x33; 13];
const MSG: [u8; 64] = [0x44; 64];

/// The median per-round ratio a / b with its quartiles, and the medians of a and b in ns.
fn ab(rounds: usize, block: usize, mut a: impl FnMut(), mut b: impl FnMut()) -> (f64, f64, f64, f64, f64) {
    let time = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        for _ in 0..block {
            f();
        }
        t.elapsed().as_nanos() as f64 / block as f64
    };
    for _ in 0..3 {
        time(&mut a);
        time(&mut b);
    }
    // b is the reference, a the candidate, timed first in the even rounds.
    let p = common::interleaved(rounds, |r| r % 2 == 0, |a_side, _| if a_side { time(&mut a) } else { time(&mut b) });
    (p.ratio, p.q1, p.q3, p.cand_ns, p.ref_ns)
}

/// How long a run is: rounds and block sizes (`--quick`: fewer and shorter), and the JSON rows.
struct Run {
    setup: (usize, usize),
    seal: (usize, usize),
    rows: Vec<serde_json::Value>,
}

impl Run {
    fn row(&mut self, suite: &str, op: &str, r: (f64, f64, f64, f64, f64)) {
        let (ratio, q1, q3, ours_ns, theirs_ns) = r;
        let show = |ns: f64| if ns >= 10_000.0 { format!("{:.1} µs", ns / 1000.0) } else { format!("{ns:.0} ns") };
        println!("| {suite} | {op} | {} | {} | **{ratio:.3}x** [{q1:.3}-{q3:.3}] |", show(ours_ns), show(theirs_ns));
        self.rows.push(serde_json::json!({
            "suite": suite, "op": op, "peer": "hpke crate 0.13.0", "libaead_ns": ours_ns, "peer_ns": theirs_ns,
            "ratio": ratio, "ratio_q1": q1, "ratio_q3": q3,
        }));
    }
}

fn compare<A: TheirAead, F: TheirKdf, K: TheirKem>(name: &str, suite: Suite, run: &mut Run) {
    let mut rng = rand::rng();
    let (sk, pk) = suite.kem.gen_keypair().unwrap();
    let their_sk = K::PrivateKey::from_bytes(sk.as_bytes()).unwrap();
    let their_pk = K::PublicKey::from_bytes(pk.as_bytes()).unwrap();
    let their_mode_s = ::hpke::OpModeS::<K>::Base;
    let their_mode_r = ::hpke::OpModeR::<K>::Base;

    // Each side's single-shot output opens on the other.
    let (enc, ct) = ours::single_shot_seal(&suite, &OpModeS::Base, pk.as_bytes(), &INFO, &MSG, &AAD).unwrap();
    let their_enc = K::EncappedKey::from_bytes(enc.as_bytes()).unwrap();
    assert_eq!(::hpke::single_shot_open::<A, F, K>(&their_mode_r, &their_sk, &their_enc, &INFO, &ct, &AAD).unwrap(), MSG);
    let (enc2, ct2) = ::hpke::single_shot_seal::<A, F, K, _>(&their_mode_s, &their_pk, &INFO, &MSG, &AAD, &mut rng).unwrap();
    let enc2 = enc2.to_bytes();
    assert_eq!(ours::single_shot_open(&suite, &OpModeR::Base, sk.as_bytes(), &enc2, &INFO, &ct2, &AAD).unwrap(), MSG);

    // Long-lived contexts for the context seal.
    let (_, tx) = ours::setup_sender(&suite, &OpModeS::Base, pk.as_bytes(), &INFO).unwrap();
    let (_, mut their_tx) = ::hpke::setup_sender::<A, F, K, _>(&their_mode_s, &their_pk, &INFO, &mut rng).unwrap();
    let (setup_rounds, setup_block) = run.setup;
    run.row(
        name,
        "setup + 64 B seal",
        ab(
            setup_rounds,
            setup_block,
            || {
                black_box(ours::single_shot_seal(&suite, &OpModeS::Base, pk.as_bytes(), &INFO, black_box(&MSG), &AAD).unwrap());
            },
            || {
                black_box(::hpke::single_shot_seal::<A, F, K, _>(&their_mode_s, &their_pk, &INFO, black_box(&MSG), &AAD, &mut rng).unwrap());
            },
        ),
    );
    run.row(
        name,
        "setup + 64 B open",
        ab(
            setup_rounds,
            setup_block,
            || {
                black_box(ours::single_shot_open(&suite, &OpModeR::Base, sk.as_bytes(), enc.as_bytes(), &INFO, black_box(&ct), &AAD).unwrap());
            },
            || {
                black_box(::hpke::single_shot_open::<A, F, K>(&their_mode_r, &their_sk, &their_enc, &INFO, black_box(&ct), &AAD).unwrap());
            },
        ),
    );
    let (mut buf_a, mut buf_b) = ([0u8; 64 + 16], [0u8; 64]);
    run.row(
        name,
        "64 B seal on a context",
        ab(
            run.seal.0,
            run.seal.1,
            || {
                buf_a[..64].copy_from_slice(black_box(&MSG));
                black_box(tx.seal_in_place(&mut buf_a, 64, &AAD).unwrap());
            },
            || {
                buf_b.copy_from_slice(black_box(&MSG));
                black_box(their_tx.seal_in_place_detached(&mut buf_b, &AAD).unwrap());
            },
        ),
    );
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick" || a == "--test");
    let json = args.iter().position(|a| a == "--json").map(|i| args.get(i + 1).expect("--json FILE").clone());
    let mut run = if quick {
        Run { setup: (3, 5), seal: (3, 1000), rows: Vec::new() }
    } else {
        Run { setup: (31, 40), seal: (101, 20_000), rows: Vec::new() }
    };
    use ::hpke::{aead as a, kdf as k, kem as m};
    println!("libaead: {}; `hpke` 0.13.0 (RustCrypto); base mode, info and AAD 13 bytes", libaead::version());
    println!("ratio = libaead time / `hpke` time, median of the per-round ratios [IQR]\n");
    println!("| suite | operation | libaead | `hpke` crate | ratio [IQR] |");
    println!("|---|---|---:|---:|---|");
    let suite = |kem, aead| Suite::new(kem, Kdf::HkdfSha256, aead);
    compare::<a::AesGcm128, k::HkdfSha256, m::X25519HkdfSha256>("X25519, HKDF-SHA256, AES-128-GCM", suite(Kem::X25519HkdfSha256, Aead::AesGcm128), &mut run);
    compare::<a::ChaCha20Poly1305, k::HkdfSha256, m::X25519HkdfSha256>(
        "X25519, HKDF-SHA256, ChaCha20-Poly1305",
        suite(Kem::X25519HkdfSha256, Aead::ChaCha20Poly1305),
        &mut run,
    );
    compare::<a::AesGcm128, k::HkdfSha256, m::DhP256HkdfSha256>("P-256, HKDF-SHA256, AES-128-GCM", suite(Kem::DhP256HkdfSha256, Aead::AesGcm128), &mut run);
    if let Some(path) = json {
        let doc = serde_json::json!({
            "bench": "hpke", "lang": "Rust", "libcrypto": libaead::version(), "rounds": run.setup.0, "aad": AAD.len(),
            "rows": run.rows,
        });
        std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap() + "\n").expect("write JSON");
        println!("\nJSON: {path}");
    }
}
