//! What the two echo examples share: flags, the provider and dimpl configuration, certificates
//! from PEM or DER files, and one dimpl connection driven over a `std::net::UdpSocket`.
#![allow(dead_code)] // each example uses part of it

use dimpl::crypto::{aws_lc_rs, CryptoProvider, Dtls12CipherSuite, Dtls13CipherSuite};
use dimpl::{Config, Dtls, DtlsCertificate, Output};
use std::collections::HashMap;
use std::io::ErrorKind;
use std::net::UdpSocket;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Prints to stderr and exits with status 1.
pub fn fail(msg: impl std::fmt::Display) -> ! {
    eprintln!("{msg}");
    std::process::exit(1)
}

/// `--name value` pairs; only the names given are allowed.
pub fn flags(allowed: &[&str]) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let name = a.strip_prefix("--").unwrap_or_else(|| fail(format!("unexpected argument {a:?}")));
        if !allowed.contains(&name) {
            fail(format!("unknown flag --{name} (flags: --{})", allowed.join(", --")));
        }
        let v = args.next().unwrap_or_else(|| fail(format!("--{name} needs a value")));
        out.insert(name.to_string(), v);
    }
    out
}

/// A duration flag: `250ms`, `2s` or seconds as a number.
pub fn duration(f: &HashMap<String, String>, name: &str, default: Duration) -> Duration {
    let Some(v) = f.get(name) else { return default };
    let parsed = if let Some(ms) = v.strip_suffix("ms") {
        ms.parse::<u64>().ok().map(Duration::from_millis)
    } else {
        v.strip_suffix('s').unwrap_or(v).parse::<f64>().ok().map(Duration::from_secs_f64)
    };
    parsed.unwrap_or_else(|| fail(format!("--{name}: not a duration: {v}")))
}

/// What the flags `--provider`, `--version` and `--suite` chose.
pub struct Setup {
    /// "libaead" or "aws-lc-rs".
    pub provider: String,
    /// true: DTLS 1.3, false: DTLS 1.2.
    pub dtls13: bool,
    pub config: Arc<Config>,
}

const SUITES12: &[(&str, Dtls12CipherSuite)] = &[
    ("ECDHE_ECDSA_AES128_GCM_SHA256", Dtls12CipherSuite::ECDHE_ECDSA_AES128_GCM_SHA256),
    ("ECDHE_ECDSA_AES256_GCM_SHA384", Dtls12CipherSuite::ECDHE_ECDSA_AES256_GCM_SHA384),
    ("ECDHE_ECDSA_CHACHA20_POLY1305_SHA256", Dtls12CipherSuite::ECDHE_ECDSA_CHACHA20_POLY1305_SHA256),
];
const SUITES13: &[(&str, Dtls13CipherSuite)] = &[
    ("AES_128_GCM_SHA256", Dtls13CipherSuite::AES_128_GCM_SHA256),
    ("AES_256_GCM_SHA384", Dtls13CipherSuite::AES_256_GCM_SHA384),
    ("CHACHA20_POLY1305_SHA256", Dtls13CipherSuite::CHACHA20_POLY1305_SHA256),
];

