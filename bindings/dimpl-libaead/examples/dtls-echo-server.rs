//! dtls-echo-server: a dimpl DTLS server over UDP whose records libaead protects (or, with
//! `--provider aws-lc-rs`, dimpl's own aws-lc-rs provider); it serves one client, echoes every
//! record it receives, and exits when the client sends close_notify or, once data has come, falls
//! silent for `--idle`, printing libaead's counters.
//!
//! ```text
//! dtls-echo-server --listen PORT --cert C --key K [--suite NAME] [--provider libaead|aws-lc-rs]
//!                  [--version 1.2|1.3] [--idle 3s] [--timeout 60s]
//! ```
//! `--listen` takes a port (bound on 127.0.0.1) or HOST:PORT; C and K are PEM or DER (an ECDSA key,
//! PKCS#8 or SEC1). The client is not asked for a certificate.
mod common;

use common::{duration, fail, Conn};
use std::net::UdpSocket;
use std::time::{Duration, Instant};

fn main() {
    let f = common::flags(&["listen", "cert", "key", "suite", "provider", "version", "idle", "timeout"]);
    let listen = f.get("listen").unwrap_or_else(|| fail("--listen PORT is required"));
    let addr = if listen.contains(':') { listen.clone() } else { format!("127.0.0.1:{listen}") };
    let (Some(cert), Some(key)) = (f.get("cert"), f.get("key")) else { fail("--cert and --key are required") };
    let idle = duration(&f, "idle", Duration::from_secs(3));
    let deadline = Instant::now() + duration(&f, "timeout", Duration::from_secs(60));
    let setup = common::setup(&f, true);
    let cert = common::certificate(cert, key);

    let sock = UdpSocket::bind(&addr).unwrap_or_else(|e| fail(format!("server: bind {addr}: {e}")));
    // The first datagram names the client; the socket is then connected to it alone.
    let mut first = [0u8; 1 << 16];
    sock.set_read_timeout(Some(deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(1))))
        .unwrap_or_else(|e| fail(format!("socket: {e}")));
    let (n, peer) = sock.recv_from(&mut first).unwrap_or_else(|e| fail(format!("server: no client: {e}")));
    sock.connect(peer).unwrap_or_else(|e| fail(format!("server: connect {peer}: {e}")));
    let mut c = Conn::start(setup, cert, sock, false);
    c.handle(&first[..n]);

    let (mut records, mut bytes) = (0u64, 0usize);
    let mut last = Instant::now();
    while !c.closed && Instant::now() < deadline && (records == 0 || last.elapsed() < idle) {
        if c.step((last + idle).min(deadline)) {
            last = Instant::now();
        }
        for d in std::mem::take(&mut c.data) {
            records += 1;
            bytes += d.len();
            c.send(&d);
        }
    }
    let how = if c.closed {
        "close_notify"
    } else if c.connected {
        "the client fell silent"
    } else {
        "no handshake"
    };
    println!("server: echoed {bytes} bytes in {records} records, until {how}");
    c.report("server");
    if !c.connected {
        std::process::exit(1);
    }
}
