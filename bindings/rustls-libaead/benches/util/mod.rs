//! What the benchmarks share: the rounds `--quick` selects, the median of a round's samples and the
//! JSON file of the results.

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

/// Writes target/`name` in the crate's folder (where bench/all.sh reads it, whatever CARGO_TARGET_DIR
/// says, so the folder may not exist yet): the rustls and libaead versions, `quick`, and `results`
/// (JSON objects).
pub fn write_json(name: &str, quick: bool, results: &[String]) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join(name);
    let doc = format!(
        "{{\"rustls\":\"0.23.46\",\"libaead\":{:?},\"quick\":{quick},\"results\":[\n{}\n]}}\n",
        libaead::version(),
        results.join(",\n")
    );
    std::fs::write(&out, doc).unwrap();
    println!("JSON: {}", out.display());
}
