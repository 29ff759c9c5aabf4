//! Batches per record (Rust row): `Cipher::seal_many` / `open_many` (one
//! `aead_seal_open_many` call for the whole batch) against the single C call `aead_seal_open` made
//! once per record with no binding around it, AES-128-GCM at 64 B, 1 KiB and 16 KiB
//! (12-byte nonce, 13-byte AAD, 16-byte tag, 64 records per batch, out of place).
//!
//! Rows, each against that C-call loop on the same records:
//! * `seal_many`: the records built once and reused (as a C caller reuses its `aead_record` array);
//! * `seal_many + build`: the `Record`s built for every batch into a fresh `Vec` (the usual shape);
//! * `C aead_seal_open_many`: the raw batch call, no binding (the batch's own floor);
//! * `seal_into loop`: the binding's single call, once per record.
//!
//! Every side's outputs are first checked equal to the C loop's. Timing is interleaved A/B as in
//! `seal_open.rs`: each round times a block of batches of the reference and of the candidate
//! back to back, order alternating, over 3 objects per side; the table gives the median per-round
//! ratio candidate / reference with its interquartile range, and ns per record. Writes JSON to
//! `$LIBAEAD_BENCH_JSON` (default `target/bench-rust-batch.json`).
//!
//! ```sh
//! cargo bench --locked --bench batch                          # bundled, system libcrypto
//! cargo bench --locked --features vendored --bench batch      # bundled, OpenSSL 3.5.5
//! LIBAEAD_SYS_USE_PKG_CONFIG=1 PKG_CONFIG_PATH=<build>/meson-uninstalled cargo bench --locked --bench batch
//! ```
use libaead::{sys, Algorithm, Cipher, Policy, Record};
use std::hint::black_box;
use std::time::Instant;

mod common;

const SIZES: [usize; 3] = [64, 1024, 16 * 1024];
const RECORDS: usize = 64;
const KEY: [u8; 16] = [0x11; 16];
const AAD: [u8; 13] = [0x33; 13];
const ROUNDS: usize = 101;
const INSTANCES: usize = 3;
/// Target per-record ratio against the C call ("within 1.1x of the C call").
const TARGET: f64 = 1.10;

/// The records of one batch: inputs (plaintexts, or their sealed forms), nonces and outputs.
struct Work {
    nonces: Vec<[u8; 12]>,
    inputs: Vec<Vec<u8>>,
    outs: Vec<Vec<u8>>,
}

impl Work {
    fn new(size: usize, inputs: Vec<Vec<u8>>, seal: bool) -> Work {
        let out_len = if seal { size + 16 } else { size };
        Work {
            nonces: (0..RECORDS).map(|i| { let mut n = [0x22; 12]; n[..8].copy_from_slice(&(i as u64).to_be_bytes()); n }).collect(),
            inputs,
            outs: vec![vec![0; out_len]; RECORDS],
        }
    }
}

/// One way of doing a whole batch.
trait Side {
    fn run(&mut self, seal: bool, w: &mut Work);
}

/// The C call, once per record: the reference.
struct CLoop(*mut sys::aead_ctx);
/// The raw C batch call.
struct CMany(*mut sys::aead_ctx, Vec<sys::aead_record>);
/// `Cipher::seal_many` over records built before the timer starts (see `time_many`).
struct Many(Cipher);
/// `Cipher::seal_many` with the records built for every batch.
struct ManyBuild(Cipher);
/// `Cipher::seal_into` per record.
struct Loop(Cipher);

impl Drop for CLoop {
    fn drop(&mut self) {
        // SAFETY: our context, freed once.
        unsafe { sys::aead_ctx_free(self.0) }
    }
}

impl Drop for CMany {
    fn drop(&mut self) {
        // SAFETY: our context, freed once.
        unsafe { sys::aead_ctx_free(self.0) }
    }
}

fn c_ctx() -> *mut sys::aead_ctx {
    let mut raw = std::ptr::null_mut();
    // SAFETY: valid out-pointer and key.
    let rc = unsafe { sys::aead_ctx_new(&mut raw, sys::AEAD_AES_128_GCM, sys::AEAD_POLICY_NONE, KEY.as_ptr(), 16, 16) };
    assert_eq!(rc, 0);
    raw
}

fn op(seal: bool) -> i32 {
    if seal {
        sys::AEAD_SEAL
    } else {
        sys::AEAD_OPEN
    }
}

