//! dimpl + libaead against dimpl + aws-lc-rs in memory (sans-IO: datagrams passed between two
//! `Dtls` instances): DTLS 1.2 and 1.3, every suite, both roles, 1 MiB echoed; a duplicated
//! datagram and a byte-flipped one, with libaead's counters. One #[test] so that the process-wide
//! counters (`dimpl_libaead::usage`) see one connection at a time.
use dimpl::certificate::generate_self_signed_certificate;
use dimpl::crypto::{aws_lc_rs, CryptoProvider, Dtls12CipherSuite, Dtls13CipherSuite};
use dimpl::{Config, Dtls, Output};
use std::sync::Arc;
use std::time::{Duration, Instant};

const TOTAL: usize = 1 << 20;
const CHUNK: usize = 1000;
const IN_FLIGHT: usize = 16 * CHUNK;

#[derive(Clone, Copy, Debug)]
enum Suite {
    V12(Dtls12CipherSuite),
    V13(Dtls13CipherSuite),
}

fn endpoint(suite: Suite, provider: CryptoProvider, now: Instant) -> Dtls {
    // Room for a window of records in flight (the defaults are 30 in, 10 out).
    let b = Config::builder().with_crypto_provider(provider).max_queue_rx(256).max_queue_tx(256);
    let b = match suite {
        Suite::V12(s) => b.dtls12_cipher_suites(&[s]),
        Suite::V13(s) => b.dtls13_cipher_suites(&[s]),
    };
    let config = Arc::new(b.build().expect("config"));
    let cert = generate_self_signed_certificate().expect("certificate");
    match suite {
        Suite::V12(_) => Dtls::new_12(config, cert, now),
        Suite::V13(_) => Dtls::new_13(config, cert, now),
    }
}

#[derive(Default)]
struct Out {
    packets: Vec<Vec<u8>>,
    data: Vec<Vec<u8>>,
    connected: bool,
}

fn drain(d: &mut Dtls) -> Out {
    let mut out = Out::default();
    let mut buf = vec![0u8; 4096];
    loop {
        match d.poll_output(&mut buf) {
            Output::Packet(p) => out.packets.push(p.to_vec()),
            Output::ApplicationData(a) => out.data.push(a.to_vec()),
            Output::Connected => out.connected = true,
            Output::Timeout(_) => break,
            _ => {}
        }
    }
    out
}

fn deliver(packets: &[Vec<u8>], to: &mut Dtls) {
    for p in packets {
        let _ = to.handle_packet(p); // dimpl reports dropped records; what matters is what arrives
    }
}

