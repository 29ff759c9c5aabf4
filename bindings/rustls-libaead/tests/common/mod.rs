//! Shared by the tests and the benchmark: certificates made by the openssl CLI, client and
//! server configurations for any provider, and an in-memory connection pair.
#![allow(dead_code)] // each test file uses its own part

use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, Iv, MessageDecrypter, MessageEncrypter, OutboundChunks,
    OutboundPlainMessage,
};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::quic::Tag;
use rustls::{
    ClientConfig, ClientConnection, Connection, ContentType, ProtocolVersion, ServerConfig,
    ServerConnection, SupportedCipherSuite,
};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};

/// A leaf certificate for "localhost" / 127.0.0.1 (ECDSA P-256 or RSA 2048) issued by a fresh
/// test CA, with its key and the CA certificate: generated once per test process (openssl CLI).
pub struct Identity {
    pub ca: CertificateDer<'static>,
    pub cert: CertificateDer<'static>,
    pub key_pem: Vec<u8>,
}

impl Identity {
    pub fn key(&self) -> PrivateKeyDer<'static> {
        PrivateKeyDer::from_pem_slice(&self.key_pem).expect("key PEM")
    }
}

fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the openssl CLI is needed to make test certificates");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn generate(kind: &str) -> Identity {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("rustls-libaead-test-{}-{kind}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let newkey: &[&str] = match kind {
        "ecdsa" => &["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"],
        _ => &["-newkey", "rsa:2048"],
    };
    std::fs::write(
        dir.join("leaf.ext"),
        "basicConstraints=critical,CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\n\
         extendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n",
    )
    .unwrap();
    openssl(
        &dir,
        &[
            &[
                "req",
                "-x509",
                "-nodes",
                "-days",
                "2",
                "-subj",
                "/CN=rustls-libaead test CA",
            ][..],
            newkey,
            &["-keyout", "ca.key", "-out", "ca.pem"],
        ]
        .concat(),
    );
    openssl(
        &dir,
        &[
            &["req", "-new", "-nodes", "-subj", "/CN=localhost"][..],
            newkey,
            &["-keyout", "key.pem", "-out", "leaf.csr"],
        ]
        .concat(),
    );
    openssl(
        &dir,
        &[
            "x509",
            "-req",
            "-in",
            "leaf.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            "leaf.ext",
            "-out",
            "cert.pem",
        ],
    );
    let id = Identity {
        ca: CertificateDer::from_pem_file(dir.join("ca.pem")).unwrap(),
        cert: CertificateDer::from_pem_file(dir.join("cert.pem")).unwrap(),
        key_pem: std::fs::read(dir.join("key.pem")).unwrap(),
    };
    let _ = std::fs::remove_dir_all(&dir);
    id
}

pub fn ecdsa() -> &'static Identity {
    static ID: OnceLock<Identity> = OnceLock::new();
    ID.get_or_init(|| generate("ecdsa"))
}

pub fn rsa() -> &'static Identity {
    static ID: OnceLock<Identity> = OnceLock::new();
    ID.get_or_init(|| generate("rsa"))
}

/// The identity a suite needs: RSA for TLS_ECDHE_RSA_*, ECDSA otherwise.
pub fn identity_for(suite: SupportedCipherSuite) -> &'static Identity {
    match suite.suite().as_str() {
        Some(n) if n.starts_with("TLS_ECDHE_RSA") => rsa(),
        _ => ecdsa(),
    }
}

/// Which record protection a side uses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Side {
    Libaead,
    Ring,
}

/// `provider` reduced to the one suite named like `suite`.
pub fn only(mut p: CryptoProvider, suite: SupportedCipherSuite) -> Arc<CryptoProvider> {
    p.cipher_suites.retain(|s| s.suite() == suite.suite());
    assert_eq!(p.cipher_suites.len(), 1, "no {:?}", suite.suite());
    Arc::new(p)
}

pub fn provider_with(side: Side, suite: SupportedCipherSuite) -> Arc<CryptoProvider> {
    only(
        match side {
            Side::Libaead => rustls_libaead::provider(),
            Side::Ring => rustls::crypto::ring::default_provider(),
        },
        suite,
    )
}

pub fn client_config(side: Side, suite: SupportedCipherSuite) -> ClientConfig {
    client_config_with(provider_with(side, suite), suite)
}

pub fn server_config(side: Side, suite: SupportedCipherSuite) -> ServerConfig {
    server_config_with(provider_with(side, suite), suite)
}

