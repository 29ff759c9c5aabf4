//! The QUIC echo protocol of quic-echo-client / quic-echo-server (and tests/quinn.rs), over
//! quinn with rustls on libaead's or *ring*'s QUIC packet protection.
//!
//! ALPN "libaead-echo". The client opens one bidirectional stream, writes N bytes of
//! [`pattern`], finishes its send side; the server reads to the end, writes everything back and
//! finishes; the client checks the bytes and closes the connection.
#![allow(dead_code)] // each program uses its own part

use quinn::crypto::rustls::{QuicClientConfig, QuicServerConfig};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::SupportedCipherSuite;
use std::net::SocketAddr;
use std::sync::Arc;

/// The protocol's ALPN.
pub const ALPN: &[u8] = b"libaead-echo";
/// Largest message the server accepts.
pub const MAX_MESSAGE: usize = 64 << 20;

/// Whose QUIC packet protection rustls uses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Crypto {
    Libaead,
    Ring,
}

impl Crypto {
    pub fn name(self) -> &'static str {
        match self {
            Crypto::Libaead => "libaead",
            Crypto::Ring => "ring",
        }
    }

    fn provider(self) -> CryptoProvider {
        match self {
            Crypto::Libaead => rustls_libaead::provider(),
            Crypto::Ring => rustls::crypto::ring::default_provider(),
        }
    }
}

/// The N-byte message: deterministic pseudo-random bytes (xorshift64, seed 0x9e3779b97f4a7c15),
/// the same in every implementation of the echo peers.
pub fn pattern(n: usize) -> Vec<u8> {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// The provider (TLS 1.3 suites only: QUIC), reduced to `suite` if one is named, and the
/// Initial suite quinn needs (TLS13_AES_128_GCM_SHA256 of the same provider, RFC 9001 section 5.2,
/// even when the connection's own suite is another).
fn provider(
    crypto: Crypto,
    suite: Option<&str>,
) -> Result<(Arc<CryptoProvider>, rustls::quic::Suite), String> {
    let mut p = crypto.provider();
    p.cipher_suites.retain(|s| matches!(s, SupportedCipherSuite::Tls13(_)));
    let initial = p
        .cipher_suites
        .iter()
        .find(|s| s.suite() == rustls::CipherSuite::TLS13_AES_128_GCM_SHA256)
        .and_then(|s| s.tls13())
        .and_then(|s| s.quic_suite())
        .ok_or("the provider has no TLS13_AES_128_GCM_SHA256 with QUIC support (Initial packets)")?;
    if let Some(name) = suite {
        p.cipher_suites.retain(|s| s.suite().as_str() == Some(name));
        if p.cipher_suites.is_empty() {
            return Err(format!(
                "--suite: {name} is not a TLS 1.3 suite {} offers here",
                crypto.name()
            ));
        }
    }
    Ok((Arc::new(p), initial))
}

/// quinn's client configuration: rustls on `crypto`, trusting `roots`, ALPN "libaead-echo".
pub fn client_config(
    crypto: Crypto,
    suite: Option<&str>,
    roots: Vec<CertificateDer<'static>>,
) -> Result<quinn::ClientConfig, String> {
    let (provider, initial) = provider(crypto, suite)?;
    let mut store = rustls::RootCertStore::empty();
    for c in roots {
        store.add(c).map_err(|e| format!("CA certificate: {e}"))?;
    }
    let mut tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|e| e.to_string())?
        .with_root_certificates(store)
        .with_no_client_auth();
    tls.alpn_protocols = vec![ALPN.to_vec()];
    let quic = QuicClientConfig::with_initial(Arc::new(tls), initial).map_err(|e| e.to_string())?;
    Ok(quinn::ClientConfig::new(Arc::new(quic)))
}

/// quinn's server configuration: rustls on `crypto` with this certificate chain and key.
pub fn server_config(
    crypto: Crypto,
    suite: Option<&str>,
    certs: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
) -> Result<quinn::ServerConfig, String> {
    let (provider, initial) = provider(crypto, suite)?;
    let mut tls = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| format!("certificate / key: {e}"))?;
    tls.alpn_protocols = vec![ALPN.to_vec()];
    tls.max_early_data_size = 0;
    let quic = QuicServerConfig::with_initial(Arc::new(tls), initial).map_err(|e| e.to_string())?;
    Ok(quinn::ServerConfig::with_crypto(Arc::new(quic)))
}

/// Packet keys a libaead side of one connection makes for the handshake: Initial, Handshake, 1-RTT and
/// the next 1-RTT set that quinn precomputes, a local and a remote key each.
pub const HANDSHAKE_PACKET_KEYS: u64 = 8;

