//! fork() (library 1.2): a random-nonce context keeps sealing in the parent, a child and
//! a grandchild with no nonce ever repeated, after 0, 1, 31 and 100 seals before the fork (and
//! after seals from other, joined, threads); a TLS-policy context created before the fork refuses
//! seals in the child with `Error::Forked` (nothing written, open works, a context made in the
//! child works), and the parent is unaffected; so does a counter-nonce context (library 1.5) and an
//! HPKE sender context (library 1.6).
//!
//! `harness = false` (Cargo.toml): this is a plain `main`, single-threaded whenever it forks, so
//! the children inherit no test-harness thread or lock. A child only seals and opens with
//! libaead into stack buffers, `write`s fixed-size messages to a pipe (each below PIPE_BUF, so
//! atomic), may fork and `waitpid` a grandchild, and leaves with `libc::_exit`: it never returns
//! into this `main`, never unwinds past its body (`catch_unwind`), and never runs destructors
//! or atexit handlers it shares with the parent.
mod common;

use common::counter::{CounterAead, SSH_AAD};
use libaead::{
    tls13_nonce, Aes128GcmCounterNonce, Aes256GcmRandomNonce, Aes256GcmSsh, Algorithm, ChaCha20Poly1305XorCounterNonce,
    Cipher, Error, Policy, Record, Tls12Aead, Tls13Aead,
};
use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};

const KEY: [u8; 32] = [0x5a; 32];
const AAD: &[u8] = b"fork";
const MSG: &[u8; 4] = b"ping";
/// One random-nonce record: nonce(12) || ciphertext(4) || tag(16).
const SEALED: usize = 12 + MSG.len() + 16;
/// One pipe message: who sealed (1 child, 2 grandchild, 3 child after the grandchild's fork) and the record.
const MSG_LEN: usize = 1 + SEALED;
/// Seals per process and phase after the fork.
const AFTER: usize = 100;

/// `pipe()`, or a panic (in the parent).
fn pipe() -> (i32, i32) {
    let mut fds = [0i32; 2];
    // SAFETY: fds is a valid array of two ints.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0, "pipe");
    (fds[0], fds[1])
}

/// Writes all of `buf` (retrying on EINTR); false on any other failure.
fn write_all(fd: i32, mut buf: &[u8]) -> bool {
    while !buf.is_empty() {
        // SAFETY: buf is a live slice.
        let n = unsafe { libc::write(fd, buf.as_ptr().cast(), buf.len()) };
        if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        if n <= 0 {
            return false;
        }
        buf = &buf[n as usize..];
    }
    true
}

/// Everything until EOF (in the parent).
fn read_to_end(fd: i32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        // SAFETY: buf is a live array.
        let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        assert!(n >= 0, "read: {}", std::io::Error::last_os_error());
        if n == 0 {
            return out;
        }
        out.extend_from_slice(&buf[..n as usize]);
    }
}

/// Waits for `pid`; its exit status (or 128 + signal).
fn wait(pid: libc::pid_t) -> i32 {
    let mut status = 0;
    loop {
        // SAFETY: status is a valid int.
        let r = unsafe { libc::waitpid(pid, &mut status, 0) };
        if r == pid {
            break;
        }
        if r < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        return 255;
    }
    if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    }
}

/// Forks; in the child runs `body` (which returns its exit status) and `_exit`s with it, a
/// panic becoming status 101. Returns the child's pid in the parent.
fn spawn(body: impl FnOnce() -> i32) -> libc::pid_t {
    // SAFETY: this process is single-threaded here (harness = false, every helper thread joined),
    // and the child leaves through _exit below without returning.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork: {}", std::io::Error::last_os_error());
    if pid == 0 {
        let code = catch_unwind(AssertUnwindSafe(body)).unwrap_or(101);
        // SAFETY: ends the child without running the parent's exit handlers or destructors.
        unsafe { libc::_exit(code) }
    }
    pid
}

/// `n` random-nonce seals into `tag || record` messages written to `fd`; false on any failure.
fn seal_and_send(c: &Aes256GcmRandomNonce, tag: u8, n: usize, fd: i32) -> bool {
    for _ in 0..n {
        let mut m = [0u8; MSG_LEN];
        m[0] = tag;
        if c.seal_into(AAD, MSG, &mut m[1..]) != Ok(SEALED) || !write_all(fd, &m) {
            return false;
        }
    }
    true
}

