//! quinn on rustls+libaead against quinn on rustls+ring, over loopback UDP in one process: for
//! each TLS 1.3 suite and both roles, 1 MiB each way through the echo protocol of the
//! quic-echo examples, with one forced key update, bytes checked, and a key update seen in the
//! packet keys libaead's side made.
mod common;
#[path = "../examples/common/quic_echo.rs"]
mod quic_echo;

use quic_echo::{Crypto, HANDSHAKE_PACKET_KEYS};
use std::net::SocketAddr;

const MIB: usize = 1 << 20;

/// One connection: a server endpoint on `server`'s crypto, a client on `client`'s; returns the
/// packet keys libaead made for the whole connection (see `quic_echo::Echoed::packet_keys`).
async fn echo(suite: &str, client: Crypto, server: Crypto, n: usize, key_update: bool) -> u64 {
    let id = common::ecdsa();
    let scfg = quic_echo::server_config(server, Some(suite), vec![id.cert.clone()], id.key()).unwrap();
    let ccfg = quic_echo::client_config(client, Some(suite), vec![id.ca.clone()]).unwrap();
    let server_ep = quinn::Endpoint::server(scfg, "127.0.0.1:0".parse().unwrap()).unwrap();
    let addr: SocketAddr = server_ep.local_addr().unwrap();
    let accept = server_ep.clone();
    let served = tokio::spawn(async move { quic_echo::serve(accept.accept().await.unwrap()).await });
    let client_ep = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
    let echoed = quic_echo::run_client(&client_ep, ccfg, addr, n, key_update).await.unwrap();
    assert_eq!(echoed.bytes, n);
    assert_eq!(echoed.forced_key_updates, if key_update { 2 } else { 0 });
    assert_eq!(served.await.unwrap().unwrap(), n, "{suite}: server echoed");
    client_ep.wait_idle().await;
    server_ep.close(0u32.into(), b"");
    server_ep.wait_idle().await;
    echoed.packet_keys
}

// One test, connections one after another: the packet-key counter is process-wide.
#[test]
fn quinn_libaead_against_quinn_ring_every_suite_with_key_update() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        for suite in common::quic_suites() {
            for (client, server) in [(Crypto::Libaead, Crypto::Ring), (Crypto::Ring, Crypto::Libaead)] {
                let plain = tokio::time::timeout(std::time::Duration::from_secs(60), echo(suite, client, server, 64 << 10, false))
                    .await
                    .expect("timeout");
                let updated = tokio::time::timeout(std::time::Duration::from_secs(120), echo(suite, client, server, MIB, true))
                    .await
                    .expect("timeout");
                eprintln!("{suite} client={client:?} server={server:?}: packet keys made by libaead's side: {plain} without, {updated} with a forced key update");
                // 8 for the handshake, 2 more per key update on libaead's side. quinn also starts a key
                // update of its own after a random 10-1000 packets, so the plain 64 KiB run may see
                // one; the 1 MiB run (~800 packets) with a forced update must see at least one.
                assert!(plain >= HANDSHAKE_PACKET_KEYS && plain % 2 == 0, "{suite}: {plain} keys without an update");
                assert!(updated >= HANDSHAKE_PACKET_KEYS + 2, "{suite}: no key update on libaead's side ({updated} keys)");
            }
        }
    });
}