pub fn client_config_with(
    provider: Arc<CryptoProvider>,
    suite: SupportedCipherSuite,
) -> ClientConfig {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(identity_for(suite).ca.clone()).unwrap();
    ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[suite.version()])
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth()
}

pub fn server_config_with(
    provider: Arc<CryptoProvider>,
    suite: SupportedCipherSuite,
) -> ServerConfig {
    let id = identity_for(suite);
    ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[suite.version()])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![id.cert.clone()], id.key())
        .unwrap()
}

pub fn pair(client: ClientConfig, server: ServerConfig) -> (Connection, Connection) {
    let name = ServerName::try_from("localhost").unwrap();
    let mut c: Connection = ClientConnection::new(Arc::new(client), name)
        .unwrap()
        .into();
    let mut s: Connection = ServerConnection::new(Arc::new(server)).unwrap().into();
    // The tests move whole messages at once; no back-pressure wanted.
    c.set_buffer_limit(None);
    s.set_buffer_limit(None);
    (c, s)
}

/// Moves every pending TLS byte from `from` to `to`, lets `to` process it, and returns the
/// application data `to` decrypted on the way.
pub fn transfer(from: &mut Connection, to: &mut Connection) -> Result<Vec<u8>, rustls::Error> {
    let mut wire = Vec::new();
    while from.wants_write() {
        from.write_tls(&mut wire).unwrap();
    }
    let mut rd = &wire[..];
    let mut plain = Vec::new();
    while !rd.is_empty() {
        to.read_tls(&mut rd).unwrap();
        to.process_new_packets()?;
        plain.extend(take_plaintext(to));
    }
    Ok(plain)
}

/// Runs the handshake to completion (both sides), panicking on any TLS error.
pub fn handshake(c: &mut Connection, s: &mut Connection) {
    for _ in 0..10 {
        if !c.is_handshaking() && !s.is_handshaking() && !c.wants_write() && !s.wants_write() {
            return;
        }
        transfer(c, s).unwrap();
        transfer(s, c).unwrap();
    }
    panic!("handshake did not complete");
}

/// Everything `conn` has decrypted so far.
pub fn take_plaintext(conn: &mut Connection) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    let mut buf = [0u8; 16384];
    loop {
        match conn.reader().read(&mut buf) {
            Ok(0) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
            Err(e) => panic!("read: {e}"),
        }
    }
    out
}

/// Deterministic pseudo-random bytes (xorshift), so failures reproduce.
pub fn bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// Keeps the packet and header-protection keys rustls derives for it, and nothing else: the only
/// public way to get an `AeadKey` shorter than 32 bytes in rustls 0.23.46 (`AeadKey::from` takes
/// `[u8; 32]`; `AeadKey::new` / `with_length` are crate-private, src/crypto/cipher.rs), since
/// `quic::Keys::initial` derives keys of `aead_key_len()` bytes and hands them to the algorithm.
struct KeyCatcher;

thread_local! {
    static CAUGHT: RefCell<Vec<AeadKey>> = const { RefCell::new(Vec::new()) };
}

/// Never used: `Keys::initial` needs something to return.
struct Unused;

impl rustls::quic::Algorithm for KeyCatcher {
    fn packet_key(&self, key: AeadKey, _iv: Iv) -> Box<dyn rustls::quic::PacketKey> {
        CAUGHT.with(|c| c.borrow_mut().push(key));
        Box::new(Unused)
    }
    fn header_protection_key(&self, key: AeadKey) -> Box<dyn rustls::quic::HeaderProtectionKey> {
        CAUGHT.with(|c| c.borrow_mut().push(key));
        Box::new(Unused)
    }
    fn aead_key_len(&self) -> usize {
        16
    }
}

impl rustls::quic::PacketKey for Unused {
    fn encrypt_in_place(&self, _: u64, _: &[u8], _: &mut [u8]) -> Result<Tag, rustls::Error> {
        unreachable!()
    }
    fn decrypt_in_place<'a>(
        &self,
        _: u64,
        _: &[u8],
        _: &'a mut [u8],
    ) -> Result<&'a [u8], rustls::Error> {
        unreachable!()
    }
    fn tag_len(&self) -> usize {
        unreachable!()
    }
    fn confidentiality_limit(&self) -> u64 {
        unreachable!()
    }
    fn integrity_limit(&self) -> u64 {
        unreachable!()
    }
}

