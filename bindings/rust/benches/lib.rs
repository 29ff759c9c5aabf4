//! Benchmark-only package; see seal_open.rs.
