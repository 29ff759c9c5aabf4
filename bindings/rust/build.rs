//! Links libaead, one of two ways (the libsqlite3-sys convention):
//!
//! * feature `bundled` (default): compiles ../../lib/*.cpp and ../../shim/*.cpp with the `cc`
//!   crate into a static library inside this crate, linked to libcrypto: the system one found by
//!   pkg-config, or with feature `vendored` the OpenSSL that the `openssl-src` crate builds.
//! * without `bundled` (`default-features = false`), or with `LIBAEAD_SYS_USE_PKG_CONFIG=1` set:
//!   an installed libaead found by pkg-config (aead.pc, or aead-uninstalled.pc from a meson tree).
use std::env;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=LIBAEAD_SYS_USE_PKG_CONFIG");
    let force_system = env::var_os("LIBAEAD_SYS_USE_PKG_CONFIG").is_some_and(|v| v != "0" && !v.is_empty());
    if cfg!(feature = "bundled") && !force_system {
        #[cfg(feature = "bundled")]
        bundled::build();
    } else {
        system();
    }
}

/// An installed libaead through pkg-config.
fn system() {
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    match pkg_config::Config::new().atleast_version("1.2.0").probe("aead") {
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
                "\nerror: libaead >= 1.2.0 was not found by pkg-config (this build links an installed\n\
                 libaead because the `bundled` feature is off or LIBAEAD_SYS_USE_PKG_CONFIG is set).\n\
                 Either build the C library and point pkg-config at its build tree:\n\
                 \n    export PKG_CONFIG_PATH=<build-dir>/meson-uninstalled\n\
                 \n(and LD_LIBRARY_PATH=<build-dir> when running programs outside this crate),\n\
                 or install it (`meson install -C <build-dir>`) so that aead.pc is in a directory\n\
                 pkg-config searches (add <prefix>/lib/pkgconfig to PKG_CONFIG_PATH for a custom prefix),\n\
                 or build the bundled copy instead (the default `bundled` feature, LIBAEAD_SYS_USE_PKG_CONFIG unset).\n\
                 \npkg-config reported:\n{err}\n"
            );
            std::process::exit(1);
        }
    }
}

#[cfg(feature = "bundled")]
mod bundled {
    use std::env;
    use std::path::{Path, PathBuf};

    /// The repository root: the C sources live two levels up. A crate published on its own would
    /// have to carry lib/, shim/, include/ and meson.build inside its package instead.
    fn source_root() -> PathBuf {
        let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
        let root = manifest.join("../..");
        if !root.join("lib/abi.cpp").is_file() || !root.join("include/aead.h").is_file() {
            eprintln!(
                "\nerror: the `bundled` feature compiles libaead from {}/lib and shim, which are missing.\n\
                 Use this crate from the libaead repository (path dependency), or turn `bundled` off\n\
                 (default-features = false) to link an installed libaead through pkg-config.\n",
                root.display()
            );
            std::process::exit(1);
        }
        root
    }

    /// meson.build's `version : 'X.Y.Z'`, so the bundled copy reports what a meson build would.
    fn meson_version(root: &Path) -> String {
        let text = std::fs::read_to_string(root.join("meson.build")).expect("read meson.build");
        let rest = &text[text.find("version :").expect("meson.build has a version") + 9..];
        let start = rest.find('\'').expect("quoted version") + 1;
        let end = start + rest[start..].find('\'').expect("quoted version");
        rest[start..end].to_string()
    }

    /// The C++ sources meson compiles, minus the test-only fault injection.
    fn sources(dir: &Path) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .expect("read source dir")
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "cpp"))
            .filter(|p| p.file_name().is_some_and(|n| n != "fault_injection.cpp"))
            .collect();
        v.sort();
        v
    }

    /// Include directories of the libcrypto to compile shim/ against, and the link lines to emit
    /// after the static library (so the linker resolves its libcrypto references).
    fn libcrypto() -> (Vec<PathBuf>, Vec<String>) {
        #[cfg(feature = "vendored")]
        {
            let artifacts = openssl_src::Build::new().build();
            // Only libcrypto: openssl-src's own print_cargo_metadata would also claim this
            // crate's `include` metadata key and link libssl.
            let link = vec![
                format!("cargo:rustc-link-search=native={}", artifacts.lib_dir().display()),
                "cargo:rustc-link-lib=static=crypto".to_string(),
                format!("cargo:libcrypto=vendored {}", openssl_src::version()),
            ];
            (vec![artifacts.include_dir().to_path_buf()], link)
        }
        #[cfg(not(feature = "vendored"))]
        {
            println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
            match pkg_config::Config::new().atleast_version("3.0").cargo_metadata(false).probe("libcrypto") {
                Ok(lib) => {
                    let mut link: Vec<String> = lib
                        .link_paths
                        .iter()
                        .map(|d| format!("cargo:rustc-link-search=native={}", d.display()))
                        .collect();
                    link.extend(lib.libs.iter().map(|l| format!("cargo:rustc-link-lib={l}")));
                    link.push(format!("cargo:libcrypto=system {}", lib.version));
                    (lib.include_paths, link)
                }
                Err(err) => {
                    eprintln!(
                        "\nerror: the bundled libaead needs OpenSSL >= 3.0's libcrypto, which pkg-config did not find\n\
                         (apt-get install libssl-dev pkg-config), or enable the `vendored` feature to build OpenSSL\n\
                         from the openssl-src crate.\n\npkg-config reported:\n{err}\n"
                    );
                    std::process::exit(1);
                }
            }
        }
    }

    pub(super) fn build() {
        let root = source_root();
        let version = meson_version(&root);
        let soversion = version.split('.').next().unwrap_or("1").to_string();
        for dir in ["lib", "shim", "include"] {
            println!("cargo:rerun-if-changed={}", root.join(dir).display());
        }
        println!("cargo:rerun-if-changed={}", root.join("meson.build").display());

        let (crypto_includes, crypto_link) = libcrypto();
        let mut cc = cc::Build::new();
        cc.cpp(true)
            .std("c++20")
            // The flags of meson.build that matter: one export macro over hidden visibility, and
            // the library's no-exceptions / no-RTTI build. -O2 as meson's default build type, in
            // every cargo profile (a debug build of the C++ would only slow the tests).
            .opt_level(2)
            .flag("-fvisibility=hidden")
            .flag("-fvisibility-inlines-hidden")
            .flag("-fno-exceptions")
            .flag("-fno-rtti")
            .define("AEAD_BUILDING_LIBRARY", None)
            .define("LIBAEAD_VERSION", format!("\"{version}\"").as_str())
            .define("LIBAEAD_SOVERSION", soversion.as_str())
            .include(root.join("include"))
            // Users' compilers may warn where the project's CI does not; never fail their build.
            .warnings(false)
            .cargo_warnings(false);
        for dir in &crypto_includes {
            cc.include(dir);
        }
        cc.files(sources(&root.join("lib")));
        cc.files(sources(&root.join("shim")));
        cc.compile("aead_bundled");
        for line in crypto_link {
            println!("{line}");
        }
        println!("cargo:include={}", root.join("include").display());
        println!("cargo:version={version}");
    }
}
