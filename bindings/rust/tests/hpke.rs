//! HPKE (RFC 9180, library 1.6): every case of RFC 9180's published vectors, round trips of every
//! suite and mode through every form of the API, interop both ways with the `hpke` crate
//! (rozbb/rust-hpke) on random cases, two threads sealing on one sender, and refused inputs.
//! (The fork case is in tests/fork.rs, which forks from a single-threaded main.)
mod common;

use common::{hex, vectors_dir, Rng};
use libaead::hpke::{self, Aead, Kdf, Kem, OpModeR, OpModeS, Options, PskBundle, Suite};
use libaead::Error;
use std::collections::BTreeSet;

fn field(case: &serde_json::Value, name: &str) -> Vec<u8> {
    hex(case[name].as_str().unwrap_or_else(|| panic!("vector field {name}")))
}

/// Every case of RFC 9180's test vectors (hpke/rfc9180.json from the `hpke` crate's package, by
/// tests/vectors.py): 128 cases in 32 suites. Per case: DeriveKeyPair of the recipient (and, in the
/// auth modes, the sender) gives the vector's keys; the sender, its ephemeral key fixed to ikmE,
/// gives the vector's enc and every ciphertext in sequence; the receiver opens each in order, and
/// again by sequence number; both sides give every export; the single-shot open takes the first
/// message. A missing file fails.
#[test]
fn rfc9180_vectors() {
    let path = vectors_dir().join("hpke/rfc9180.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e} (tests/vectors.py fetches it)", path.display()));
    let cases: Vec<serde_json::Value> = serde_json::from_str(&text).expect("rfc9180.json is JSON");
    assert_eq!(cases.len(), 128, "RFC 9180's vectors have 128 cases");
    let (mut suites, mut modes) = (BTreeSet::new(), BTreeSet::new());
    let (mut encryptions, mut exports) = (0usize, 0usize);
    for (i, case) in cases.iter().enumerate() {
        let id = |k: &str| u16::try_from(case[k].as_u64().unwrap()).unwrap();
        let suite = Suite::new(
            Kem::from_id(id("kem_id")).unwrap_or_else(|| panic!("case {i}: KEM {:#x}", id("kem_id"))),
            Kdf::from_id(id("kdf_id")).unwrap(),
            Aead::from_id(id("aead_id")).unwrap(),
        );
        suites.insert((suite.kem.id(), suite.kdf.id(), suite.aead.id()));
        let mode = case["mode"].as_u64().unwrap();
        modes.insert(mode);
        let what = format!("case {i} ({suite:?}, mode {mode})");
        let info = field(case, "info");
        let (sk_r, pk_r) = suite.kem.derive_keypair(&field(case, "ikmR")).unwrap();
        assert_eq!(sk_r.as_bytes(), field(case, "skRm"), "{what}: skR");
        assert_eq!(pk_r.as_bytes(), field(case, "pkRm"), "{what}: pkR");
        assert_eq!(sk_r.public_key().unwrap(), pk_r, "{what}");
        let (psk, psk_id) = if mode == 1 || mode == 3 { (field(case, "psk"), field(case, "psk_id")) } else { (vec![], vec![]) };
        let bundle = PskBundle { psk: &psk, psk_id: &psk_id };
        let sender_keys = if mode >= 2 {
            let (sk_s, pk_s) = suite.kem.derive_keypair(&field(case, "ikmS")).unwrap();
            assert_eq!(sk_s.as_bytes(), field(case, "skSm"), "{what}: skS");
            assert_eq!(pk_s.as_bytes(), field(case, "pkSm"), "{what}: pkS");
            Some((sk_s, pk_s))
        } else {
            None
        };
        let (mode_s, mode_r) = match (&sender_keys, mode) {
            (None, 0) => (OpModeS::Base, OpModeR::Base),
            (None, 1) => (OpModeS::Psk(bundle), OpModeR::Psk(bundle)),
            (Some((sk, pk)), 2) => (OpModeS::Auth(sk.as_bytes()), OpModeR::Auth(pk.as_bytes())),
            (Some((sk, pk)), 3) => (OpModeS::AuthPsk(sk.as_bytes(), bundle), OpModeR::AuthPsk(pk.as_bytes(), bundle)),
            _ => panic!("{what}: mode"),
        };
        let ikm_e = field(case, "ikmE");
        let (enc, tx) = hpke::setup_sender_with(&suite, &mode_s, pk_r.as_bytes(), &info, &Options::new().ikm_e_for_tests_only(&ikm_e)).unwrap();
        assert_eq!(enc.as_bytes(), field(case, "enc"), "{what}: enc");
        let rx = hpke::setup_receiver(&suite, &mode_r, sk_r.as_bytes(), enc.as_bytes(), &info).unwrap();
        let rx_at = hpke::setup_receiver_with(&suite, &mode_r, sk_r.as_bytes(), enc.as_bytes(), &info, &Options::new().window(4096)).unwrap();
        let encs = case["encryptions"].as_array().map_or(&[][..], |v| &v[..]);
        for (seq, e) in encs.iter().enumerate() {
            let (aad, pt, ct) = (field(e, "aad"), field(e, "pt"), field(e, "ct"));
            let mut out = vec![0u8; pt.len() + hpke::TAG_LEN];
            let s = tx.seal_into(&pt, &aad, &mut out).unwrap();
            assert_eq!((s.len, s.seq), (ct.len(), seq as u64), "{what}: encryption {seq}");
            assert_eq!(out, ct, "{what}: encryption {seq}");
            assert_eq!(rx.open(&ct, &aad).unwrap(), pt, "{what}: open {seq}");
            assert_eq!(rx_at.open_at(seq as u64, &ct, &aad).unwrap(), pt, "{what}: open_at {seq}");
            if seq == 0 {
                let one = hpke::single_shot_open(&suite, &mode_r, sk_r.as_bytes(), enc.as_bytes(), &info, &ct, &aad).unwrap();
                assert_eq!(one, pt, "{what}: single-shot open");
            }
            encryptions += 1;
        }
        if suite.aead == Aead::ExportOnly {
            assert_eq!(tx.seal(b"x", b""), Err(Error::Arg), "{what}: export-only seals nothing");
        }
        for x in case["exports"].as_array().expect("exports") {
            let ctx = field(x, "exporter_context");
            let want = field(x, "exported_value");
            assert_eq!(x["L"].as_u64().unwrap() as usize, want.len());
            for (side, got) in [("sender", export(|o| tx.export(&ctx, o), want.len())), ("receiver", export(|o| rx.export(&ctx, o), want.len()))] {
                assert_eq!(got, want, "{what}: {side} export");
            }
            exports += 1;
        }
    }
    assert_eq!(suites.len(), 32, "RFC 9180's vectors cover 32 suites");
    assert_eq!(modes.len(), 4);
    println!("hpke/rfc9180.json: {} cases, {} suites, {encryptions} encryptions, {exports} exports: all passed", cases.len(), suites.len());
}

