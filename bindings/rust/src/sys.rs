//! Raw declarations of the libaead C ABI (`include/aead.h`), one to one.
//!
//! Everything here is `unsafe` to call; the safe types of this crate are built on top of it.
//! It is public for callers that need the flat C API (benchmarks, other bindings).
//!
//! build.rs generates them from the header the crate carries, each with the header's comment as its
//! doc. C's `int` is `c_int` and `size_t` `usize`; a constant has the type of what it is compared
//! with (most enumerators `c_int`, `AEAD_IND_*` `u32`, byte sizes `usize`, limits `u64`). An argument
//! or field named `in` is `input` here, and `final` is `r#final` (Rust keywords).
#![allow(non_camel_case_types, missing_docs)]

include!(concat!(env!("OUT_DIR"), "/sys.rs"));

/// Length of AES-SIV's synthetic IV, the tag at the front of its output. The binding's own: the
/// header has no name for it.
pub const AEAD_SIV_SIZE: usize = 16;
