//! fork() (libaead 1.2): a record encrypter made before a fork cannot seal in the child.
//!
//! * Record level: for every suite, the child's `MessageEncrypter::encrypt` with the next sequence
//!   number is an error naming libaead's `AEAD_ERR_FORKED` (-17) rather than a record under a nonce
//!   the parent will also use; the child's decrypter still opens the parent's records; the parent
//!   then seals that same sequence number and its peer opens it.
//! * Connection level: rustls 0.23.46 unwraps the encrypter's result
//!   (`RecordLayer::encrypt_outgoing`), so a `Connection` inherited across fork panics in the
//!   child on its first send instead of sending; it still receives and decrypts. The parent's
//!   connection carries on.
//!
//! `harness = false` (Cargo.toml): a plain single-threaded `main`, so children inherit no harness
//! thread. A child does its checks, writes one 8-byte report per check to a pipe, and leaves with
//! `libc::_exit`, never returning into `main`.
mod common;

use common::{app_data, client_config, handshake, keys, open, pair, server_config, transfer, Side};
use rustls::SupportedCipherSuite;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};

fn pipe() -> (i32, i32) {
    let mut fds = [0i32; 2];
    // SAFETY: fds is a valid array of two ints.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0, "pipe");
    (fds[0], fds[1])
}

/// Forks; the child runs `body` and `_exit`s with its status (101 on a panic). Writes the child's
/// report (`body`'s `Vec<i64>`, 8 bytes each) to a pipe; returns it and the exit status.
fn in_child(body: impl FnOnce() -> Vec<i64>) -> (Vec<i64>, i32) {
    let (rd, wr) = pipe();
    // SAFETY: single-threaded here (harness = false); the child leaves through _exit.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork");
    if pid == 0 {
        // SAFETY: the child's copy of the read end.
        unsafe { libc::close(rd) };
        let code = match catch_unwind(AssertUnwindSafe(body)) {
            Ok(report) => {
                let bytes: Vec<u8> = report.iter().flat_map(|v| v.to_le_bytes()).collect();
                // SAFETY: a live buffer; a report is far below the pipe's capacity.
                let n = unsafe { libc::write(wr, bytes.as_ptr().cast(), bytes.len()) };
                if n == bytes.len() as isize {
                    0
                } else {
                    1
                }
            }
            Err(_) => 101,
        };
        // SAFETY: ends the child without the parent's exit handlers or destructors.
        unsafe { libc::_exit(code) }
    }
    // SAFETY: the parent's copy of the write end.
    unsafe { libc::close(wr) };
    let mut out = Vec::new();
    let mut buf = [0u8; 512];
    loop {
        // SAFETY: a live buffer.
        let n = unsafe { libc::read(rd, buf.as_mut_ptr().cast(), buf.len()) };
        if n <= 0 {
            break;
        }
        out.extend_from_slice(&buf[..n as usize]);
    }
    // SAFETY: our read end.
    unsafe { libc::close(rd) };
    let mut status = 0;
    // SAFETY: status is a valid int.
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { 128 + libc::WTERMSIG(status) };
    (out.chunks(8).map(|c| i64::from_le_bytes(c.try_into().unwrap())).collect(), code)
}

/// The suites the loaded providers serve (AES-128 keys: common::aead_key).
fn suites() -> Vec<SupportedCipherSuite> {
    rustls_libaead::cipher_suites()
}