fn export(f: impl Fn(&mut [u8]) -> Result<(), Error>, len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    f(&mut out).unwrap();
    out
}

const KEMS: [Kem; 5] = [Kem::DhP256HkdfSha256, Kem::DhP384HkdfSha384, Kem::DhP521HkdfSha512, Kem::X25519HkdfSha256, Kem::X448HkdfSha512];
/// RFC 9180's KDFs (draft-ietf-hpke-pq's one-stage ones: tests/hpke_pq.rs).
const HKDFS: [Kdf; 3] = [Kdf::HkdfSha256, Kdf::HkdfSha384, Kdf::HkdfSha512];

/// Both modes of a case: the sender's and the receiver's, with keys and PSK from `rng`.
struct Modes {
    psk: Vec<u8>,
    psk_id: Vec<u8>,
    sender: Option<(hpke::PrivateKey, hpke::PublicKey)>,
    mode: u8,
}

/// A side's mode (`OpModeS` or `OpModeR`) of `Modes` `$m`: the mode number picks the variant,
/// `$key` the sender's key (out of the key pair matched by `$pair`) for the auth modes.
macro_rules! op_mode {
    ($m:expr, $mode:ident, $pair:pat => $key:expr) => {{
        let b = PskBundle { psk: &$m.psk, psk_id: &$m.psk_id };
        match ($m.mode, &$m.sender) {
            (0, _) => $mode::Base,
            (1, _) => $mode::Psk(b),
            (2, Some($pair)) => $mode::Auth($key),
            (_, Some($pair)) => $mode::AuthPsk($key, b),
            _ => unreachable!(),
        }
    }};
}

impl Modes {
    fn new(kem: Kem, mode: u8, rng: &mut Rng) -> Modes {
        let psk = if mode & 1 == 1 { rng.bytes(32) } else { vec![] };
        let id_len = 1 + rng.below(20);
        let psk_id = if mode & 1 == 1 { rng.bytes(id_len) } else { vec![] };
        let sender = (mode >= 2).then(|| kem.gen_keypair().unwrap());
        Modes { psk, psk_id, sender, mode }
    }
    fn s(&self) -> OpModeS<'_> {
        op_mode!(self, OpModeS, (sk, _) => sk.as_bytes())
    }
    fn r(&self) -> OpModeR<'_> {
        op_mode!(self, OpModeR, (_, pk) => pk.as_bytes())
    }
}