fn run(suite: Suite, client_libaead: bool) {
    let what = format!("{suite:?}, libaead {}", if client_libaead { "client" } else { "server" });
    let (ours, theirs) = (dimpl_libaead::provider(), aws_lc_rs::default_provider());
    let mut now = Instant::now();
    let (cp, sp) = if client_libaead { (ours, theirs) } else { (theirs, ours) };
    let mut client = endpoint(suite, cp, now);
    let mut server = endpoint(suite, sp, now);
    client.set_active(true);
    server.set_active(false);
    let (mut c_up, mut s_up) = (false, false);
    for _ in 0..200 {
        client.handle_timeout(now).unwrap();
        server.handle_timeout(now).unwrap();
        let (c, s) = (drain(&mut client), drain(&mut server));
        c_up |= c.connected;
        s_up |= s.connected;
        deliver(&c.packets, &mut server);
        deliver(&s.packets, &mut client);
        if c_up && s_up && c.packets.is_empty() && s.packets.is_empty() {
            break;
        }
        now += Duration::from_millis(10);
    }
    assert!(c_up && s_up, "{what}: handshake did not complete");
    let _ = (drain(&mut client), drain(&mut server));

    // A duplicated datagram: dimpl's own window drops the copy before decrypting, so libaead
    // opens the record once; the data arrives once.
    let before = dimpl_libaead::usage();
    client.send_application_data(b"once").unwrap();
    let c = drain(&mut client);
    assert_eq!(c.packets.len(), 1, "{what}");
    deliver(&[c.packets[0].clone(), c.packets[0].clone()], &mut server);
    let s = drain(&mut server);
    assert_eq!(s.data, vec![b"once".to_vec()], "{what}: the duplicate was delivered");
    let mid = dimpl_libaead::usage();
    assert_eq!(mid.replays, before.replays, "{what}");
    if !client_libaead {
        assert_eq!(mid.forgeries, before.forgeries, "{what}");
    }
    // A byte-flipped datagram (the last byte, in the tag): dimpl hands it to the cipher, which
    // refuses it; on a libaead server that is one forgery in libaead's counters.
    client.send_application_data(b"flip").unwrap();
    let mut p = drain(&mut client).packets.pop().expect("a datagram");
    *p.last_mut().unwrap() ^= 1;
    deliver(&[p], &mut server);
    assert!(drain(&mut server).data.is_empty(), "{what}: a flipped record was delivered");
    let after = dimpl_libaead::usage();
    assert_eq!(after.forgeries - mid.forgeries, u64::from(!client_libaead), "{what}: forgeries counted");

    // 1 MiB from the client, echoed by the server.
    let msg: Vec<u8> = (0..TOTAL).map(|i| (i * 31 + i / 7) as u8).collect();
    let (mut sent, mut echoed) = (0usize, Vec::with_capacity(TOTAL));
    for _ in 0..100_000 {
        while sent < TOTAL && sent - echoed.len() < IN_FLIGHT {
            let n = CHUNK.min(TOTAL - sent);
            client.send_application_data(&msg[sent..sent + n]).unwrap();
            sent += n;
        }
        let c = drain(&mut client);
        for d in c.data {
            echoed.extend_from_slice(&d);
        }
        deliver(&c.packets, &mut server);
        let s = drain(&mut server);
        for d in &s.data {
            server.send_application_data(d).unwrap();
        }
        deliver(&s.packets, &mut client);
        let s = drain(&mut server);
        deliver(&s.packets, &mut client);
        if echoed.len() == TOTAL {
            break;
        }
        now += Duration::from_millis(1);
        client.handle_timeout(now).unwrap();
        server.handle_timeout(now).unwrap();
    }
    assert_eq!(echoed.len(), TOTAL, "{what}: echoed {} of {TOTAL} bytes", echoed.len());
    assert!(echoed == msg, "{what}: the echo differs");
    let end = dimpl_libaead::usage();
    assert_eq!(end.forgeries, after.forgeries, "{what}: a genuine record failed");
    eprintln!(
        "{what}: 1 MiB echoed; libaead: {} seals, {} records accepted into its window, {} forgery",
        end.seals - before.seals,
        end.accepted - before.accepted,
        end.forgeries - before.forgeries
    );
}

#[test]
fn handshakes_and_echo_against_aws_lc_rs() {
    let suites = [
        Suite::V12(Dtls12CipherSuite::ECDHE_ECDSA_AES128_GCM_SHA256),
        Suite::V12(Dtls12CipherSuite::ECDHE_ECDSA_AES256_GCM_SHA384),
        Suite::V12(Dtls12CipherSuite::ECDHE_ECDSA_CHACHA20_POLY1305_SHA256),
        Suite::V13(Dtls13CipherSuite::AES_128_GCM_SHA256),
        Suite::V13(Dtls13CipherSuite::AES_256_GCM_SHA384),
        Suite::V13(Dtls13CipherSuite::CHACHA20_POLY1305_SHA256),
    ];
    let mut runs = 0;
    for suite in suites {
        for client_libaead in [true, false] {
            run(suite, client_libaead);
            runs += 1;
        }
    }
    eprintln!("{runs} connections, 1 MiB echoed on each");
}
