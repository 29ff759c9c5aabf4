// For dimpl-libaead's blocks (prelude=dimpl): `certificate`, a self-signed DTLS certificate.
#![allow(unused_variables)] // a block may show a value without using it

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let certificate = dimpl::certificate::generate_self_signed_certificate()?;
    // BODY
    Ok(())
}
