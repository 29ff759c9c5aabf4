//! Where the conformance vectors are (tests/common/mod.rs, and tests/hpke_pq.rs on its own).
use std::path::PathBuf;

/// The conformance vectors: `$AEAD_VECTORS_DIR` (tests/run-all.sh and test.py set it), or else the
/// directory that the repository's `tests/vectors.py` prints (it fetches them, pinned and checksummed,
/// from crates.io and PyPI into a cache). Panics (the test fails, it is not skipped) without them.
pub fn vectors_dir() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = match std::env::var_os("AEAD_VECTORS_DIR") {
            Some(d) => PathBuf::from(d),
            None => {
                let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors.py");
                let out = std::process::Command::new("python3")
                    .arg(&script)
                    .stderr(std::process::Stdio::inherit())
                    .output()
                    .unwrap_or_else(|e| panic!("AEAD_VECTORS_DIR is not set and {} did not run: {e}", script.display()));
                assert!(out.status.success(), "{} failed: {}", script.display(), out.status);
                let text = String::from_utf8(out.stdout).expect("tests/vectors.py printed UTF-8");
                PathBuf::from(text.trim().lines().last().expect("tests/vectors.py printed a directory"))
            }
        };
        assert!(
            dir.join("wycheproof").is_dir(),
            "test vectors not found at {} (tests/vectors.py fetches them)",
            dir.display()
        );
        dir
    })
    .clone()
}
