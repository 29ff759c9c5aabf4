//! Lets this crate's own tests, benchmarks and examples find libaead.so without LD_LIBRARY_PATH:
//! the libaead crate's build script reports where pkg-config found the library (DEP_AEAD_LIBDIR).
//! Like the binding's own rpath, this applies to this package's targets only, never to dependents.

fn main() {
    println!("cargo:rerun-if-env-changed=DEP_AEAD_LIBDIR");
    if let Ok(dir) = std::env::var("DEP_AEAD_LIBDIR") {
        for target in ["tests", "benches", "examples"] {
            println!("cargo:rustc-link-arg-{target}=-Wl,-rpath,{dir}");
        }
    }
}