impl rustls::quic::HeaderProtectionKey for Unused {
    fn encrypt_in_place(&self, _: &[u8], _: &mut u8, _: &mut [u8]) -> Result<(), rustls::Error> {
        unreachable!()
    }
    fn decrypt_in_place(&self, _: &[u8], _: &mut u8, _: &mut [u8]) -> Result<(), rustls::Error> {
        unreachable!()
    }
    fn sample_len(&self) -> usize {
        unreachable!()
    }
}

/// A `len`-byte key (16 or 32) determined by `seed`: 32-byte keys are `bytes(32, seed)`; 16-byte
/// ones are the QUIC v1 client initial packet key (HKDF-SHA256, *ring*'s) for the connection ID
/// `bytes(8, seed)`, caught by [`KeyCatcher`]. The same seed gives the same key.
pub fn aead_key(len: usize, seed: u64) -> AeadKey {
    if len == 32 {
        return AeadKey::from(<[u8; 32]>::try_from(bytes(32, seed)).unwrap());
    }
    assert_eq!(len, 16, "keys are 16 or 32 bytes");
    let sha256 = rustls::crypto::ring::cipher_suite::TLS13_AES_128_GCM_SHA256
        .tls13()
        .unwrap();
    CAUGHT.with(|c| c.borrow_mut().clear());
    let _ = rustls::quic::Keys::initial(
        rustls::quic::Version::V1,
        sha256,
        &KeyCatcher,
        &bytes(8, seed),
        rustls::Side::Client,
    );
    let key = CAUGHT.with(|c| c.borrow_mut().drain(..).next()).unwrap();
    assert_eq!(key.as_ref().len(), 16);
    key
}

/// The key length of a suite's AEAD.
pub fn key_len(suite: SupportedCipherSuite) -> usize {
    match suite {
        SupportedCipherSuite::Tls13(s) => s.aead_alg.key_len(),
        SupportedCipherSuite::Tls12(s) => s.aead_alg.key_block_shape().enc_key_len,
    }
}

/// Encrypter and decrypter of a suite for one key ([`aead_key`]) and IV (plus the TLS 1.2 extra
/// key-block bytes).
pub fn keys(
    suite: SupportedCipherSuite,
    seed: u64,
) -> (Box<dyn MessageEncrypter>, Box<dyn MessageDecrypter>) {
    let key = || aead_key(key_len(suite), seed);
    let iv: [u8; 12] = bytes(12, seed + 1).try_into().unwrap();
    match suite {
        SupportedCipherSuite::Tls13(s) => (
            s.aead_alg.encrypter(key(), Iv::from(iv)),
            s.aead_alg.decrypter(key(), Iv::from(iv)),
        ),
        SupportedCipherSuite::Tls12(s) => {
            let shape = s.aead_alg.key_block_shape();
            let fixed = &iv[..shape.fixed_iv_len];
            let extra = bytes(shape.explicit_nonce_len, seed + 2);
            (
                s.aead_alg.encrypter(key(), fixed, &extra),
                s.aead_alg.decrypter(key(), fixed),
            )
        }
    }
}

pub fn plain(typ: ContentType, data: &[u8]) -> OutboundPlainMessage<'_> {
    OutboundPlainMessage {
        typ,
        version: ProtocolVersion::TLSv1_2,
        payload: OutboundChunks::Single(data),
    }
}

/// An application_data record's plaintext, the kind most tests seal.
pub fn app_data(data: &[u8]) -> OutboundPlainMessage<'_> {
    plain(ContentType::ApplicationData, data)
}

pub fn open(
    dec: &mut dyn MessageDecrypter,
    typ: ContentType,
    wire: &[u8],
    seq: u64,
) -> Result<(ContentType, Vec<u8>), rustls::Error> {
    let mut buf = wire.to_vec();
    let msg = InboundOpaqueMessage::new(typ, ProtocolVersion::TLSv1_2, &mut buf);
    dec.decrypt(msg, seq).map(|p| (p.typ, p.payload.to_vec()))
}

/// The TLS 1.3 suites (the QUIC ones) the loaded OpenSSL providers let libaead serve: all three
/// with the default provider, no ChaCha20-Poly1305 under a FIPS-only configuration.
pub fn quic_suites() -> Vec<&'static str> {
    let offered = rustls_libaead::cipher_suites();
    [
        "TLS13_AES_128_GCM_SHA256",
        "TLS13_AES_256_GCM_SHA384",
        "TLS13_CHACHA20_POLY1305_SHA256",
    ]
    .into_iter()
    .filter(|n| offered.iter().any(|s| s.suite().as_str() == Some(n)))
    .collect()
}
