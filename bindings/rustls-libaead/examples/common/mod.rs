//! Shared by the tls-client and tls-server examples.
#![allow(dead_code)] // each example uses its own part

pub mod args;
pub mod pump;
pub mod quic_echo;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// Every certificate in a PEM file.
pub fn certs(path: &str) -> Result<Vec<CertificateDer<'static>>, String> {
    let certs = CertificateDer::pem_file_iter(path)
        .map_err(|e| format!("{path}: {e}"))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("{path}: {e}"))?;
    if certs.is_empty() {
        return Err(format!("{path}: no certificate"));
    }
    Ok(certs)
}

/// The private key in a PEM file (PKCS#8, SEC1 or PKCS#1).
pub fn key(path: &str) -> Result<PrivateKeyDer<'static>, String> {
    PrivateKeyDer::from_pem_file(path).map_err(|e| format!("{path}: {e}"))
}

/// Runs `main`, printing its error as `NAME: error` on standard error with exit status 1.
pub fn exit_on_error(name: &str, main: impl FnOnce() -> Result<(), String>) -> ! {
    match main() {
        Ok(()) => std::process::exit(0),
        Err(e) => {
            eprintln!("{name}: {e}");
            std::process::exit(1)
        }
    }
}