/// Random nonces across fork: `before` seals in this thread and `before_threads` in each of two
/// other threads (joined) before the fork; then the parent, the child, a grandchild and the
/// child again after the grandchild's fork seal `AFTER` each. All nonces distinct, every record
/// opens in the parent.
fn random_nonce_across_fork(before: usize, before_threads: usize) {
    let c = Aes256GcmRandomNonce::try_new(&KEY.into()).unwrap();
    let mut nonces: Vec<[u8; 12]> = Vec::new();
    let mut records: Vec<Vec<u8>> = Vec::new();
    for _ in 0..before {
        records.push(c.seal(AAD, MSG).unwrap());
    }
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..2)
            .map(|_| s.spawn(|| (0..before_threads).map(|_| c.seal(AAD, MSG).unwrap()).collect::<Vec<_>>()))
            .collect();
        for h in hs {
            records.extend(h.join().unwrap());
        }
    });
    let (rd, wr) = pipe();
    let child = spawn(|| {
        // SAFETY: the child's copy of the read end.
        unsafe { libc::close(rd) };
        if !seal_and_send(&c, 1, AFTER, wr) {
            return 1;
        }
        let grandchild = spawn(|| if seal_and_send(&c, 2, AFTER, wr) { 0 } else { 2 });
        let ok = seal_and_send(&c, 3, AFTER, wr);
        let g = wait(grandchild);
        if g != 0 {
            return 10 + g.min(100);
        }
        if ok {
            0
        } else {
            3
        }
    });
    // SAFETY: the parent's copy of the write end; the read below ends when both children close theirs.
    unsafe { libc::close(wr) };
    for _ in 0..AFTER {
        records.push(c.seal(AAD, MSG).unwrap());
    }
    let bytes = read_to_end(rd);
    // SAFETY: our read end, read to EOF.
    unsafe { libc::close(rd) };
    let status = wait(child);
    assert_eq!(status, 0, "before={before}/{before_threads}: child failed (status {status})");
    assert_eq!(bytes.len() % MSG_LEN, 0);
    let mut per_origin = [0usize; 4];
    for m in bytes.chunks(MSG_LEN) {
        per_origin[usize::from(m[0]).min(3)] += 1;
        records.push(m[1..].to_vec());
    }
    assert_eq!(per_origin, [0, AFTER, AFTER, AFTER], "before={before}/{before_threads}: records per process");
    for r in &records {
        assert_eq!(c.open(AAD, r).unwrap(), MSG, "every record opens in the parent");
        nonces.push(r[..12].try_into().unwrap());
    }
    let total = before + 2 * before_threads + 4 * AFTER;
    assert_eq!(nonces.len(), total);
    let distinct: HashSet<_> = nonces.iter().collect();
    assert_eq!(
        distinct.len(),
        total,
        "before={before}/{before_threads}: {} repeated nonces among {total}",
        total - distinct.len()
    );
}

/// Error code of a seal result, 0 for success (for the pipe).
fn code<T>(r: Result<T, Error>) -> i64 {
    r.err().map_or(0, |e| e.code())
}

/// Runs `checks` (given the depth, 1 or 2) in a child and in a grandchild forked from it, each
/// reporting its `N` codes through a pipe; returns the two reports, the child's first.
fn child_and_grandchild_reports<const N: usize>(checks: impl Fn(u8) -> [i64; N]) -> Vec<[i64; N]> {
    let send = |fd: i32, r: [i64; N]| -> bool {
        let m: Vec<u8> = r.iter().flat_map(|v| v.to_le_bytes()).collect();
        write_all(fd, &m)
    };
    let (rd, wr) = pipe();
    let child = spawn(|| {
        // SAFETY: the child's copy of the read end.
        unsafe { libc::close(rd) };
        if !send(wr, checks(1)) {
            return 1;
        }
        let grandchild = spawn(|| if send(wr, checks(2)) { 0 } else { 1 });
        if wait(grandchild) != 0 {
            return 2;
        }
        0
    });
    // SAFETY: the parent's copy of the write end.
    unsafe { libc::close(wr) };
    let bytes = read_to_end(rd);
    // SAFETY: our read end, read to EOF.
    unsafe { libc::close(rd) };
    assert_eq!(wait(child), 0, "child failed");
    assert_eq!(bytes.len(), 2 * 8 * N, "two reports (child, grandchild)");
    bytes
        .chunks(8 * N)
        .map(|m| core::array::from_fn(|i| i64::from_le_bytes(m[8 * i..8 * i + 8].try_into().unwrap())))
        .collect()
}