/// Every suite libaead has (5 KEMs x 3 KDFs x 4 AEADs) in every mode: setup both sides, seal
/// messages of edge lengths through `seal`, `seal_into` and `seal_in_place` and open them through
/// the matching forms, in order and by number; exports agree; a flipped bit, a wrong AAD, a
/// message out of order and a replay are refused; single-shot both ways.
#[test]
fn round_trips_every_suite_and_mode() {
    let mut rng = Rng::from_env("round_trips_every_suite_and_mode");
    let mut n = 0;
    for &kem in &KEMS {
        let (sk_r, pk_r) = kem.gen_keypair().unwrap();
        assert_eq!((pk_r.as_bytes().len(), sk_r.as_bytes().len()), (kem.enc_len(), kem.private_key_len()));
        for kdf in HKDFS {
            for &aead in Aead::ALL {
                let suite = Suite::new(kem, kdf, aead);
                for mode in 0..4u8 {
                    let m = Modes::new(kem, mode, &mut rng);
                    let info = rng.bytes_below(64);
                    let (enc, tx) = hpke::setup_sender(&suite, &m.s(), pk_r.as_bytes(), &info).unwrap();
                    assert_eq!(enc.as_bytes().len(), kem.enc_len());
                    let rx = hpke::setup_receiver(&suite, &m.r(), sk_r.as_bytes(), enc.as_bytes(), &info).unwrap();
                    let (mut a, mut b) = ([0u8; 48], [0u8; 48]);
                    tx.export(b"ctx", &mut a).unwrap();
                    rx.export(b"ctx", &mut b).unwrap();
                    assert_eq!(a, b, "{suite:?} mode {mode}");
                    if aead == Aead::ExportOnly {
                        assert_eq!(tx.seal(b"m", b""), Err(Error::Arg));
                        assert_eq!(rx.open(&[0u8; 17], b""), Err(Error::Arg));
                        assert!(tx.usage().is_none() && rx.provider().is_none());
                        n += 1;
                        continue;
                    }
                    for (seq, len) in [0usize, 1, 15, 16, 17, 64, 1000].into_iter().enumerate() {
                        let pt = rng.bytes(len);
                        let aad = rng.bytes_below(40);
                        let ct = match seq % 3 {
                            0 => tx.seal(&pt, &aad).unwrap(),
                            1 => {
                                let mut out = vec![0u8; len + hpke::TAG_LEN + 3];
                                let s = tx.seal_into(&pt, &aad, &mut out).unwrap();
                                assert_eq!(s, hpke::Sealed { len: len + 16, seq: seq as u64 });
                                out.truncate(s.len);
                                out
                            }
                            _ => {
                                let mut buf = pt.clone();
                                buf.resize(len + 16, 0);
                                assert_eq!(tx.seal_in_place(&mut buf, len, &aad).unwrap().seq, seq as u64);
                                buf
                            }
                        };
                        let mut bad = ct.clone();
                        rng.flip_bit(&mut bad);
                        assert_eq!(rx.open(&bad, &aad), Err(Error::Auth), "{suite:?} mode {mode}: tampered");
                        let mut wrong = aad.clone();
                        wrong.push(1);
                        assert_eq!(rx.open(&ct, &wrong), Err(Error::Auth));
                        let mut buf = ct.clone();
                        let got = match seq % 3 {
                            0 => rx.open(&ct, &aad).unwrap(),
                            1 => {
                                let mut out = vec![0u8; len];
                                assert_eq!(rx.open_into(&ct, &aad, &mut out).unwrap(), len);
                                out
                            }
                            _ => {
                                let k = rx.open_in_place(&mut buf, &aad).unwrap();
                                buf[..k].to_vec()
                            }
                        };
                        assert_eq!(got, pt, "{suite:?} mode {mode} message {seq}");
                        // In order only: the same message again is not the next one.
                        assert_eq!(rx.open(&ct, &aad), Err(Error::Auth), "{suite:?}: replay in order");
                    }
                    let one = hpke::single_shot_seal(&suite, &m.s(), pk_r.as_bytes(), &info, b"single", b"ad").unwrap();
                    let back = hpke::single_shot_open(&suite, &m.r(), sk_r.as_bytes(), one.0.as_bytes(), &info, &one.1, b"ad").unwrap();
                    assert_eq!(back, b"single");
                    let u = tx.usage().unwrap();
                    assert_eq!(u.seals, 7, "{suite:?}");
                    n += 1;
                }
            }
        }
    }
    assert_eq!(n, 5 * 3 * 4 * 4);
    println!("hpke round trips: {n} suite/mode pairs");
}

