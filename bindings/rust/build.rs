//! Finds libaead through pkg-config (aead.pc, or aead-uninstalled.pc from a meson build tree).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    match pkg_config::Config::new().probe("aead") {
        Ok(lib) => {
            for dir in &lib.link_paths {
                // Lets this package's own tests, examples and benchmarks run without
                // LD_LIBRARY_PATH. Applies to this package's targets only, never to dependents.
                println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
                println!("cargo:libdir={}", dir.display());
            }
            for dir in &lib.include_paths {
                println!("cargo:include={}", dir.display());
            }
        }
        Err(err) => {
            eprintln!(
                "\nerror: libaead was not found by pkg-config (no aead.pc on the search path).\n\
                 Either build the C library and point pkg-config at its build tree:\n\
                 \n    export PKG_CONFIG_PATH=<build-dir>/meson-uninstalled\n\
                 \n(and LD_LIBRARY_PATH=<build-dir> when running programs outside this crate),\n\
                 or install it (`meson install -C <build-dir>`) so that aead.pc is in a directory\n\
                 pkg-config searches (add <prefix>/lib/pkgconfig to PKG_CONFIG_PATH for a custom prefix).\n\
                 \npkg-config reported:\n{err}\n"
            );
            std::process::exit(1);
        }
    }
}
