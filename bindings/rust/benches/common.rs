//! What the benchmarks here share (each includes this file as `mod common`; seal_open.rs and
//! families.rs are the benchmark member's, batch.rs and hpke.rs the binding's own): the
//! interleaved A/B rounds, their median per-round ratio with its quartiles, and the JSON report.
#![allow(dead_code)] // not every benchmark writes the machine-readable report

/// What [`interleaved`] measured: the median per-round ratio candidate / reference with its
/// quartiles, and the median times of both sides.
pub struct Paired {
    pub ratio: f64,
    pub q1: f64,
    pub q3: f64,
    pub ref_ns: f64,
    pub cand_ns: f64,
}

/// `rounds` interleaved A/B rounds: `time(false, r)` times round `r` of the reference,
/// `time(true, r)` the candidate's (both in ns), the candidate first where `candidate_first(r)`.
pub fn interleaved(rounds: usize, candidate_first: impl Fn(usize) -> bool, mut time: impl FnMut(bool, usize) -> f64) -> Paired {
    let (mut ratios, mut ta, mut tb) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..rounds {
        let (a, b) = if candidate_first(r) {
            let b = time(true, r);
            (time(false, r), b)
        } else {
            let a = time(false, r);
            (a, time(true, r))
        };
        ratios.push(b / a);
        ta.push(a);
        tb.push(b);
    }
    let (q1, ratio, q3) = quartiles(&mut ratios);
    Paired { ratio, q1, q3, ref_ns: quartiles(&mut ta).1, cand_ns: quartiles(&mut tb).1 }
}

/// The first quartile, the median and the third quartile of `v` (sorted in place; nearest rank).
pub fn quartiles(v: &mut [f64]) -> (f64, f64, f64) {
    v.sort_by(|x, y| x.partial_cmp(y).unwrap());
    let q = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
    (q(0.25), q(0.5), q(0.75))
}

/// The CPU's model name from /proc/cpuinfo (empty where there is none).
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| t.lines().find(|l| l.starts_with("model name")).map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string()))
        .unwrap_or_default()
}

/// Seconds since the Unix epoch (0 for a clock before it).
pub fn unix_time() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// Writes `doc` (pretty-printed) to `path` and says where.
pub fn write_json(path: &str, doc: &serde_json::Value) {
    std::fs::write(path, serde_json::to_string_pretty(doc).unwrap()).expect("write JSON");
    println!("\nJSON: {path}");
}

/// [`write_json`] to the file LIBAEAD_BENCH_JSON names, else to `default_path`.
pub fn write_report(default_path: &str, doc: &serde_json::Value) {
    write_json(&std::env::var("LIBAEAD_BENCH_JSON").unwrap_or_else(|_| default_path.to_string()), doc);
}
