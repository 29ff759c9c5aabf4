// For rustls-libaead's blocks (prelude=rustls): `roots`, the client's trust anchors.
#![allow(unused_variables)] // a block may show a config without using it

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let roots = rustls::RootCertStore::empty();
    // BODY
    Ok(())
}
