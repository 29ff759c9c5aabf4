//! tls-client --connect HOST:PORT --ca CERT.pem [--suite NAME] [--tls12|--tls13]
//!            [--provider libaead|ring] [--max-fragment N]
//!
//! Connects, sends its standard input, half-closes (close_notify, then TCP shutdown), prints
//! everything it receives to standard output and exits 0 on a clean close (the peer's
//! close_notify). Any error goes to standard error with exit status 1.
mod common;

use common::{args, pump};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::Arc;

const USAGE: &str = "usage: tls-client --connect HOST:PORT --ca CERT.pem [--suite NAME] [--tls12|--tls13] [--provider libaead|ring] [--max-fragment N]";

fn main() {
    common::exit_on_error("tls-client", run)
}

fn run() -> Result<(), String> {
    let (mut connect, mut ca, mut opts) = (None, None, args::Common::default());
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--connect" => connect = Some(args::value(&flag, &mut it)?),
            "--ca" => ca = Some(args::value(&flag, &mut it)?),
            f if opts.parse(f, &mut it)? => {}
            f => return Err(format!("unknown option {f}\n{USAGE}")),
        }
    }
    let (connect, ca) = match (connect, ca) {
        (Some(c), Some(a)) => (c, a),
        _ => return Err(USAGE.into()),
    };
    let host = connect
        .rsplit_once(':')
        .map(|(h, _)| h.trim_start_matches('[').trim_end_matches(']').to_owned())
        .ok_or_else(|| format!("--connect: expected HOST:PORT, got {connect}"))?;
    let server_name = rustls::pki_types::ServerName::try_from(host.clone())
        .map_err(|e| format!("--connect: {host}: {e}"))?;

    let mut roots = rustls::RootCertStore::empty();
    for cert in common::certs(&ca)? {
        roots.add(cert).map_err(|e| format!("{ca}: {e}"))?;
    }
    let (provider, versions) = opts.provider()?;
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&versions)
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.max_fragment_size = opts.max_fragment;
    let conn =
        rustls::ClientConnection::new(Arc::new(config), server_name).map_err(|e| e.to_string())?;

    let addr = connect
        .to_socket_addrs()
        .map_err(|e| format!("--connect: {connect}: {e}"))?
        .next()
        .ok_or_else(|| format!("--connect: {connect}: no address"))?;
    let sock = TcpStream::connect(addr).map_err(|e| format!("connect {addr}: {e}"))?;
    let (poll, waker) = pump::poll_with_waker().map_err(|e| format!("poll: {e}"))?;
    let input = pump::spawn_reader(std::io::stdin(), waker);
    let mut stdout = std::io::stdout().lock();
    pump::run(
        &mut conn.into(),
        sock,
        pump::Source::Chunks(input),
        &mut stdout,
        poll,
    )
}
