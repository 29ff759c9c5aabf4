//! tls-server --listen PORT --cert CERT.pem --key KEY.pem [--suite NAME] [--tls12|--tls13] [--once]
//!            [--provider libaead|ring] [--max-fragment N]
//!
//! Listens on 127.0.0.1:PORT and echoes every byte back, answering the client's close_notify
//! with its own. One thread per connection; with `--once`, serves exactly one connection and
//! exits with its outcome (0 on a clean close). Errors go to standard error, exit status 1.
mod common;

use common::{args, pump};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;

const USAGE: &str = "usage: tls-server --listen PORT --cert CERT.pem --key KEY.pem [--suite NAME] [--tls12|--tls13] [--once] [--provider libaead|ring] [--max-fragment N]";

fn main() {
    common::exit_on_error("tls-server", run)
}

fn run() -> Result<(), String> {
    let (mut once, mut opts) = (false, args::Common::default());
    let (port, cert, key) = args::server(USAGE, |flag, it| match flag {
        "--once" => {
            once = true;
            Ok(true)
        }
        _ => opts.parse(flag, it),
    })?;
    let (provider, versions) = opts.provider()?;
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&versions)
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(common::certs(&cert)?, common::key(&key)?)
        .map_err(|e| format!("{cert}, {key}: {e}"))?;
    config.max_fragment_size = opts.max_fragment;
    let config = Arc::new(config);

    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| format!("listen on port {port}: {e}"))?;
    loop {
        let (sock, peer) = listener.accept().map_err(|e| format!("accept: {e}"))?;
        if once {
            return serve(&config, sock);
        }
        let config = config.clone();
        std::thread::spawn(move || {
            if let Err(e) = serve(&config, sock) {
                eprintln!("tls-server: {peer}: {e}");
            }
        });
    }
}

fn serve(config: &Arc<rustls::ServerConfig>, sock: TcpStream) -> Result<(), String> {
    let conn = rustls::ServerConnection::new(config.clone()).map_err(|e| e.to_string())?;
    let poll = mio::Poll::new().map_err(|e| format!("poll: {e}"))?;
    pump::run(
        &mut conn.into(),
        sock,
        pump::Source::Echo,
        &mut std::io::sink(),
        poll,
    )
}
