//! AES-128-GCM seal/open at 64 B and 16 KiB (13-byte AAD, 12-byte nonce): this crate vs a direct
//! unsafe call of `aead_seal_open` vs RustCrypto `aes-gcm`. Run with `bash bench.sh`, which also
//! prints the comparison table (built from criterion's estimates at the end of this run).
use aes_gcm::aead::{AeadInOut, KeyInit};
use criterion::{Criterion, Throughput};
use libaead::sys;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

const SIZES: [usize; 2] = [64, 16 * 1024];
const KEY: [u8; 16] = [0x11; 16];
const NONCE: [u8; 12] = [0x22; 12];
const AAD: [u8; 13] = [0x33; 13];

struct RawCtx(*mut sys::aead_ctx);
impl Drop for RawCtx {
    fn drop(&mut self) {
        unsafe { sys::aead_ctx_free(self.0) }
    }
}

fn raw_ctx() -> RawCtx {
    let mut raw = std::ptr::null_mut();
    let rc = unsafe {
        sys::aead_ctx_new(&mut raw, sys::AEAD_AES_128_GCM, sys::AEAD_POLICY_NONE, KEY.as_ptr(), 16, 16)
    };
    assert_eq!(rc, 0);
    RawCtx(raw)
}

#[inline(always)]
fn c_call(ctx: &RawCtx, op: i32, input: &[u8], out: &mut [u8]) -> i64 {
    unsafe {
        sys::aead_seal_open(
            black_box(ctx.0),
            op,
            black_box(NONCE.as_ptr()),
            NONCE.len(),
            black_box(AAD.as_ptr()),
            AAD.len(),
            black_box(input.as_ptr()),
            input.len(),
            out.as_mut_ptr(),
            out.len(),
        )
    }
}

fn benches(c: &mut Criterion) {
    let raw = raw_ctx();
    let ours = libaead::Aes128Gcm::new(&KEY.into());
    let theirs = aes_gcm::Aes128Gcm::new(&KEY.into());
    let nonce = NONCE.into();
    for size in SIZES {
        let pt = vec![0x44u8; size];
        let mut out = vec![0u8; size + 16];
        let mut buf: Vec<u8> = Vec::with_capacity(size + 16);
        let sealed = ours.cipher().seal(&NONCE, &AAD, &pt).unwrap();
        assert_eq!(c_call(&raw, sys::AEAD_SEAL, &pt, &mut out), (size + 16) as i64);
        assert_eq!(out, sealed);

        let mut g = c.benchmark_group(format!("seal_{size}"));
        g.throughput(Throughput::Bytes(size as u64));
        g.bench_function("c_direct", |b| b.iter(|| c_call(&raw, sys::AEAD_SEAL, black_box(&pt), &mut out)));
        g.bench_function("libaead_seal_into", |b| {
            b.iter(|| ours.seal_into(black_box(&nonce), black_box(&AAD), black_box(&pt), &mut out).unwrap())
        });
        g.bench_function("libaead_encrypt_in_place", |b| {
            b.iter(|| {
                buf.clear();
                buf.extend_from_slice(black_box(&pt));
                ours.encrypt_in_place(black_box(&nonce), black_box(&AAD), &mut buf).unwrap();
            })
        });
        g.bench_function("aes_gcm_encrypt_in_place", |b| {
            b.iter(|| {
                buf.clear();
                buf.extend_from_slice(black_box(&pt));
                theirs.encrypt_in_place(black_box(&nonce), black_box(&AAD), &mut buf).unwrap();
            })
        });
        g.bench_function("libaead_detached", |b| {
            b.iter(|| {
                buf.clear();
                buf.extend_from_slice(black_box(&pt));
                ours.encrypt_inout_detached(black_box(&nonce), black_box(&AAD), buf.as_mut_slice().into())
                    .unwrap()
            })
        });
        g.bench_function("aes_gcm_detached", |b| {
            b.iter(|| {
                buf.clear();
                buf.extend_from_slice(black_box(&pt));
                theirs
                    .encrypt_inout_detached(black_box(&nonce), black_box(&AAD), buf.as_mut_slice().into())
                    .unwrap()
            })
        });
        g.finish();

        let mut g = c.benchmark_group(format!("open_{size}"));
        g.throughput(Throughput::Bytes(size as u64));
        let mut pt_out = vec![0u8; size];
        g.bench_function("c_direct", |b| b.iter(|| c_call(&raw, sys::AEAD_OPEN, black_box(&sealed), &mut pt_out)));
        g.bench_function("libaead_open_into", |b| {
            b.iter(|| ours.open_into(black_box(&nonce), black_box(&AAD), black_box(&sealed), &mut pt_out).unwrap())
        });
        g.bench_function("libaead_decrypt_in_place", |b| {
            b.iter(|| {
                buf.clear();
                buf.extend_from_slice(black_box(&sealed));
                ours.decrypt_in_place(black_box(&nonce), black_box(&AAD), &mut buf).unwrap();
            })
        });
        g.bench_function("aes_gcm_decrypt_in_place", |b| {
            b.iter(|| {
                buf.clear();
                buf.extend_from_slice(black_box(&sealed));
                theirs.decrypt_in_place(black_box(&nonce), black_box(&AAD), &mut buf).unwrap();
            })
        });
        g.finish();
        assert_eq!(pt_out, pt);
    }
}

