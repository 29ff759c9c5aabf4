//! What the cipher tests and the records bench share (the bench includes this file by its path):
//! dimpl's AAD from bytes, and the DTLS 1.2 record's AAD and nonce.
use arrayvec::ArrayVec;
use dimpl::crypto::Aad;

pub fn aad(bytes: &[u8]) -> Aad {
    Aad(ArrayVec::try_from(bytes).unwrap())
}

/// A DTLS 1.2 application-data record's AAD and its RFC nonce: salt || epoch || seq (AES,
/// RFC 6347's explicit nonce) or IV XOR (epoch || seq) (ChaCha20-Poly1305, RFC 7905).
pub fn dtls12_record(epoch: u16, seq: u64, iv: &[u8], len: usize) -> (Vec<u8>, [u8; 12]) {
    let seq_num = ((u64::from(epoch) << 48) | seq).to_be_bytes();
    let mut a = seq_num.to_vec();
    a.extend_from_slice(&[23, 0xfe, 0xfd]);
    a.extend_from_slice(&(len as u16).to_be_bytes());
    let mut nonce = [0u8; 12];
    if iv.len() == 4 {
        nonce[..4].copy_from_slice(iv);
        nonce[4..].copy_from_slice(&seq_num);
    } else {
        nonce.copy_from_slice(iv);
        for (n, s) in nonce[4..].iter_mut().zip(seq_num) {
            *n ^= s;
        }
    }
    (a, nonce)
}
