//! dtls-echo-client: a dimpl DTLS client over UDP whose records libaead protects (or, with
//! `--provider aws-lc-rs`, dimpl's own aws-lc-rs provider). It sends `--bytes` bytes in numbered
//! chunks of `--chunk` bytes, one record at a time, and waits for each to come back byte for byte.
//! DTLS does not retransmit application data: a chunk whose echo has not come within `--wait` is
//! sent again (at most `--max-resend` times in all; 0 by default, so any loss fails the run). An
//! echo seen twice is a failure unless its chunk was resent. At exit it says whether the bytes came
//! back byte for byte and prints libaead's counters.
//!
//! ```text
//! dtls-echo-client --connect HOST:PORT [--suite NAME] [--bytes 1048576] [--provider libaead|aws-lc-rs]
//!                  [--version 1.2|1.3] [--chunk 1000] [--wait 1s] [--max-resend 0]
//! ```
//! The server's certificate is not verified (the tests' certificate is self-signed); the client
//! presents a self-signed one of its own, made at start.
mod common;

use common::{duration, fail, Conn};
use std::collections::HashSet;
use std::net::{SocketAddr, ToSocketAddrs, UdpSocket};
use std::time::{Duration, Instant};

fn chunk(i: usize, n: usize) -> Vec<u8> {
    let mut b: Vec<u8> = (0..n).map(|j| (i * 131 + j * 7) as u8).collect();
    let idx = (i as u64).to_be_bytes();
    let k = n.min(8);
    b[..k].copy_from_slice(&idx[..k]);
    b
}

fn number<T: std::str::FromStr>(f: &std::collections::HashMap<String, String>, name: &str, default: T) -> T {
    f.get(name).map_or(Some(default), |v| v.parse().ok()).unwrap_or_else(|| fail(format!("--{name}: not a number")))
}

fn main() {
    let f = common::flags(&["connect", "suite", "bytes", "provider", "version", "chunk", "wait", "max-resend"]);
    let target = f.get("connect").unwrap_or_else(|| fail("--connect HOST:PORT is required"));
    let peer: SocketAddr = target
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .unwrap_or_else(|| fail(format!("--connect {target}: not an address")));
    let total: usize = number(&f, "bytes", 1 << 20);
    let size: usize = number(&f, "chunk", 1000);
    let max_resend: u64 = number(&f, "max-resend", 0);
    let wait = duration(&f, "wait", Duration::from_secs(1));
    if !(8..=1100).contains(&size) {
        fail("--chunk: 8 to 1100 bytes (one record in one datagram)");
    }
    let setup = common::setup(&f, false);
    let cert = dimpl::certificate::generate_self_signed_certificate()
        .unwrap_or_else(|e| fail(format!("client: certificate: {e:?}")));

    let local = if peer.is_ipv6() { "[::]:0" } else { "0.0.0.0:0" };
    let sock = UdpSocket::bind(local).unwrap_or_else(|e| fail(format!("client: bind: {e}")));
    sock.connect(peer).unwrap_or_else(|e| fail(format!("client: connect {peer}: {e}")));
    let mut c = Conn::start(setup, cert, sock, true);
    let hs_deadline = Instant::now() + Duration::from_secs(20);
    while !c.connected && Instant::now() < hs_deadline {
        c.step(hs_deadline);
    }
    if !c.connected {
        c.report("client");
        fail("client: handshake did not complete within 20 s");
    }
    // Whatever came with the handshake's last flight is not an echo.
    c.data.clear();

    let (mut echoed, mut lost, mut wrong, mut resent, mut twice_resent, mut twice) = (0usize, 0u64, 0u64, 0u64, 0u64, 0u64);
    let mut resent_chunks = HashSet::new();
    let chunks = total.div_ceil(size);
    // An extra copy of an earlier chunk's echo: expected once per resend of it, else a duplicate
    // delivered.
    let mut stale = |d: &[u8], i: usize, resent_chunks: &HashSet<usize>| -> bool {
        if d.len() < 8 {
            return false;
        }
        let j = u64::from_be_bytes(d[..8].try_into().expect("8 bytes")) as usize;
        if j >= i || d != chunk(j, d.len()).as_slice() {
            return false;
        }
        if resent_chunks.contains(&j) {
            twice_resent += 1;
        } else {
            twice += 1;
        }
        true
    };
    for i in 0..chunks {
        let want = chunk(i, size.min(total - i * size));
        loop {
            c.send(&want);
            let until = Instant::now() + wait;
            let mut got = Vec::new();
            while got.len() < want.len() {
                for d in std::mem::take(&mut c.data) {
                    if !(got.is_empty() && stale(&d, i, &resent_chunks)) {
                        got.extend_from_slice(&d);
                    }
                }
                if got.len() >= want.len() || !c.step(until) {
                    break;
                }
            }
            if got == want {
                echoed += want.len();
            } else if got.is_empty() && resent < max_resend {
                resent += 1;
                resent_chunks.insert(i);
                continue;
            } else if got.is_empty() {
                lost += 1;
                eprintln!("client: chunk {i} not echoed within {wait:?}");
            } else {
                wrong += 1;
            }
            break;
        }
    }
    // Late copies of the last echoes, then close_notify.
    let linger = Instant::now() + Duration::from_millis(200);
    while c.step(linger) {}
    for d in std::mem::take(&mut c.data) {
        if !stale(&d, chunks, &resent_chunks) {
            wrong += 1;
        }
    }
    if let Err(e) = c.dtls.close() {
        eprintln!("client: close: {e}");
    }
    c.pump();

    let whole = echoed == total && wrong == 0 && twice == 0;
    println!(
        "client: {total} bytes in {chunks} chunks: {echoed} echoed byte for byte, {lost} chunks lost, {wrong} chunks wrong, \
         {resent} resent ({twice_resent} echoes of resent chunks came twice), {twice} echoes delivered twice"
    );
    println!("client: the {total} bytes came back byte for byte, each once: {}", if whole { "yes" } else { "no" });
    c.report("client");
    if !whole {
        std::process::exit(1);
    }
}