/// `open_at` goes through the replay window: out of order within it works, a replay and a number
/// left of the window are `Replay` (nothing written), a forgery leaves the window as it was.
#[test]
fn open_at_replay_window() {
    let suite = Suite::new(Kem::DhP256HkdfSha256, Kdf::HkdfSha256, Aead::AesGcm256);
    let (sk, pk) = suite.kem.gen_keypair().unwrap();
    let (enc, tx) = hpke::setup_sender(&suite, &OpModeS::Base, pk.as_bytes(), b"").unwrap();
    let rx = hpke::setup_receiver_with(&suite, &OpModeR::Base, sk.as_bytes(), enc.as_bytes(), b"", &Options::new().window(128)).unwrap();
    let cts: Vec<Vec<u8>> = (0..300u32).map(|i| tx.seal(&i.to_be_bytes(), b"w").unwrap()).collect();
    assert_eq!(rx.open_at(5, &cts[5], b"w").unwrap(), 5u32.to_be_bytes());
    assert_eq!(rx.open_at(3, &cts[3], b"w").unwrap(), 3u32.to_be_bytes());
    let mut out = [0xa5u8; 4];
    assert_eq!(rx.open_at_into(5, &cts[5], b"w", &mut out), Err(Error::Replay));
    assert_eq!(out, [0xa5; 4], "a replay writes nothing");
    assert_eq!(rx.open_at(4, &cts[5], b"w"), Err(Error::Auth), "sealed under another number");
    assert_eq!(rx.open_at(4, &cts[4], b"w").unwrap(), 4u32.to_be_bytes(), "the forgery left 4 open");
    assert_eq!(rx.open_at(299, &cts[299], b"w").unwrap(), 299u32.to_be_bytes());
    assert_eq!(rx.open_at(6, &cts[6], b"w"), Err(Error::Replay), "left of the 128-message window");
    let mut buf = cts[200].clone();
    let k = rx.open_at_in_place(200, &mut buf, b"w").unwrap();
    assert_eq!(&buf[..k], 200u32.to_be_bytes());
    let u = rx.usage().unwrap();
    assert_eq!((u.window, u.largest), (128, Some(299)));
    assert!(hpke::setup_receiver_with(&suite, &OpModeR::Base, sk.as_bytes(), enc.as_bytes(), b"", &Options::new().window(100)).is_err());
}