/// TLS contexts across fork: in the child (and a grandchild) every seal on an inherited TLS 1.3
/// or TLS 1.2 context, single or batch, is `Forked` and writes nothing; opens of the parent's
/// records work; a context made in the child, and an inherited policy-NONE one, seal normally.
/// The parent then seals the next sequence numbers as if nothing had happened.
fn tls_across_fork() {
    let iv = [0x3c; 12];
    let tls13 = Tls13Aead::with_iv(Algorithm::Aes128Gcm, &KEY[..16], &iv).unwrap();
    let tls12 = Tls12Aead::with_iv(Algorithm::ChaCha20Poly1305, &KEY, &iv).unwrap();
    let none = Cipher::new(Algorithm::Aes256Gcm, Policy::None, &KEY, 16).unwrap();
    let hdr13 = [23, 3, 3, 0, 21];
    let hdr12 = [0u8; 13];
    let r0 = tls13.seal(&tls13_nonce(&iv, 0), &hdr13, b"hello").unwrap();
    let r1 = tls13.seal(&tls13_nonce(&iv, 1), &hdr13, b"world").unwrap();
    let s0 = tls12.seal(&tls13_nonce(&iv, 0), &hdr12, b"tls12").unwrap();

    // The child's checks, each reported as one i64 (0 or an error code) in this order.
    let checks = |depth: u8| -> [i64; 9] {
        let mut out = [0xa5u8; 5 + 16];
        let mut r = [0i64; 9];
        // 0: the next TLS 1.3 sequence, 1: a far one, both refused, nothing written.
        r[0] = code(tls13.seal_into(&tls13_nonce(&iv, 2), &hdr13, b"child", &mut out));
        r[1] = code(tls13.seal_into(&tls13_nonce(&iv, 1000), &hdr13, b"child", &mut out));
        r[2] = if out.iter().all(|&b| b == 0xa5) { 0 } else { 1 };
        // 3: a batch on the inherited context: every record refused with Forked.
        let (n2, n3) = (tls13_nonce(&iv, 2), tls13_nonce(&iv, 3));
        let (mut o1, mut o2) = ([0xa5u8; 21], [0xa5u8; 21]);
        let (ok, all_forked) = {
            let mut recs = [Record::new(&n2, &hdr13, b"batch", &mut o1), Record::new(&n3, &hdr13, b"batch", &mut o2)];
            let ok = tls13.cipher().seal_many(&mut recs);
            (ok, recs.iter().all(|x| x.result() == Err(Error::Forked)))
        };
        r[3] = if ok == 0 && all_forked && o1.iter().chain(&o2).all(|&b| b == 0xa5) { 0 } else { 1 };
        // 4: TLS 1.2 inherited: refused too.
        r[4] = code(tls12.seal_into(&tls13_nonce(&iv, 1), &hdr12, b"tls12", &mut out[..5 + 16]));
        // 5: open of the parent's records works.
        let mut pt = [0u8; 5];
        r[5] = match (tls13.open_into(&tls13_nonce(&iv, 1), &hdr13, &r1, &mut pt), &pt) {
            (Ok(5), b"world") => 0,
            (Err(e), _) => e.code(),
            _ => 1,
        };
        r[6] = match tls12.open_into(&tls13_nonce(&iv, 0), &hdr12, &s0, &mut pt) {
            Ok(5) if &pt == b"tls12" => 0,
            Ok(_) => 1,
            Err(e) => e.code(),
        };
        // 7: a TLS 1.3 context created in this process works from sequence 0.
        r[7] = match Tls13Aead::with_iv(Algorithm::Aes128Gcm, &KEY[..16], &[depth; 12]) {
            Ok(fresh) => code(fresh.seal_into(&tls13_nonce(&[depth; 12], 0), &hdr13, b"fresh", &mut out)),
            Err(e) => e.code(),
        };
        // 8: a policy-NONE context is not the library's to sequence: it keeps sealing.
        r[8] = code(none.seal_into(&[depth; 12], b"", b"none!", &mut out));
        r
    };
    let want = [Error::Forked.code(), Error::Forked.code(), 0, 0, Error::Forked.code(), 0, 0, 0, 0];
    for (who, got) in ["child", "grandchild"].iter().zip(child_and_grandchild_reports(checks)) {
        assert_eq!(got, want, "{who}: [seal 2, seal 1000, nothing written, batch, TLS 1.2 seal, open 1.3, open 1.2, fresh ctx, policy NONE]");
    }
    // The parent is unaffected: its next sequence is 2 (the child's refusals consumed nothing).
    let r2 = tls13.seal(&tls13_nonce(&iv, 2), &hdr13, b"again").unwrap();
    assert_eq!(tls13.seal(&tls13_nonce(&iv, 2), &hdr13, b"again"), Err(Error::NonceOrder));
    assert_eq!(tls13.open(&tls13_nonce(&iv, 2), &hdr13, &r2).unwrap(), b"again");
    assert_eq!(tls13.open(&tls13_nonce(&iv, 0), &hdr13, &r0).unwrap(), b"hello");
    tls12.seal(&tls13_nonce(&iv, 1), &hdr12, b"tls12").unwrap();
    // Forked is a refusal like the nonce-order ones: described by the library.
    assert!(Error::Forked.description().to_lowercase().contains("fork"), "{}", Error::Forked);
}