impl Side for CLoop {
    #[inline(never)]
    fn run(&mut self, seal: bool, w: &mut Work) {
        for i in 0..RECORDS {
            let (n, input, out) = (&w.nonces[i], &w.inputs[i], &mut w.outs[i]);
            // SAFETY: every pointer comes from a live slice of the stated length.
            let rc = unsafe {
                sys::aead_seal_open(
                    black_box(self.0),
                    op(seal),
                    n.as_ptr(),
                    12,
                    AAD.as_ptr(),
                    AAD.len(),
                    input.as_ptr(),
                    input.len(),
                    out.as_mut_ptr(),
                    out.len(),
                )
            };
            assert!(rc >= 0);
        }
    }
}

impl Side for CMany {
    #[inline(never)]
    fn run(&mut self, seal: bool, w: &mut Work) {
        let recs = &mut self.1;
        recs.clear();
        for i in 0..RECORDS {
            recs.push(sys::aead_record {
                nonce: w.nonces[i].as_ptr(),
                nonce_len: 12,
                aad: AAD.as_ptr(),
                aad_len: AAD.len(),
                input: w.inputs[i].as_ptr(),
                in_len: w.inputs[i].len(),
                out: w.outs[i].as_mut_ptr(),
                out_cap: w.outs[i].len(),
                result: 0,
            });
        }
        // SAFETY: as above, for every record; the outputs are distinct buffers.
        let ok = unsafe { sys::aead_seal_open_many(black_box(self.0), op(seal), recs.as_mut_ptr(), RECORDS) };
        assert_eq!(ok, RECORDS as i64);
    }
}

impl Side for ManyBuild {
    #[inline(never)]
    fn run(&mut self, seal: bool, w: &mut Work) {
        let mut recs: Vec<Record> = Vec::with_capacity(RECORDS);
        for ((n, input), out) in w.nonces.iter().zip(&w.inputs).zip(w.outs.iter_mut()) {
            recs.push(Record::new(n, &AAD, input, out));
        }
        let ok = if seal { self.0.seal_many(&mut recs) } else { self.0.open_many(&mut recs) };
        assert_eq!(ok, RECORDS);
    }
}

impl Side for Loop {
    #[inline(never)]
    fn run(&mut self, seal: bool, w: &mut Work) {
        for i in 0..RECORDS {
            let (n, input, out) = (&w.nonces[i], &w.inputs[i], &mut w.outs[i]);
            let r = if seal { self.0.seal_into(n, &AAD, input, out) } else { self.0.open_into(n, &AAD, input, out) };
            r.unwrap();
        }
    }
}

/// `Many` times a block of `seal_many` calls over one set of records built before the timer
/// starts: the records borrow the Work's outputs, so they are built per block, not per batch.
fn time_many(c: &Cipher, seal: bool, w: &mut Work, blocks: usize) -> f64 {
    let mut recs: Vec<Record> =
        w.nonces.iter().zip(&w.inputs).zip(w.outs.iter_mut()).map(|((n, i), o)| Record::new(n, &AAD, i, o)).collect();
    let t = Instant::now();
    for _ in 0..blocks {
        let ok = if seal { c.seal_many(black_box(&mut recs)) } else { c.open_many(black_box(&mut recs)) };
        assert_eq!(ok, RECORDS);
    }
    t.elapsed().as_nanos() as f64 / (blocks * RECORDS) as f64
}

enum Cand {
    Many(Many),
    Other(Box<dyn Side>),
}

/// ns per record of one block.
fn time(c: &mut Cand, seal: bool, w: &mut Work, blocks: usize) -> f64 {
    match c {
        Cand::Many(m) => time_many(&m.0, seal, w, blocks),
        Cand::Other(s) => {
            let t = Instant::now();
            for _ in 0..blocks {
                s.run(seal, black_box(&mut *w));
            }
            t.elapsed().as_nanos() as f64 / (blocks * RECORDS) as f64
        }
    }
}