/// Two threads seal 200,000 messages each on one sender: the 400,000 sequence numbers are
/// distinct and are exactly 0..400,000, and every message opens by its number on the receiver
/// (so its nonce was that number's).
#[test]
fn two_threads_seal_on_one_sender() {
    const PER: usize = 200_000;
    let suite = Suite::new(Kem::X25519HkdfSha256, Kdf::HkdfSha256, Aead::AesGcm128);
    let (sk, pk) = suite.kem.gen_keypair().unwrap();
    let (enc, tx) = hpke::setup_sender(&suite, &OpModeS::Base, pk.as_bytes(), b"threads").unwrap();
    let sealed: Vec<Vec<(u64, [u8; 24])>> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..2u8)
            .map(|t| {
                let tx = &tx;
                s.spawn(move || {
                    let mut v = Vec::with_capacity(PER);
                    for i in 0..PER as u32 {
                        let mut pt = [0u8; 8];
                        pt[0] = t;
                        pt[4..].copy_from_slice(&i.to_be_bytes());
                        let mut ct = [0u8; 24];
                        let r = tx.seal_into(&pt, b"", &mut ct).unwrap();
                        v.push((r.seq, ct));
                    }
                    v
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut all: Vec<(u64, u8, [u8; 24])> = sealed.iter().enumerate().flat_map(|(t, v)| v.iter().map(move |&(q, c)| (q, t as u8, c))).collect();
    all.sort_unstable_by_key(|x| x.0);
    assert_eq!(all.len(), 2 * PER);
    assert!(all.iter().enumerate().all(|(i, x)| x.0 == i as u64), "the sequence numbers are 0..{} with none twice", 2 * PER);
    let rx = hpke::setup_receiver(&suite, &OpModeR::Base, sk.as_bytes(), enc.as_bytes(), b"threads").unwrap();
    let mut next = [0u32; 2];
    let mut pt = [0u8; 8];
    for (seq, t, ct) in &all {
        assert_eq!(rx.open_at_into(*seq, ct, b"", &mut pt), Ok(8), "seq {seq}");
        assert_eq!(pt[0], *t);
        let i = u32::from_be_bytes(pt[4..].try_into().unwrap());
        assert_eq!(i, next[*t as usize], "each thread's messages in its own order");
        next[*t as usize] += 1;
    }
    assert_eq!(tx.usage().unwrap().seals, 2 * PER as u64);
    println!("hpke threads: 2 x {PER} seals on one sender, {} distinct sequence numbers, all opened", all.len());
}

/// Keys and inputs that are not the suite's are refused, leaving nothing behind.
#[test]
fn bad_keys_and_inputs_refused() {
    let x = Suite::new(Kem::X25519HkdfSha256, Kdf::HkdfSha256, Aead::AesGcm128);
    let (sk, pk) = x.kem.gen_keypair().unwrap();
    // X25519 public keys of small order (RFC 7748; the zero point, 1, and a point of order 8):
    // the shared secret is all zero, which DHKEM refuses.
    let mut order8 = hex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800");
    let mut one = [0u8; 32];
    one[0] = 1;
    for low in [vec![0u8; 32], one.to_vec(), order8.clone()] {
        assert_eq!(hpke::setup_sender(&x, &OpModeS::Base, &low, b"").unwrap_err(), Error::Arg, "pkR {low:02x?}");
        assert_eq!(hpke::setup_receiver(&x, &OpModeR::Base, sk.as_bytes(), &low, b"").unwrap_err(), Error::Arg, "enc {low:02x?}");
        assert_eq!(hpke::setup_receiver(&x, &OpModeR::Auth(&low), sk.as_bytes(), pk.as_bytes(), b"").unwrap_err(), Error::Arg);
    }
    order8[31] |= 0x80; // the same point with the ignored top bit set (RFC 7748 masks it)
    assert_eq!(hpke::setup_sender(&x, &OpModeS::Base, &order8, b"").unwrap_err(), Error::Arg);
    // Wrong lengths.
    assert_eq!(hpke::setup_sender(&x, &OpModeS::Base, &pk.as_bytes()[..31], b"").unwrap_err(), Error::KeySize);
    assert_eq!(hpke::setup_sender(&x, &OpModeS::Base, &[9u8; 33], b"").unwrap_err(), Error::KeySize);
    assert_eq!(hpke::setup_sender(&x, &OpModeS::Base, &[], b"").unwrap_err(), Error::Arg, "no key at all");
    assert_eq!(hpke::setup_receiver(&x, &OpModeR::Base, &sk.as_bytes()[..16], pk.as_bytes(), b"").unwrap_err(), Error::KeySize);
    assert_eq!(hpke::PublicKey::from_bytes(Kem::X25519HkdfSha256, &[1u8; 65]).unwrap_err(), Error::KeySize);
    // PSK and mode must agree.
    let none = PskBundle { psk: b"", psk_id: b"" };
    let half = PskBundle { psk: &[1u8; 32], psk_id: b"" };
    assert_eq!(hpke::setup_sender(&x, &OpModeS::Psk(none), pk.as_bytes(), b"").unwrap_err(), Error::Arg);
    assert_eq!(hpke::setup_sender(&x, &OpModeS::Psk(half), pk.as_bytes(), b"").unwrap_err(), Error::Arg);
    // NIST curves: a point off the curve, a compressed point, scalars 0 and the order.
    let p = Suite::new(Kem::DhP256HkdfSha256, Kdf::HkdfSha256, Aead::AesGcm128);
    let (psk_, ppk) = p.kem.gen_keypair().unwrap();
    let mut off = ppk.as_bytes().to_vec();
    off[64] ^= 1;
    assert_eq!(hpke::setup_sender(&p, &OpModeS::Base, &off, b"").unwrap_err(), Error::Arg);
    let mut compressed = ppk.as_bytes()[..33].to_vec();
    compressed[0] = 2 + (ppk.as_bytes()[64] & 1);
    assert_eq!(hpke::setup_sender(&p, &OpModeS::Base, &compressed, b"").unwrap_err(), Error::KeySize);
    let mut compressed_tag = ppk.as_bytes().to_vec();
    compressed_tag[0] = 2;
    assert_eq!(hpke::setup_sender(&p, &OpModeS::Base, &compressed_tag, b"").unwrap_err(), Error::Arg);
    let (enc, _tx) = hpke::setup_sender(&p, &OpModeS::Base, ppk.as_bytes(), b"").unwrap();
    let order = hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
    for bad_sk in [vec![0u8; 32], order.clone()] {
        assert_eq!(hpke::setup_receiver(&p, &OpModeR::Base, &bad_sk, enc.as_bytes(), b"").unwrap_err(), Error::Arg);
        assert_eq!(hpke::PrivateKey::from_bytes(p.kem, &bad_sk).unwrap().public_key().unwrap_err(), Error::Arg);
    }
    assert!(hpke::setup_receiver(&p, &OpModeR::Base, psk_.as_bytes(), enc.as_bytes(), b"").is_ok());
    // A key of the other KEM.
    assert_eq!(hpke::setup_sender(&p, &OpModeS::Base, pk.as_bytes(), b"").unwrap_err(), Error::KeySize);
    // Buffers and limits: a refused seal writes nothing and uses no sequence number.
    let (enc, tx) = hpke::setup_sender(&x, &OpModeS::Base, pk.as_bytes(), b"").unwrap();
    let rx = hpke::setup_receiver(&x, &OpModeR::Base, sk.as_bytes(), enc.as_bytes(), b"").unwrap();
    let mut small = [0xa5u8; 20];
    assert_eq!(tx.seal_into(b"hello", b"", &mut small), Err(Error::BufferTooSmall));
    assert_eq!(small, [0xa5; 20]);
    let mut buf = [0u8; 21];
    assert_eq!(tx.seal_in_place(&mut buf, 6, b""), Err(Error::BufferTooSmall));
    assert_eq!(tx.seal_in_place(&mut buf, 22, b""), Err(Error::Arg));
    let ct = tx.seal(b"hello", b"").unwrap();
    assert_eq!(rx.open(&ct[..15], b""), Err(Error::Auth), "shorter than a tag");
    let mut out = [0xa5u8; 5];
    assert_eq!(rx.open_into(&ct[..ct.len() - 1], b"", &mut out), Err(Error::Auth));
    assert_eq!(rx.open(&ct, b"").unwrap(), b"hello", "sealed as sequence 0: the refusals used none");
    let mut e = vec![0u8; 255 * 32 + 1];
    assert_eq!(tx.export(b"", &mut e), Err(Error::TooLong));
    assert_eq!(tx.export(&[0u8; hpke::MAX_EXPORT_CONTEXT_LEN + 1], &mut e[..32]), Err(Error::TooLong));
    tx.export(&[0u8; hpke::MAX_EXPORT_CONTEXT_LEN], &mut e[..255 * 32]).unwrap();
    assert_eq!(hpke::setup_sender_with(&x, &OpModeS::Base, pk.as_bytes(), b"", &Options::new().properties("provider=nonexistent")).unwrap_err(), Error::Unsupported);
}

/// Sequence numbers of both sides, Send + Sync and the ids.
#[test]
fn types_and_ids() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<hpke::SenderContext>();
    send_sync::<hpke::ReceiverContext>();
    send_sync::<hpke::PrivateKey>();
    for &k in Kem::ALL {
        assert_eq!(Kem::from_id(k.id()), Some(k));
    }
    for &f in Kdf::ALL {
        assert_eq!(Kdf::from_id(f.id()), Some(f));
    }
    assert_eq!((Kem::ALL.len(), Kdf::ALL.len()), (11, 7));
    assert_eq!(Kem::from_id(0x0030), None);
    assert_eq!((Kdf::HkdfSha512.id(), Aead::ExportOnly.id(), Kem::DhP521HkdfSha512.id()), (3, 0xffff, 0x12));
    let (sk, _) = Kem::X25519HkdfSha256.derive_keypair(&[1u8; 32]).unwrap();
    assert!(!format!("{sk:?}").contains("bytes"), "Debug does not show a private key");
    assert_eq!(Kem::X25519HkdfSha256.derive_keypair(&[1u8; 32]).unwrap().1, sk.public_key().unwrap());
}

// ---------------------------------------------------------------------------------------------
// Interop with the `hpke` crate.

/// The `hpke` crate's RNG: this test's seeded generator (reproducible with LIBAEAD_TEST_SEED).
struct TestRng<'a>(&'a mut Rng);

impl ::hpke::rand_core::RngCore for TestRng<'_> {
    fn next_u32(&mut self) -> u32 {
        self.0.next_u64() as u32
    }
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        self.0.fill(dst)
    }
}
impl ::hpke::rand_core::CryptoRng for TestRng<'_> {}