/// Counter-nonce contexts (library 1.5) across fork, each learned from its first seal in the
/// parent: in the child and a grandchild a seal of the next or a far counter is `Forked` through
/// the typed and the RustCrypto methods and writes nothing, the parent's records open, and a
/// context made there with the same IV seals; the parent then goes on from where it was.
fn counter_across_fork<T: CounterAead>() {
    let key = &KEY[..T::key_size()];
    let iv = [0x21u8; 12];
    let aad: &[u8] = if T::POLICY == Policy::Ssh { &SSH_AAD } else { AAD };
    let c = T::new_from_slice(key).unwrap();
    let r0 = c.seal_(&T::nonce(&iv, 0), aad, b"zero").unwrap();
    let r1 = c.seal_(&T::nonce(&iv, 1), aad, b"one!").unwrap();
    let checks = |_depth: u8| -> [i64; 6] {
        let mut out = [0xa5u8; 4 + 16];
        let mut r = [0i64; 6];
        r[0] = code(c.seal_into_(&T::nonce(&iv, 2), aad, b"kid!", &mut out));
        r[1] = code(c.seal_into_(&T::nonce(&iv, 1000), aad, b"kid!", &mut out));
        let mut buf = b"kid!".to_vec();
        let refused = c.encrypt_in_place(&T::nonce(&iv, 3).into(), aad, &mut buf).is_err();
        r[2] = if refused && buf == b"kid!" && out.iter().all(|&b| b == 0xa5) { 0 } else { 1 };
        r[3] = match c.open_(&T::nonce(&iv, 1), aad, &r1) {
            Ok(pt) if pt == b"one!" => 0,
            Ok(_) => 1,
            Err(e) => e.code(),
        };
        r[4] = match T::with_iv_(key, &iv) {
            Ok(fresh) => code(fresh.seal_(&T::nonce(&iv, 2), aad, b"kid!")),
            Err(e) => e.code(),
        };
        r[5] = code(c.cipher_().seal(&T::nonce(&iv, 4), aad, b"kid!"));
        r
    };
    let want = [Error::Forked.code(), Error::Forked.code(), 0, 0, 0, Error::Forked.code()];
    for (who, got) in ["child", "grandchild"].iter().zip(child_and_grandchild_reports(checks)) {
        assert_eq!(got, want, "{:?} {who}: [seal 2, seal 1000, nothing written, open 1, fresh ctx, Cipher seal]", T::POLICY);
    }
    assert_eq!(c.seal_(&T::nonce(&iv, 1), aad, b"one!"), Err(Error::NonceOrder), "the parent's counter is where it was");
    let r2 = c.seal_(&T::nonce(&iv, 2), aad, b"two!").unwrap();
    assert_eq!(c.open_(&T::nonce(&iv, 2), aad, &r2).unwrap(), b"two!");
    assert_eq!(c.open_(&T::nonce(&iv, 0), aad, &r0).unwrap(), b"zero");
}