fn cipher() -> Cipher {
    Cipher::new(Algorithm::Aes128Gcm, Policy::None, &KEY, 16).unwrap()
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let quick = std::env::args().any(|a| a == "--test");
    // The candidates' names for seal and for open.
    let names = [
        ("seal_many", "open_many"),
        ("seal_many + build", "open_many + build"),
        ("C aead_seal_open_many", "C aead_seal_open_many"),
        ("seal_into loop", "open_into loop"),
    ];
    let make = |k: usize| -> Cand {
        match k {
            0 => Cand::Many(Many(cipher())),
            1 => Cand::Other(Box::new(ManyBuild(cipher()))),
            2 => Cand::Other(Box::new(CMany(c_ctx(), Vec::with_capacity(RECORDS)))),
            _ => Cand::Other(Box::new(Loop(cipher()))),
        }
    };
    let mut refs: Vec<CLoop> = (0..INSTANCES).map(|_| CLoop(c_ctx())).collect();
    let mut cands: Vec<Vec<Cand>> = (0..names.len()).map(|k| (0..INSTANCES).map(|_| make(k)).collect()).collect();
    let version = libaead::version();
    println!("libaead: {version}; CPU: {}", common::cpu_model());
    println!(
        "AES-128-GCM, {RECORDS} records per batch, out of place; interleaved A/B, {ROUNDS} rounds over {INSTANCES} objects per side; \
         ratio = candidate time / time of aead_seal_open called once per record.\n"
    );
    println!("| op | size | candidate | ns/record | C call ns/record | ratio | IQR | target | met |");
    println!("|---|---:|---|---:|---:|---:|---|---:|---|");
    let mut rows = Vec::new();
    for size in SIZES {
        let human = if size >= 1024 { format!("{} KiB", size / 1024) } else { format!("{size} B") };
        // About 0.3-1 ms per block on this machine class.
        let blocks = match size {
            64 => 16,
            1024 => 4,
            _ => 1,
        };
        let plains: Vec<Vec<u8>> = (0..RECORDS).map(|i| vec![i as u8; size]).collect();
        let mut sw = Work::new(size, plains.clone(), true);
        refs[0].run(true, &mut sw);
        let sealed = sw.outs.clone();
        for seal in [true, false] {
            let opname = if seal { "seal" } else { "open" };
            let mut w = Work::new(size, if seal { plains.clone() } else { sealed.clone() }, seal);
            refs[0].run(seal, &mut w);
            let want = w.outs.clone();
            for (k, &(seal_name, open_name)) in names.iter().enumerate() {
                let name = if seal { seal_name } else { open_name };
                for c in cands[k].iter_mut() {
                    w.outs.iter_mut().for_each(|o| o.fill(0));
                    time(c, seal, &mut w, 1);
                    assert_eq!(w.outs, want, "{name} {opname} {size}: outputs differ from the C call's");
                }
                if quick {
                    continue;
                }
                for i in 0..2 * INSTANCES {
                    refs[i % INSTANCES].run(seal, &mut w);
                    time(&mut cands[k][i % INSTANCES], seal, &mut w, 1);
                }
                let time_ref = |re: &mut CLoop, w: &mut Work| {
                    let t = Instant::now();
                    for _ in 0..blocks {
                        re.run(seal, black_box(&mut *w));
                    }
                    t.elapsed().as_nanos() as f64 / (blocks * RECORDS) as f64
                };
                // Round r uses instance r % INSTANCES of each side; the order flips every INSTANCES rounds.
                let common::Paired { ratio, q1, q3, ref_ns, cand_ns: ns } =
                    common::interleaved(ROUNDS, |r| (r / INSTANCES) % 2 == 1, |cand, r| {
                        let j = r % INSTANCES;
                        if cand {
                            time(&mut cands[k][j], seal, &mut w, blocks)
                        } else {
                            time_ref(&mut refs[j], &mut w)
                        }
                    });
                let met = ratio <= TARGET;
                println!(
                    "| {opname} | {human} | {name} | {ns:.1} | {ref_ns:.1} | {ratio:.3}x | {q1:.3}-{q3:.3} | {TARGET:.2}x | {} |",
                    if met { "yes" } else { "no" }
                );
                rows.push(serde_json::json!({
                    "op": opname, "size": size, "candidate": name, "ns_per_record": ns,
                    "c_call_ns_per_record": ref_ns, "ratio": ratio, "ratio_q1": q1, "ratio_q3": q3,
                    "target": TARGET, "met": met,
                }));
            }
        }
    }
    if quick {
        println!("(--test: every side's outputs checked equal to the C call's, no timing)");
        return;
    }
    let doc = serde_json::json!({
        "benchmark": "bindings/rust/benches/batch.rs",
        "algorithm": "AES-128-GCM", "nonce": 12, "aad": 13, "tag": 16, "records_per_batch": RECORDS,
        "rounds": ROUNDS, "instances": INSTANCES,
        "method": "interleaved A/B blocks, median of per-round time ratios candidate / aead_seal_open once per record",
        "libaead": version, "cpu": common::cpu_model(), "unix_time": common::unix_time(),
        "results": rows,
    });
    common::write_report(concat!(env!("CARGO_MANIFEST_DIR"), "/target/bench-rust-batch.json"), &doc);
}