// `hpke` here is libaead's module; the crate is `::hpke`.
use ::hpke::{Deserializable as _, Serializable as _};

/// Which side seals.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dir {
    LibaeadSeals,
    CrateSeals,
}

/// One random case of suite `suite` in direction `dir`: random mode, info, AAD and message
/// lengths, 1..4 messages in sequence, each opened by the other side; the exports of both sides
/// agree; one more message, tampered with, is refused by the opener. Returns the messages sealed.
fn interop_case<A: ::hpke::aead::Aead, F: ::hpke::kdf::Kdf, K: ::hpke::Kem>(suite: Suite, dir: Dir, rng: &mut Rng) -> usize {
    let mode = rng.below(4) as u8;
    let info = rng.bytes_below(80);
    let psk = rng.bytes(32);
    let id_len = 1 + rng.below(16);
    let psk_id = rng.bytes(id_len);
    let ours = PskBundle { psk: &psk, psk_id: &psk_id };
    let theirs = ::hpke::PskBundle::new(&psk, &psk_id).unwrap();
    // The recipient's and the sender's static keys, made by the side that keeps the private key.
    let ((sk_r, pk_r), sender) = {
        let gen = |rng: &mut Rng, crate_side: bool| -> (Vec<u8>, Vec<u8>) {
            if crate_side {
                let (sk, pk) = K::gen_keypair(&mut TestRng(rng));
                (sk.to_bytes().to_vec(), pk.to_bytes().to_vec())
            } else {
                let (sk, pk) = suite.kem.gen_keypair().unwrap();
                (sk.as_bytes().to_vec(), pk.as_bytes().to_vec())
            }
        };
        let r = gen(rng, dir == Dir::LibaeadSeals);
        let s = gen(rng, dir == Dir::CrateSeals);
        (r, s)
    };
    let (sk_s, pk_s) = &sender;
    let their_s = || (K::PrivateKey::from_bytes(sk_s).unwrap(), K::PublicKey::from_bytes(pk_s).unwrap());
    let their_pk_s = || K::PublicKey::from_bytes(pk_s).unwrap();
    let (our_mode_s, our_mode_r) = match mode {
        0 => (OpModeS::Base, OpModeR::Base),
        1 => (OpModeS::Psk(ours), OpModeR::Psk(ours)),
        2 => (OpModeS::Auth(sk_s), OpModeR::Auth(pk_s)),
        _ => (OpModeS::AuthPsk(sk_s, ours), OpModeR::AuthPsk(pk_s, ours)),
    };
    let their_mode_s = || match mode {
        0 => ::hpke::OpModeS::<K>::Base,
        1 => ::hpke::OpModeS::Psk(theirs),
        2 => ::hpke::OpModeS::Auth(their_s()),
        _ => ::hpke::OpModeS::AuthPsk(their_s(), theirs),
    };
    let their_mode_r = || match mode {
        0 => ::hpke::OpModeR::<K>::Base,
        1 => ::hpke::OpModeR::Psk(theirs),
        2 => ::hpke::OpModeR::Auth(their_pk_s()),
        _ => ::hpke::OpModeR::AuthPsk(their_pk_s(), theirs),
    };
    let count = 1 + rng.below(4);
    let msgs: Vec<(Vec<u8>, Vec<u8>)> = (0..=count).map(|_| (rng.bytes_below(300), rng.bytes_below(64))).collect();
    let ectx = rng.bytes_below(64);
    let elen = 1 + rng.below(100);
    let what = format!("{suite:?} mode {mode} {dir:?}");
    let (mut e_ours, mut e_theirs) = (vec![0u8; elen], vec![0u8; elen]);
    match dir {
        Dir::LibaeadSeals => {
            let (enc, tx) = hpke::setup_sender(&suite, &our_mode_s, &pk_r, &info).unwrap();
            let enc = K::EncappedKey::from_bytes(enc.as_bytes()).unwrap();
            let sk = K::PrivateKey::from_bytes(&sk_r).unwrap();
            let mut rx = ::hpke::setup_receiver::<A, F, K>(&their_mode_r(), &sk, &enc, &info).unwrap();
            for (i, (pt, aad)) in msgs.iter().enumerate() {
                let ct = tx.seal(pt, aad).unwrap();
                if i == count {
                    let mut bad = ct.clone();
                    rng.flip_bit(&mut bad);
                    assert!(rx.open(&bad, aad).is_err(), "{what}: the crate took a tampered message");
                } else {
                    assert_eq!(&rx.open(&ct, aad).unwrap(), pt, "{what}: message {i}");
                }
            }
            tx.export(&ectx, &mut e_ours).unwrap();
            rx.export(&ectx, &mut e_theirs).unwrap();
        }
        Dir::CrateSeals => {
            let pk = K::PublicKey::from_bytes(&pk_r).unwrap();
            let (enc, mut tx) = ::hpke::setup_sender::<A, F, K, _>(&their_mode_s(), &pk, &info, &mut TestRng(rng)).unwrap();
            let rx = hpke::setup_receiver(&suite, &our_mode_r, &sk_r, &enc.to_bytes(), &info).unwrap();
            for (i, (pt, aad)) in msgs.iter().enumerate() {
                let ct = tx.seal(pt, aad).unwrap();
                if i == count {
                    let mut bad = ct.clone();
                    rng.flip_bit(&mut bad);
                    assert_eq!(rx.open(&bad, aad), Err(Error::Auth), "{what}: libaead took a tampered message");
                } else {
                    assert_eq!(&rx.open(&ct, aad).unwrap(), pt, "{what}: message {i}");
                }
            }
            rx.export(&ectx, &mut e_ours).unwrap();
            tx.export(&ectx, &mut e_theirs).unwrap();
        }
    }
    assert_eq!(e_ours, e_theirs, "{what}: exports");
    // Single-shot the same way round, on the first message.
    let (pt, aad) = &msgs[0];
    match dir {
        Dir::LibaeadSeals => {
            let (enc, ct) = hpke::single_shot_seal(&suite, &our_mode_s, &pk_r, &info, pt, aad).unwrap();
            let enc = K::EncappedKey::from_bytes(enc.as_bytes()).unwrap();
            let sk = K::PrivateKey::from_bytes(&sk_r).unwrap();
            assert_eq!(&::hpke::single_shot_open::<A, F, K>(&their_mode_r(), &sk, &enc, &info, &ct, aad).unwrap(), pt);
        }
        Dir::CrateSeals => {
            let pk = K::PublicKey::from_bytes(&pk_r).unwrap();
            let (enc, ct) = ::hpke::single_shot_seal::<A, F, K, _>(&their_mode_s(), &pk, &info, pt, aad, &mut TestRng(rng)).unwrap();
            assert_eq!(&hpke::single_shot_open(&suite, &our_mode_r, &sk_r, &enc.to_bytes(), &info, &ct, aad).unwrap(), pt);
        }
    }
    count
}

