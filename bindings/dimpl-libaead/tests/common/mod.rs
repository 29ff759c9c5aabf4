//! What the cipher tests and the records bench share (the bench includes this file by its path):
//! dimpl's AAD from bytes, and the DTLS 1.2 and 1.3 records' AAD and nonce.
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

/// A DTLS 1.3 record's AAD, its unified header (0 0 1 C=0 S=1 L=1 E=2, the 16-bit sequence
/// number, the length of the `len` bytes sealed with their 16-byte tag), and its nonce:
/// IV XOR seq (RFC 9147 section 4.2.3).
pub fn dtls13_record(seq: u64, iv: &[u8], len: usize) -> (Vec<u8>, [u8; 12]) {
    let mut a = vec![0x2e];
    a.extend_from_slice(&(seq as u16).to_be_bytes());
    a.extend_from_slice(&((len + 16) as u16).to_be_bytes());
    let mut nonce: [u8; 12] = iv.try_into().unwrap();
    for (b, s) in nonce[4..].iter_mut().zip(seq.to_be_bytes()) {
        *b ^= s;
    }
    (a, nonce)
}