/// What one echo run did.
#[derive(Debug)]
pub struct Echoed {
    pub bytes: usize,
    /// Key updates the client forced (`Connection::force_key_update`).
    pub forced_key_updates: u32,
    /// QUIC packet keys libaead made in this process from before the connection until the echo was
    /// back. A libaead side makes 8 for the handshake (Initial, Handshake, 1-RTT and the precomputed
    /// next 1-RTT set, two each) and 2 more for every key update, whoever starts it: besides the
    /// forced one, quinn starts one on its own after a random 10-1000 packets (quinn-proto
    /// `key_phase_size`), and quic-go every ~100 packets, so only a lower bound is exact.
    pub packet_keys: u64,
}

/// Forces one 1-RTT key update. quinn ignores a forced update while the previous one is still
/// settling (its own early one, or a peer's: quic-go updates every ~100 packets). A libaead side in
/// this process makes the next key set as the update happens, so retry until the packet-key count
/// moves (2 s at most); a process with no libaead side (its handshake made no libaead keys) forces once.
async fn force_key_update(conn: &quinn::Connection, keys_before: u64) {
    let libaead_here = rustls_libaead::quic_packet_keys() > keys_before;
    let until = tokio::time::Instant::now() + std::time::Duration::from_secs(2);
    loop {
        let before = rustls_libaead::quic_packet_keys();
        conn.force_key_update();
        if !libaead_here || rustls_libaead::quic_packet_keys() > before || tokio::time::Instant::now() > until {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
}

/// The client side: connect to `addr` as "localhost", echo `n` bytes, forcing a key update after
/// half and three quarters of them if `key_update`; checks the echo byte for byte.
pub async fn run_client(
    endpoint: &quinn::Endpoint,
    config: quinn::ClientConfig,
    addr: SocketAddr,
    n: usize,
    key_update: bool,
) -> Result<Echoed, String> {
    let keys_before = rustls_libaead::quic_packet_keys();
    let conn = endpoint
        .connect_with(config, addr, "localhost")
        .map_err(|e| format!("connect: {e}"))?
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    let (mut send, mut recv) = conn.open_bi().await.map_err(|e| format!("open stream: {e}"))?;
    let data = pattern(n);
    let half = n / 2;
    send.write_all(&data[..half]).await.map_err(|e| format!("write: {e}"))?;
    let mut forced = 0;
    // Two forced updates, at 1/2 and 3/4 of the data: a peer that starts its own update at the same
    // moment (quic-go) takes a simultaneous one for its own, so one alone may not count as ours there.
    let three_q = half + (n - half) / 2;
    if key_update {
        force_key_update(&conn, keys_before).await;
        forced += 1;
    }
    send.write_all(&data[half..three_q]).await.map_err(|e| format!("write: {e}"))?;
    if key_update {
        force_key_update(&conn, keys_before).await;
        forced += 1;
    }
    send.write_all(&data[three_q..]).await.map_err(|e| format!("write: {e}"))?;
    send.finish().map_err(|e| format!("finish: {e}"))?;
    let back = recv
        .read_to_end(n.saturating_add(1))
        .await
        .map_err(|e| format!("read: {e}"))?;
    let packet_keys = rustls_libaead::quic_packet_keys() - keys_before;
    conn.close(0u32.into(), b"done");
    if back.len() != n {
        return Err(format!("echo mismatch: sent {n} bytes, received {}", back.len()));
    }
    if let Some(i) = back.iter().zip(&data).position(|(a, b)| a != b) {
        return Err(format!("echo mismatch: first differing byte at offset {i}"));
    }
    Ok(Echoed {
        bytes: n,
        forced_key_updates: forced,
        packet_keys,
    })
}

/// The server side of one connection: echo one stream, then wait for the client to close.
/// Returns the number of bytes echoed.
pub async fn serve(incoming: quinn::Incoming) -> Result<usize, String> {
    let conn = incoming.await.map_err(|e| format!("handshake: {e}"))?;
    let (mut send, mut recv) = conn
        .accept_bi()
        .await
        .map_err(|e| format!("accept stream: {e}"))?;
    let data = recv
        .read_to_end(MAX_MESSAGE)
        .await
        .map_err(|e| format!("read: {e}"))?;
    send.write_all(&data).await.map_err(|e| format!("write: {e}"))?;
    send.finish().map_err(|e| format!("finish: {e}"))?;
    // Keep the connection until the client has everything and closes it.
    match conn.closed().await {
        quinn::ConnectionError::ApplicationClosed(_) | quinn::ConnectionError::LocallyClosed => {
            Ok(data.len())
        }
        e => Err(format!("connection: {e}")),
    }
}
