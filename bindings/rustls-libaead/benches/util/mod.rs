//! What the benchmarks share: the rounds `--quick` selects and the median of a round's samples.

/// (quick, rounds): `--quick` on the command line runs 3 rounds (a smoke run), else 15.
pub fn rounds() -> (bool, usize) {
    let quick = std::env::args().any(|a| a == "--quick");
    (quick, if quick { 3 } else { 15 })
}

/// The median of `v` (sorted in place).
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}
