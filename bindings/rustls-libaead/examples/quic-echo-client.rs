//! quic-echo-client --connect HOST:PORT --ca CERT.pem [--suite NAME] [--bytes N] [--key-update] [--ring]
//!
//! The client of the QUIC echo protocol (quinn, ALPN "libaead-echo"; the server is checked as
//! "localhost" against CERT.pem): opens one bidirectional stream, writes N bytes (default 1 MiB)
//! of the deterministic pattern, finishes, reads the echo and checks it byte for byte. With
//! `--key-update`, forces a key update (`Connection::force_key_update`) after half of the data.
//! `--ring`: rustls's *ring* QUIC packet protection instead of libaead's. On success prints
//!   quic-echo-client: ok bytes=N suite=NAME key_updates=K forgeries=F   (F: n/a with --ring)
//! and exits 0 (K: key updates forced, on libaead checked: the two packet keys an update makes; suite:
//! the `--suite` name, or "any"); any failure or mismatch is a message on standard error, exit 1.
mod common;

use common::args;
use common::quic_echo::{self, Crypto, HANDSHAKE_PACKET_KEYS};
use std::net::ToSocketAddrs;

const USAGE: &str = "usage: quic-echo-client --connect HOST:PORT --ca CERT.pem [--suite NAME] [--bytes N] [--key-update] [--ring]";

fn main() {
    common::exit_on_error("quic-echo-client", run)
}

fn run() -> Result<(), String> {
    let (mut connect, mut ca, mut suite, mut n, mut key_update, mut crypto) =
        (None, None, None, 1usize << 20, false, Crypto::Libaead);
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--connect" => connect = Some(args::value(&flag, &mut it)?),
            "--ca" => ca = Some(args::value(&flag, &mut it)?),
            "--suite" => suite = Some(args::value(&flag, &mut it)?),
            "--bytes" => {
                let v = args::value(&flag, &mut it)?;
                n = v.parse().map_err(|_| format!("--bytes: not a number: {v}"))?;
            }
            "--key-update" => key_update = true,
            "--ring" => crypto = Crypto::Ring,
            f => return Err(format!("unknown option {f}\n{USAGE}")),
        }
    }
    let (Some(connect), Some(ca)) = (connect, ca) else {
        return Err(USAGE.into());
    };
    let addr = connect
        .to_socket_addrs()
        .map_err(|e| format!("--connect {connect}: {e}"))?
        .next()
        .ok_or_else(|| format!("--connect {connect}: no address"))?;
    let config = quic_echo::client_config(crypto, suite.as_deref(), common::certs(&ca)?)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("tokio: {e}"))?;
    // Failed opens on this connection's packet keys (the process makes no other connection).
    let forgeries_before = rustls_libaead::quic_forgeries();
    let echoed = rt.block_on(async move {
        let bind = if addr.is_ipv6() { "[::]:0" } else { "0.0.0.0:0" };
        let endpoint = quinn::Endpoint::client(bind.parse().unwrap())
            .map_err(|e| format!("UDP socket: {e}"))?;
        let r = quic_echo::run_client(&endpoint, config, addr, n, key_update).await;
        endpoint.wait_idle().await;
        r
    })?;
    let key_updates = u64::from(echoed.forced_key_updates);
    // On libaead, the connection must have made more than the handshake's 8 packet keys: at least one
    // key update happened on libaead's side (quinn's own early one may have taken the forced one's place).
    if crypto == Crypto::Libaead && key_updates > 0 && echoed.packet_keys < HANDSHAKE_PACKET_KEYS + 2 {
        return Err(format!(
            "key updates: forced {key_updates}, but libaead made only {} packet keys (the handshake makes {HANDSHAKE_PACKET_KEYS})",
            echoed.packet_keys
        ));
    }
    let forgeries = match crypto {
        Crypto::Libaead => (rustls_libaead::quic_forgeries() - forgeries_before).to_string(),
        Crypto::Ring => "n/a".to_string(),
    };
    println!(
        "quic-echo-client: ok bytes={} suite={} key_updates={key_updates} forgeries={forgeries}",
        echoed.bytes,
        suite.as_deref().unwrap_or("any")
    );
    Ok(())
}
