//! Per-record cost of rustls with libaead record protection against rustls with its *ring*
//! provider and against rustls-openssl (fresh OpenSSL cipher context per record), in one process.
//!
//!   cargo bench --bench records            # writes target/rustls-libaead-bench.json
//!   cargo bench --bench records -- --quick # fewer rounds (a smoke run)
//!
//! Each sample sends a batch of records through a real rustls connection pair in memory: "seal"
//! is the client's `writer().write_all` and `write_tls` per record, "open" the server's
//! `read_tls`, `process_new_packets` and `reader().read`. Providers are measured in rotating
//! order within every round; the figures are medians over rounds, and only the ratios (measured
//! side by side) mean anything: absolute times depend on the machine and its load.
#[path = "../tests/common/mod.rs"]
mod common;
mod util;

use rustls::crypto::CryptoProvider;
use rustls::{Connection, SupportedCipherSuite};
use std::io::{Read, Write};
use std::time::Instant;
use util::median;

const SUITES: [&str; 4] = [
    "TLS13_AES_128_GCM_SHA256",
    "TLS13_AES_256_GCM_SHA384",
    "TLS13_CHACHA20_POLY1305_SHA256",
    "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
];
const SIZES: [usize; 3] = [64, 1024, 16384];

struct Contender {
    name: &'static str,
    make: fn() -> CryptoProvider,
}

const CONTENDERS: [Contender; 3] = [
    Contender {
        name: "libaead",
        make: rustls_libaead::provider,
    },
    Contender {
        name: "ring",
        make: rustls::crypto::ring::default_provider,
    },
    Contender {
        name: "rustls-openssl",
        make: rustls_openssl::default_provider,
    },
];

/// Records per sample: enough work for a stable timing, bounded memory.
fn batch(size: usize) -> usize {
    (4 * 1024 * 1024 / (size + 64)).clamp(200, 20_000)
}

fn connected(c: &Contender, suite: SupportedCipherSuite) -> (Connection, Connection) {
    let p = common::only((c.make)(), suite);
    let (mut cl, mut sv) = common::pair(
        common::client_config_with(p.clone(), suite),
        common::server_config_with(p, suite),
    );
    common::handshake(&mut cl, &mut sv);
    (cl, sv)
}

/// Sends `n` records of `size` bytes from `cl` to `sv`; returns ns per record (seal, open).
fn sample(
    cl: &mut Connection,
    sv: &mut Connection,
    size: usize,
    n: usize,
    wire: &mut Vec<u8>,
) -> (f64, f64) {
    let data = vec![0x5a_u8; size];
    wire.clear();
    let t = Instant::now();
    for _ in 0..n {
        cl.writer().write_all(&data).unwrap();
        while cl.wants_write() {
            cl.write_tls(wire).unwrap();
        }
    }
    let seal = t.elapsed();
    let mut buf = vec![0u8; 32 * 1024];
    let (mut rd, mut got) = (&wire[..], 0usize);
    let t = Instant::now();
    while !rd.is_empty() {
        sv.read_tls(&mut rd).unwrap();
        sv.process_new_packets().unwrap();
        while let Ok(k @ 1..) = sv.reader().read(&mut buf) {
            got += k;
        }
    }
    let open = t.elapsed();
    assert_eq!(got, n * size, "every byte arrives");
    (
        seal.as_nanos() as f64 / n as f64,
        open.as_nanos() as f64 / n as f64,
    )
}

fn main() {
    let (quick, rounds) = util::rounds();
    let mut json = Vec::new();
    println!("rustls 0.23.46 record cost, ns per record (median of {rounds} rotating rounds); ratio = libaead / other");
    let names: Vec<_> = CONTENDERS.iter().map(|c| c.name).collect();
    println!(
        "{:<40} {:>6} {:>5} {:>9} {:>9} {:>9} {:>12} {:>12}",
        "suite", "size", "dir", names[0], names[1], "openssl", "vs ring", "vs openssl"
    );
    for name in SUITES {
        let suite = rustls_libaead::suite_by_name(name).unwrap();
        for size in SIZES {
            let n = batch(size);
            let mut conns: Vec<_> = CONTENDERS.iter().map(|c| connected(c, suite)).collect();
            let mut wire = Vec::with_capacity(n * (size + 64));
            let mut seal = vec![Vec::new(); CONTENDERS.len()];
            let mut open = vec![Vec::new(); CONTENDERS.len()];
            // One warm-up sample each, then rounds in rotating order.
            for (cl, sv) in conns.iter_mut() {
                sample(cl, sv, size, n / 4 + 1, &mut wire);
            }
            for r in 0..rounds {
                for k in 0..CONTENDERS.len() {
                    let i = (r + k) % CONTENDERS.len();
                    let (cl, sv) = &mut conns[i];
                    let (s, o) = sample(cl, sv, size, n, &mut wire);
                    seal[i].push(s);
                    open[i].push(o);
                }
            }
            for (dir, samples) in [("seal", &mut seal), ("open", &mut open)] {
                let m: Vec<f64> = samples.iter_mut().map(|v| median(v)).collect();
                println!(
                    "{:<40} {:>6} {:>5} {:>9.0} {:>9.0} {:>9.0} {:>12.3} {:>12.3}",
                    name,
                    size,
                    dir,
                    m[0],
                    m[1],
                    m[2],
                    m[0] / m[1],
                    m[0] / m[2]
                );
                json.push(format!(
                    "{{\"suite\":\"{name}\",\"size\":{size},\"direction\":\"{dir}\",\"records_per_sample\":{n},\
                     \"rounds\":{rounds},\"ns_per_record\":{{\"libaead\":{:.1},\"ring\":{:.1},\"rustls_openssl\":{:.1}}},\
                     \"ratio_libaead_vs_ring\":{:.4},\"ratio_libaead_vs_rustls_openssl\":{:.4}}}",
                    m[0],
                    m[1],
                    m[2],
                    m[0] / m[1],
                    m[0] / m[2]
                ));
            }
        }
    }
    util::write_json("rustls-libaead-bench.json", quick, &json);
}