pub fn setup(f: &HashMap<String, String>, server: bool) -> Setup {
    let provider = f.get("provider").map_or("libaead", String::as_str).to_string();
    let crypto: CryptoProvider = match provider.as_str() {
        "libaead" => dimpl_libaead::provider(),
        "aws-lc-rs" => aws_lc_rs::default_provider(),
        p => fail(format!("--provider {p}: libaead or aws-lc-rs")),
    };
    let dtls13 = match f.get("version").map_or("1.3", String::as_str) {
        "1.2" => false,
        "1.3" => true,
        v => fail(format!("--version {v}: 1.2 or 1.3")),
    };
    // Room for the records in flight; the server asks for no client certificate (as
    // openssl s_server does not by default), so `openssl s_client` connects without one.
    let mut b = Config::builder().with_crypto_provider(crypto).max_queue_rx(256).max_queue_tx(256);
    if server {
        b = b.require_client_certificate(false);
    }
    if let Some(name) = f.get("suite") {
        b = if dtls13 {
            let s = SUITES13.iter().find(|(n, _)| n == name).unwrap_or_else(|| {
                fail(format!("--suite {name}: DTLS 1.3 suites: {:?}", SUITES13.iter().map(|s| s.0).collect::<Vec<_>>()))
            });
            b.dtls13_cipher_suites(&[s.1])
        } else {
            let s = SUITES12.iter().find(|(n, _)| n == name).unwrap_or_else(|| {
                fail(format!("--suite {name}: DTLS 1.2 suites: {:?}", SUITES12.iter().map(|s| s.0).collect::<Vec<_>>()))
            });
            b.dtls12_cipher_suites(&[s.1])
        };
    }
    let config = Arc::new(b.build().unwrap_or_else(|e| fail(format!("dimpl config: {e}"))));
    Setup { provider, dtls13, config }
}

/// A certificate or key file: PEM (its first block, base64-decoded) or DER.
pub fn read_der(path: &str) -> Vec<u8> {
    let raw = std::fs::read(path).unwrap_or_else(|e| fail(format!("{path}: {e}")));
    let Ok(text) = std::str::from_utf8(&raw) else { return raw };
    let Some(start) = text.find("-----BEGIN ") else { return raw };
    let body: String = text[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("-----END "))
        .collect::<String>();
    base64(&body).unwrap_or_else(|| fail(format!("{path}: bad PEM")))
}