fn encrypter_in_child_reports_forked() {
    let forked = format!("libaead error {}", libaead::sys::AEAD_ERR_FORKED);
    // The opt-in AES-128-CCM too (record level: the connection test needs a *ring* peer).
    for suite in suites().into_iter().chain(rustls_libaead::opt_in_cipher_suites()) {
        let (mut enc, mut dec) = keys(suite, 5);
        let r0 = enc.encrypt(app_data(b"parent 0"), 0).unwrap();
        let wire0 = r0.payload.as_ref().to_vec();
        let (report, status) = in_child(|| {
            // 0: the next sequence is refused with AEAD_ERR_FORKED (1 = sealed, 2 = another error).
            let seal = match enc.encrypt(app_data(b"child 1"), 1) {
                Ok(_) => 1,
                Err(rustls::Error::General(m)) if m.contains(&forked) => 0,
                Err(_) => 2,
            };
            // 1: so is a far one. 2: the parent's record still opens here.
            let far = i64::from(enc.encrypt(app_data(b"child far"), 1 << 40).is_ok());
            let opened = match open(dec.as_mut(), r0.typ, &wire0, 0) {
                Ok((_, p)) if p == b"parent 0" => 0,
                _ => 1,
            };
            vec![seal, far, opened]
        });
        assert_eq!((report, status), (vec![0, 0, 0], 0), "{:?}: [child seal refused as forked, far seal refused, open]", suite.suite());
        // The parent is unaffected: sequence 1 (which the child tried) seals and opens.
        let r1 = enc.encrypt(app_data(b"parent 1"), 1).unwrap();
        assert_eq!(open(dec.as_mut(), r1.typ, r1.payload.as_ref(), 1).unwrap().1, b"parent 1");
    }
}

fn connection_in_child_cannot_send() {
    for suite in suites() {
        // Our client; a ring server, so that the child can receive from an inherited peer.
        let (mut c, mut s) = pair(client_config(Side::Libaead, suite), server_config(Side::Ring, suite));
        handshake(&mut c, &mut s);
        c.writer().write_all(b"before").unwrap();
        assert_eq!(transfer(&mut c, &mut s).unwrap(), b"before");
        let (report, status) = in_child(|| {
            // 0: receiving works (the decrypter opens in the child).
            s.writer().write_all(b"to the child").unwrap();
            let received = i64::from(transfer(&mut s, &mut c).ok().as_deref() != Some(&b"to the child"[..]));
            // 1: sending panics inside rustls (it unwraps our AEAD_ERR_FORKED error); 2: and
            // nothing reached the wire.
            std::panic::set_hook(Box::new(|_| {}));
            let sent = catch_unwind(AssertUnwindSafe(|| c.writer().write_all(b"from the child")));
            let mut wire = Vec::new();
            let _ = catch_unwind(AssertUnwindSafe(|| {
                while c.wants_write() {
                    c.write_tls(&mut wire).unwrap();
                }
            }));
            vec![received, i64::from(sent.is_ok()), i64::from(!wire.is_empty())]
        });
        assert_eq!((report, status), (vec![0, 0, 0], 0), "{:?}: [child receives, child send panics, no bytes sent]", suite.suite());
        // The parent's connection carries on both ways.
        c.writer().write_all(b"after").unwrap();
        assert_eq!(transfer(&mut c, &mut s).unwrap(), b"after");
        s.writer().write_all(b"back").unwrap();
        assert_eq!(transfer(&mut s, &mut c).unwrap(), b"back");
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        println!("fork: test");
        return;
    }
    type Case = (&'static str, fn());
    let cases: [Case; 2] = [
        ("encrypter_in_child_reports_forked", encrypter_in_child_reports_forked),
        ("connection_in_child_cannot_send", connection_in_child_cannot_send),
    ];
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let (mut passed, mut failed) = (0, Vec::new());
    println!("\nrunning {} tests (single-threaded, harness = false)", cases.len());
    for (name, f) in cases {
        if !filter.is_empty() && !filter.iter().any(|p| name.contains(p.as_str())) {
            continue;
        }
        if catch_unwind(f).is_ok() {
            println!("test {name} ... ok");
            passed += 1;
        } else {
            println!("test {name} ... FAILED");
            failed.push(name);
        }
    }
    let verdict = if failed.is_empty() { "ok" } else { "FAILED" };
    println!("\ntest result: {verdict}. {passed} passed; {} failed\n", failed.len());
    if !failed.is_empty() {
        std::process::exit(1);
    }
}
