// The names the documents' Rust blocks use undeclared: a 32-byte key and a 12-byte nonce.
// A block is a body of main, so `?` works as in a function returning Result.
#![allow(unused_variables)] // a block may show a result without using it

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let key = [7u8; 32];
    let nonce = [1u8; 12];
    // BODY
    Ok(())
}
