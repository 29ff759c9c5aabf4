//! One case of a Wycheproof AEAD file, as tests/families.rs and tests/siv.rs run it.
use aead::array::typenum::Unsigned;
use aead::{Aead, AeadCore, AeadInOut, KeyInit, Nonce, Payload};

pub struct Case {
    pub id: String,
    pub key: Vec<u8>,
    pub iv: Vec<u8>,
    pub aad: Vec<u8>,
    pub msg: Vec<u8>,
    /// What the AEAD form seals `msg` to: `ct || tag`, or `tag || ct` for AES-SIV.
    pub sealed: Vec<u8>,
    pub valid: bool,
}

impl Case {
    /// Test `t` of the file `rel`; `tag_first` for AES-SIV's AEAD form.
    pub fn from_json(rel: &str, t: &serde_json::Value, tag_first: bool) -> Case {
        let h = |k: &str| super::hex(t[k].as_str().unwrap());
        let (ct, tag) = (h("ct"), h("tag"));
        Case {
            id: format!("{rel} tcId {}", t["tcId"]),
            key: h("key"),
            iv: h("iv"),
            aad: h("aad"),
            msg: h("msg"),
            sealed: if tag_first { [tag, ct] } else { [ct, tag] }.concat(),
            valid: match t["result"].as_str().unwrap() {
                "valid" | "acceptable" => true,
                "invalid" => false,
                r => panic!("result {r}"),
            },
        }
    }

    /// When the key and nonce sizes are `T`'s: checks that `T`'s `encrypt` gives `sealed` exactly
    /// when the case is valid, and returns the keyed `T` and the nonce for the caller's opens.
    pub fn typed_seal<T: KeyInit + AeadInOut>(&self) -> Option<(T, Nonce<T>)> {
        if self.key.len() != T::key_size() || self.iv.len() != <T as AeadCore>::NonceSize::USIZE {
            return None;
        }
        let c = T::new_from_slice(&self.key).unwrap();
        let nonce = Nonce::<T>::try_from(&self.iv[..]).unwrap();
        let sealed = c.encrypt(&nonce, Payload { msg: &self.msg, aad: &self.aad }).unwrap();
        assert_eq!(sealed == self.sealed, self.valid, "{}: typed encrypt", self.id);
        Some((c, nonce))
    }
}