/// Median time per iteration in ns from criterion's estimates of this run.
fn median_ns(home: &Path, group: &str, id: &str) -> Option<f64> {
    let text = std::fs::read_to_string(home.join(group).join(id).join("new/estimates.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["median"]["point_estimate"].as_f64()
}

fn print_table() {
    let home = std::env::var_os("CRITERION_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("CARGO_TARGET_DIR").map(|d| PathBuf::from(d).join("criterion")))
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/criterion"));
    println!("\nAES-128-GCM, 12-byte nonce, 13-byte AAD; median ns per operation (criterion), one run.");
    println!("ratio = time / time of the reference named in the last column.\n");
    println!("| op | size | implementation | median | throughput | ratio | vs |");
    println!("|---|---:|---|---:|---:|---:|---|");
    let rows: [(&str, &str, &str); 10] = [
        ("seal", "c_direct", ""),
        ("seal", "libaead_seal_into", "c_direct"),
        ("seal", "libaead_encrypt_in_place", "aes_gcm_encrypt_in_place"),
        ("seal", "aes_gcm_encrypt_in_place", ""),
        ("seal", "libaead_detached", "aes_gcm_detached"),
        ("seal", "aes_gcm_detached", ""),
        ("open", "c_direct", ""),
        ("open", "libaead_open_into", "c_direct"),
        ("open", "libaead_decrypt_in_place", "aes_gcm_decrypt_in_place"),
        ("open", "aes_gcm_decrypt_in_place", ""),
    ];
    for size in SIZES {
        for (op, id, vs) in rows {
            let group = format!("{op}_{size}");
            let Some(t) = median_ns(&home, &group, id) else {
                continue; // filtered out on the command line
            };
            let gbps = size as f64 / t; // bytes per ns = GB/s
            let (ratio, vs_name) = match (vs, median_ns(&home, &group, vs)) {
                ("", _) | (_, None) => ("".to_string(), ""),
                (v, Some(r)) => (format!("{:.3}x", t / r), v),
            };
            let human = if size >= 1024 { format!("{} KiB", size / 1024) } else { format!("{size} B") };
            let time = if t >= 1000.0 { format!("{:.2} µs", t / 1000.0) } else { format!("{t:.1} ns") };
            println!("| {op} | {human} | {id} | {time} | {gbps:.2} GB/s | {ratio} | {vs_name} |");
        }
    }
}

/// Interleaved A/B timing: `rounds` rounds, each timing a block of `block` calls of `reference`
/// and of `candidate` back to back (order alternating), so that load changes on a shared machine
/// hit both sides alike. Returns the median, first and third quartile of the per-round ratios
/// candidate / reference, and the median ns per call of each side.
fn paired(
    mut reference: impl FnMut(),
    mut candidate: impl FnMut(),
    block: usize,
    rounds: usize,
) -> (f64, f64, f64, f64, f64) {
    use std::time::Instant;
    let time = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        for _ in 0..block {
            f();
        }
        t.elapsed().as_nanos() as f64 / block as f64
    };
    for _ in 0..3 {
        time(&mut reference);
        time(&mut candidate);
    }
    let (mut ratios, mut ta, mut tb) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..rounds {
        let (a, b) = if r % 2 == 0 {
            let a = time(&mut reference);
            (a, time(&mut candidate))
        } else {
            let b = time(&mut candidate);
            (time(&mut reference), b)
        };
        ratios.push(b / a);
        ta.push(a);
        tb.push(b);
    }
    let q = |v: &mut Vec<f64>, p: f64| {
        v.sort_by(|x, y| x.partial_cmp(y).unwrap());
        v[((v.len() - 1) as f64 * p).round() as usize]
    };
    (q(&mut ratios, 0.5), q(&mut ratios, 0.25), q(&mut ratios, 0.75), q(&mut ta, 0.5), q(&mut tb, 0.5))
}

fn paired_table() {
    let raw = raw_ctx();
    let ours = libaead::Aes128Gcm::new(&KEY.into());
    let theirs = aes_gcm::Aes128Gcm::new(&KEY.into());
    let nonce = NONCE.into();
    println!("\nInterleaved A/B (same process, blocks alternated, 301 rounds): median ratio [IQR].\n");
    println!("| op | size | candidate | reference | candidate ns | reference ns | ratio | IQR |");
    println!("|---|---:|---|---|---:|---:|---:|---|");
    for size in SIZES {
        let human = if size >= 1024 { format!("{} KiB", size / 1024) } else { format!("{size} B") };
        let block = if size >= 1024 { 60 } else { 1500 };
        let pt = vec![0x44u8; size];
        let sealed = ours.cipher().seal(&NONCE, &AAD, &pt).unwrap();
        let mut out = vec![0u8; size + 16];
        let mut out2 = vec![0u8; size + 16];
        let mut buf: Vec<u8> = Vec::with_capacity(size + 16);
        let mut buf2: Vec<u8> = Vec::with_capacity(size + 16);
        let row = |op: &str, cand: &str, refn: &str, r: (f64, f64, f64, f64, f64)| {
            println!(
                "| {op} | {human} | {cand} | {refn} | {:.1} | {:.1} | {:.3}x | {:.3}-{:.3} |",
                r.4, r.3, r.0, r.1, r.2
            );
        };
        let r = paired(
            || {
                black_box(c_call(&raw, sys::AEAD_SEAL, black_box(&pt), &mut out));
            },
            || {
                black_box(ours.seal_into(black_box(&nonce), black_box(&AAD), black_box(&pt), &mut out2).unwrap());
            },
            block,
            301,
        );
        row("seal", "libaead_seal_into", "c_direct", r);
        let r = paired(
            || {
                black_box(c_call(&raw, sys::AEAD_OPEN, black_box(&sealed), &mut out));
            },
            || {
                black_box(ours.open_into(black_box(&nonce), black_box(&AAD), black_box(&sealed), &mut out2).unwrap());
            },
            block,
            301,
        );
        row("open", "libaead_open_into", "c_direct", r);
        let r = paired(
            || {
                buf2.clear();
                buf2.extend_from_slice(black_box(&pt));
                theirs.encrypt_in_place(black_box(&nonce), black_box(&AAD), &mut buf2).unwrap();
            },
            || {
                buf.clear();
                buf.extend_from_slice(black_box(&pt));
                ours.encrypt_in_place(black_box(&nonce), black_box(&AAD), &mut buf).unwrap();
            },
            block,
            301,
        );
        row("seal", "libaead_encrypt_in_place", "aes_gcm_encrypt_in_place", r);
        let r = paired(
            || {
                buf2.clear();
                buf2.extend_from_slice(black_box(&sealed));
                theirs.decrypt_in_place(black_box(&nonce), black_box(&AAD), &mut buf2).unwrap();
            },
            || {
                buf.clear();
                buf.extend_from_slice(black_box(&sealed));
                ours.decrypt_in_place(black_box(&nonce), black_box(&AAD), &mut buf).unwrap();
            },
            block,
            301,
        );
        row("open", "libaead_decrypt_in_place", "aes_gcm_decrypt_in_place", r);
        assert_eq!(out, out2);
        assert_eq!(buf, buf2);
    }
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(60)
        .configure_from_args();
    benches(&mut c);
    c.final_summary();
    print_table();
    // Skipped when criterion is given a filter or runs in --test / --list mode.
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    if args.is_empty() && !std::env::args().any(|a| a == "--test" || a == "--list") {
        paired_table();
    }
}