fn with_aead<K: ::hpke::Kem, F: ::hpke::kdf::Kdf>(suite: Suite, dir: Dir, rng: &mut Rng) -> usize {
    match suite.aead {
        Aead::AesGcm128 => interop_case::<::hpke::aead::AesGcm128, F, K>(suite, dir, rng),
        Aead::AesGcm256 => interop_case::<::hpke::aead::AesGcm256, F, K>(suite, dir, rng),
        Aead::ChaCha20Poly1305 => interop_case::<::hpke::aead::ChaCha20Poly1305, F, K>(suite, dir, rng),
        a => panic!("no interop case for {a:?}"),
    }
}

fn with_kdf<K: ::hpke::Kem>(suite: Suite, dir: Dir, rng: &mut Rng) -> usize {
    match suite.kdf {
        Kdf::HkdfSha256 => with_aead::<K, ::hpke::kdf::HkdfSha256>(suite, dir, rng),
        Kdf::HkdfSha384 => with_aead::<K, ::hpke::kdf::HkdfSha384>(suite, dir, rng),
        Kdf::HkdfSha512 => with_aead::<K, ::hpke::kdf::HkdfSha512>(suite, dir, rng),
        k => panic!("no interop case for {k:?}"),
    }
}

fn interop(suite: Suite, dir: Dir, rng: &mut Rng) -> usize {
    match suite.kem {
        Kem::X25519HkdfSha256 => with_kdf::<::hpke::kem::X25519HkdfSha256>(suite, dir, rng),
        Kem::DhP256HkdfSha256 => with_kdf::<::hpke::kem::DhP256HkdfSha256>(suite, dir, rng),
        Kem::DhP384HkdfSha384 => with_kdf::<::hpke::kem::DhP384HkdfSha384>(suite, dir, rng),
        Kem::DhP521HkdfSha512 => with_kdf::<::hpke::kem::DhP521HkdfSha512>(suite, dir, rng),
        k => panic!("the hpke crate has no {k:?}"),
    }
}

