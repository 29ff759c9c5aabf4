//! quic-echo-server --listen PORT --cert CERT.pem --key KEY.pem [--suite NAME] [--ring]
//!
//! A QUIC echo server (quinn, ALPN "libaead-echo") on 127.0.0.1:PORT (UDP): for each connection,
//! reads one bidirectional stream to its end, writes it all back and finishes. `--suite` limits
//! the TLS 1.3 suite (Initial packets always use TLS13_AES_128_GCM_SHA256, RFC 9001 section 5);
//! `--ring` uses rustls's *ring* QUIC packet protection instead of libaead's (the peer to
//! compare with). Serves until killed, printing one line per connection:
//!   quic-echo-server: peer=ADDR bytes=N forgeries=F total_forgeries=T
//! where F is how many received packets failed authentication under libaead's packet keys while
//! the connection ran (libaead's per-key counts, `aead_ctx_usage`, summed over the process:
//! exact when connections do not overlap; "n/a" with --ring) and T the process total.
mod common;

use common::args;
use common::quic_echo::{self, Crypto};

const USAGE: &str =
    "usage: quic-echo-server --listen PORT --cert CERT.pem --key KEY.pem [--suite NAME] [--ring]";

fn main() {
    common::exit_on_error("quic-echo-server", run)
}

fn run() -> Result<(), String> {
    let (mut suite, mut crypto) = (None, Crypto::Libaead);
    let (port, cert, key) = args::server(USAGE, |flag, it| {
        match flag {
            "--suite" => suite = Some(args::value(flag, it)?),
            "--ring" => crypto = Crypto::Ring,
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    let config = quic_echo::server_config(
        crypto,
        suite.as_deref(),
        common::certs(&cert)?,
        common::key(&key)?,
    )?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("tokio: {e}"))?;
    rt.block_on(async move {
        let endpoint = quinn::Endpoint::server(config, ([127, 0, 0, 1], port).into())
            .map_err(|e| format!("listen on UDP port {port}: {e}"))?;
        while let Some(incoming) = endpoint.accept().await {
            tokio::spawn(async move {
                let peer = incoming.remote_address();
                let before = rustls_libaead::quic_forgeries();
                let result = quic_echo::serve(incoming).await;
                let total = rustls_libaead::quic_forgeries();
                let forgeries = match crypto {
                    Crypto::Libaead => format!("forgeries={} total_forgeries={total}", total - before),
                    Crypto::Ring => "forgeries=n/a".to_string(),
                };
                match result {
                    Ok(n) => println!("quic-echo-server: peer={peer} bytes={n} {forgeries}"),
                    Err(e) => println!("quic-echo-server: peer={peer} error={e:?} {forgeries}"),
                }
            });
        }
        Ok(())
    })
}