/// HPKE (library 1.6) across fork: a sender context set up in the parent refuses every seal in the
/// child and a grandchild (`Forked`, nothing written, no sequence number used), through `seal_into`,
/// `seal_in_place` and `seal`; export works there and gives the parent's secret, the receiver opens
/// the parent's messages (by number: the grandchild finds them in the window it inherited), and a
/// sender set up in the child seals. The parent then seals sequence
/// number 2, which its receiver opens.
fn hpke_across_fork() {
    use libaead::hpke::{self, Aead, Kdf, Kem, OpModeR, OpModeS, Suite};
    let suite = Suite::new(Kem::X25519HkdfSha256, Kdf::HkdfSha256, Aead::ChaCha20Poly1305);
    let (sk, pk) = suite.kem.derive_keypair(&[7u8; 32]).unwrap();
    let (enc, tx) = hpke::setup_sender(&suite, &OpModeS::Base, pk.as_bytes(), b"fork").unwrap();
    let rx = hpke::setup_receiver(&suite, &OpModeR::Base, sk.as_bytes(), enc.as_bytes(), b"fork").unwrap();
    let c0 = tx.seal(b"zero", AAD).unwrap();
    let c1 = tx.seal(b"one!", AAD).unwrap();
    let mut secret = [0u8; 32];
    tx.export(b"fork", &mut secret).unwrap();
    let checks = |depth: u8| -> [i64; 6] {
        let mut r = [0i64; 6];
        let mut out = [0xa5u8; 4 + 16];
        r[0] = code(tx.seal_into(b"kid!", AAD, &mut out));
        let mut buf = [0xa5u8; 4 + 16];
        buf[..4].copy_from_slice(b"kid!");
        r[1] = code(tx.seal_in_place(&mut buf, 4, AAD));
        r[2] = if out.iter().all(|&b| b == 0xa5) && &buf[..4] == b"kid!" && buf[4..].iter().all(|&b| b == 0xa5) {
            code(tx.seal(b"kid!", AAD))
        } else {
            1
        };
        let mut mine = [0u8; 32];
        r[3] = match tx.export(b"fork", &mut mine) {
            Ok(()) if mine == secret => 0,
            Ok(()) => 1,
            Err(e) => e.code(),
        };
        // 4: the receiver opens the parent's messages; the grandchild inherits the child's
        // window, in which they are opened already.
        r[4] = match (depth, rx.open_at(0, &c0, AAD), rx.open_at(1, &c1, AAD)) {
            (1, Ok(a), Ok(b)) if a == b"zero" && b == b"one!" => 0,
            (2, Err(Error::Replay), Err(Error::Replay)) => 0,
            (_, Err(e), _) | (_, _, Err(e)) => e.code(),
            _ => 1,
        };
        r[5] = match hpke::setup_sender(&suite, &OpModeS::Base, pk.as_bytes(), b"fork") {
            Ok((_, fresh)) => match fresh.seal_into(b"kid!", AAD, &mut out) {
                Ok(s) if s.seq == 0 => 0,
                Ok(_) => 1,
                Err(e) => e.code(),
            },
            Err(e) => e.code(),
        };
        r
    };
    let want = [Error::Forked.code(), Error::Forked.code(), Error::Forked.code(), 0, 0, 0];
    for (who, got) in ["child", "grandchild"].iter().zip(child_and_grandchild_reports(checks)) {
        assert_eq!(got, want, "{who}: [seal_into, seal_in_place, seal (and nothing written), export, open, fresh sender]");
    }
    let mut c2 = [0u8; 4 + 16];
    let s = tx.seal_into(b"two!", AAD, &mut c2).unwrap();
    assert_eq!(s.seq, 2, "the child's refusals used no sequence number");
    assert_eq!(rx.open(&c0, AAD).unwrap(), b"zero");
    assert_eq!(rx.open(&c1, AAD).unwrap(), b"one!");
    assert_eq!(rx.open(&c2, AAD).unwrap(), b"two!");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--list") {
        println!("fork: test");
        return;
    }
    // libtest's arguments: name filters, and `--skip NAME` (tests/hpke.rs's two counted tests are
    // skipped by name in test.py's first `cargo test`; a skip names no test here).
    let (mut filter, mut skip) = (Vec::new(), Vec::new());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--skip" {
            skip.extend(it.next());
        } else if !a.starts_with('-') {
            filter.push(a);
        }
    }
    type Case = (&'static str, fn());
    let cases: [Case; 10] = [
        ("random_nonce_fork_after_0_seals", || random_nonce_across_fork(0, 0)),
        ("random_nonce_fork_after_1_seal", || random_nonce_across_fork(1, 0)),
        ("random_nonce_fork_after_31_seals", || random_nonce_across_fork(31, 0)),
        ("random_nonce_fork_after_100_seals", || random_nonce_across_fork(100, 0)),
        ("random_nonce_fork_after_seals_in_joined_threads", || random_nonce_across_fork(5, 31)),
        ("tls_seal_in_child_is_forked", tls_across_fork),
        ("counter_seal_in_child_is_forked", counter_across_fork::<Aes128GcmCounterNonce>),
        ("xor_counter_seal_in_child_is_forked", counter_across_fork::<ChaCha20Poly1305XorCounterNonce>),
        ("ssh_seal_in_child_is_forked", counter_across_fork::<Aes256GcmSsh>),
        ("hpke_seal_in_child_is_forked", hpke_across_fork),
    ];
    let (mut passed, mut failed) = (0, Vec::new());
    println!("\nrunning {} tests (single-threaded, harness = false)", cases.len());
    for (name, f) in cases {
        if (!filter.is_empty() && !filter.iter().any(|p| name.contains(p.as_str()))) || skip.iter().any(|p| name.contains(p.as_str())) {
            continue;
        }
        // Only this (parent) process gets here: children _exit inside `spawn`.
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
        println!("failures: {failed:?}");
        std::process::exit(1);
    }
}
