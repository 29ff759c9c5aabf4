//! One trait over the two TLS record types, so that tests/tls.rs and tests/tls_iv.rs drive
//! `Tls12Aead` and `Tls13Aead` through the same generic code.
use libaead::{Algorithm, Error, Tls12Aead, Tls13Aead};

pub trait Tls: Sync + Sized {
    const AAD: usize;
    fn make(alg: Algorithm, key: &[u8]) -> Result<Self, Error>;
    /// `with_iv`; a TLS 1.3 IV that is not 12 bytes panics.
    fn with_iv(alg: Algorithm, key: &[u8], iv: &[u8]) -> Result<Self, Error>;
    fn seal_into(&self, n: &[u8; 12], aad: &[u8], pt: &[u8], out: &mut [u8]) -> Result<usize, Error>;
    fn seal_vec_in_place(&self, n: &[u8; 12], aad: &[u8], buf: &mut Vec<u8>) -> Result<(), Error>;
    fn open(&self, n: &[u8; 12], aad: &[u8], ct: &[u8]) -> Result<Vec<u8>, Error>;
}

macro_rules! impl_tls {
    ($t:ty) => {
        impl Tls for $t {
            const AAD: usize = <$t>::AAD_LEN;
            fn make(alg: Algorithm, key: &[u8]) -> Result<Self, Error> {
                <$t>::new(alg, key)
            }
            fn with_iv(alg: Algorithm, key: &[u8], iv: &[u8]) -> Result<Self, Error> {
                <$t>::with_iv(alg, key, iv.try_into().unwrap())
            }
            fn seal_into(&self, n: &[u8; 12], aad: &[u8], pt: &[u8], out: &mut [u8]) -> Result<usize, Error> {
                <$t>::seal_into(self, n, aad, pt, out)
            }
            fn seal_vec_in_place(&self, n: &[u8; 12], aad: &[u8], buf: &mut Vec<u8>) -> Result<(), Error> {
                <$t>::seal_in_place(self, n, aad, buf)
            }
            fn open(&self, n: &[u8; 12], aad: &[u8], ct: &[u8]) -> Result<Vec<u8>, Error> {
                <$t>::open(self, n, aad, ct)
            }
        }
    };
}
impl_tls!(Tls12Aead);
impl_tls!(Tls13Aead);