/// Standard base64 (RFC 4648) with padding; whitespace ignored.
fn base64(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in s.bytes().filter(|c| !c.is_ascii_whitespace() && *c != b'=') {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

pub fn certificate(cert: &str, key: &str) -> DtlsCertificate {
    DtlsCertificate { certificate: read_der(cert), private_key: read_der(key) }
}

/// A datagram that carries protected records: DTLS 1.2 application data (content type 23) or a
/// DTLS 1.3 unified header (first byte 001xxxxx).
fn protected(d: &[u8]) -> bool {
    d.len() > 13 && (d[0] == 23 || d[0] & 0xe0 == 0x20)
}

/// One dimpl connection over a connected UDP socket.
pub struct Conn {
    pub dtls: Dtls,
    pub sock: UdpSocket,
    buf: Vec<u8>,
    next_timeout: Option<Instant>,
    pub libaead: bool,
    pub connected: bool,
    pub closed: bool,
    /// Application data received and not yet taken.
    pub data: Vec<Vec<u8>>,
    /// Datagrams handed to dimpl after the handshake that carried protected records.
    pub protected_in: u64,
    /// Of those, the ones dimpl dropped before any libaead open (its own replay window, or a
    /// record it could not place): libaead's counters did not move.
    pub dropped_by_dimpl: u64,
    /// Errors dimpl returned from handle_packet.
    pub errors: u64,
}

impl Conn {
    /// A dimpl endpoint (client when `client`, else server) on a socket connected to its peer, its
    /// clock started: dimpl takes the time (and draws its random) on the first timeout; a client's
    /// first flight is out when this returns.
    pub fn start(setup: Setup, cert: DtlsCertificate, sock: UdpSocket, client: bool) -> Conn {
        let now = Instant::now();
        let dtls = if setup.dtls13 { Dtls::new_13(setup.config, cert, now) } else { Dtls::new_12(setup.config, cert, now) };
        let mut c = Conn {
            dtls,
            sock,
            buf: vec![0u8; 1 << 16],
            next_timeout: None,
            connected: false,
            closed: false,
            data: Vec::new(),
            protected_in: 0,
            dropped_by_dimpl: 0,
            errors: 0,
            libaead: setup.provider == "libaead",
        };
        c.dtls.set_active(client);
        c.dtls.handle_timeout(now).unwrap_or_else(|e| fail(format!("dimpl: {e}")));
        c.pump();
        c
    }

    /// Sends what dimpl has to send and collects what it delivers, until it asks for a timeout.
    pub fn pump(&mut self) {
        loop {
            match self.dtls.poll_output(&mut self.buf) {
                Output::Packet(p) => {
                    // A full socket buffer loses the datagram, as the network may: DTLS copes.
                    let _ = self.sock.send(p);
                }
                Output::ApplicationData(d) => self.data.push(d.to_vec()),
                Output::Connected => self.connected = true,
                Output::CloseNotify => self.closed = true,
                Output::Timeout(t) => {
                    self.next_timeout = Some(t);
                    return;
                }
                Output::BufferTooSmall { needed } => self.buf.resize(needed, 0),
                _ => {}
            }
        }
    }

    /// Hands one datagram to dimpl.
    pub fn handle(&mut self, d: &[u8]) {
        let watch = self.connected && self.libaead && protected(d);
        let before = if watch { Some(dimpl_libaead::usage()) } else { None };
        if let Err(e) = self.dtls.handle_packet(d) {
            self.errors += 1;
            if self.errors <= 5 {
                eprintln!("dimpl: {e}");
            }
        }
        if let Some(b) = before {
            let a = dimpl_libaead::usage();
            self.protected_in += 1;
            if (a.opened, a.forgeries, a.replays) == (b.opened, b.forgeries, b.replays) {
                self.dropped_by_dimpl += 1;
            }
        }
        self.pump();
    }

    /// Waits for one datagram until `until`, then lets dimpl see the time when its timer is due or
    /// the handshake is under way (dimpl arms a flight's retransmission timer only in
    /// handle_timeout, so a sans-IO caller ticks it while handshaking). Returns false when `until`
    /// passed with nothing received.
    pub fn step(&mut self, until: Instant) -> bool {
        let now = Instant::now();
        let mut wake = self.next_timeout.map_or(until, |t| t.min(until));
        if !self.connected {
            wake = wake.min(now + Duration::from_millis(50));
        }
        let wait = wake.saturating_duration_since(now).max(Duration::from_millis(1));
        self.sock.set_read_timeout(Some(wait)).unwrap_or_else(|e| fail(format!("socket: {e}")));
        let mut dgram = [0u8; 1 << 16];
        let got = match self.sock.recv(&mut dgram) {
            Ok(n) => {
                self.handle(&dgram[..n]);
                true
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => false,
            // Loopback reports an ICMP port-unreachable from an earlier send as an error here.
            Err(e) if e.kind() == ErrorKind::ConnectionRefused => false,
            Err(e) => fail(format!("recv: {e}")),
        };
        let now = Instant::now();
        if !self.connected || self.next_timeout.is_some_and(|t| t <= now) {
            self.next_timeout = None;
            if let Err(e) = self.dtls.handle_timeout(now) {
                fail(format!("dimpl: {e}"));
            }
            self.pump();
        }
        got || now < until
    }

    pub fn send(&mut self, data: &[u8]) {
        if let Err(e) = self.dtls.send_application_data(data) {
            fail(format!("dimpl: send: {e}"));
        }
        self.pump();
    }

    /// The exit line: libaead's counters (the same wording as the pion-libaead examples), then
    /// what dimpl dropped before libaead saw it.
    pub fn report(&self, who: &str) {
        let u = if self.libaead { dimpl_libaead::usage() } else { dimpl_libaead::Usage::default() };
        let layer = if self.libaead { "libaead" } else { "aws-lc-rs only" };
        println!(
            "{who} ({layer}): records opened {}, replays refused {}, forgeries refused {}, records sealed under a DTLS policy {}",
            u.opened, u.replays, u.forgeries, u.seals
        );
        if self.libaead {
            println!(
                "{who}: dimpl dropped {} of {} protected datagrams before libaead saw them (its own replay window)",
                self.dropped_by_dimpl, self.protected_in
            );
        }
    }
}