/// 1,000 random cases each way with the `hpke` crate 0.13 over every suite both have (X25519,
/// P-256, P-384, P-521; HKDF-SHA256/384/512; AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305: 36)
/// and every mode: each side seals, the other opens; exports agree; a tampered message is refused.
#[test]
fn interop_with_hpke_crate() {
    const CASES: usize = 1000;
    let mut rng = Rng::from_env("interop_with_hpke_crate");
    let kems = [Kem::X25519HkdfSha256, Kem::DhP256HkdfSha256, Kem::DhP384HkdfSha384, Kem::DhP521HkdfSha512];
    let aeads = [Aead::AesGcm128, Aead::AesGcm256, Aead::ChaCha20Poly1305];
    let mut suites = Vec::new();
    for k in kems {
        for f in HKDFS {
            suites.extend(aeads.iter().map(|&a| Suite::new(k, f, a)));
        }
    }
    assert_eq!(suites.len(), 36);
    for dir in [Dir::LibaeadSeals, Dir::CrateSeals] {
        let (mut messages, mut seen) = (0, BTreeSet::new());
        for i in 0..CASES {
            // Every suite at least once, then random ones.
            let suite = if i < suites.len() { suites[i] } else { suites[rng.below(suites.len())] };
            seen.insert(format!("{suite:?}"));
            messages += interop(suite, dir, &mut rng);
        }
        assert_eq!(seen.len(), 36);
        let who = if dir == Dir::LibaeadSeals { "libaead seals, hpke 0.13 opens" } else { "hpke 0.13 seals, libaead opens" };
        println!("hpke interop: {who}: {CASES} cases, {} suites, {messages} messages + {CASES} tampered refused + {CASES} single-shot, exports equal", seen.len());
    }
}
