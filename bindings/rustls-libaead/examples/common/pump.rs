//! One TLS connection driven to its end on a nonblocking socket: reading and writing at the same
//! time (an echo peer can only take more when its replies are being read), then a clean close.
use mio::net::TcpStream;
use mio::{Events, Interest, Poll, Token, Waker};
use rustls::Connection;
use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::{Duration, Instant};

const SOCKET: Token = Token(0);
pub const INPUT: Token = Token(1);
/// A connection with no event for this long is abandoned (tests are bounded in time).
const IDLE: Duration = Duration::from_secs(30);
const TICK: Duration = Duration::from_millis(20);

/// Where the bytes to send come from.
pub enum Source {
    /// Chunks from a reader thread (`None` = end of input), which wakes the loop on `INPUT`.
    Chunks(Receiver<Option<Vec<u8>>>),
    /// Everything received is sent back.
    Echo,
}

/// Most plaintext held outside rustls: the echo stops reading from the peer above this, and
/// the input thread is not asked for more.
const BACKLOG_MAX: usize = 256 * 1024;

/// Runs `conn` over `sock` until both sides have sent close_notify. Received application data
/// goes to `sink` (client) or back to the peer (echo). On a TLS error, the alert rustls queued is
/// flushed (and the socket drained, so that closing it does not reset the connection and lose
/// the alert) and the error returned.
pub fn run(
    conn: &mut Connection,
    sock: std::net::TcpStream,
    source: Source,
    sink: &mut dyn Write,
    poll: Poll,
) -> Result<(), String> {
    sock.set_nonblocking(true)
        .map_err(|e| format!("socket: {e}"))?;
    let mut sock = TcpStream::from_std(sock);
    let mut poll = poll;
    poll.registry()
        .register(&mut sock, SOCKET, Interest::READABLE | Interest::WRITABLE)
        .map_err(|e| format!("poll: {e}"))?;
    let mut events = Events::with_capacity(8);
    let echo = matches!(source, Source::Echo);
    // Plaintext not yet taken by rustls (whose own buffer limit, 64 KiB by default, applies).
    let mut backlog: VecDeque<u8> = VecDeque::new();
    let mut input_done = false;
    let (mut peer_closed, mut close_sent) = (false, false);
    let mut plain = vec![0u8; 64 * 1024];
    let mut last_progress = Instant::now();
    loop {
        // Move as far as possible without waiting; wait only when nothing moved.
        let mut moved = false;
        // Plaintext into rustls (input only once the handshake is done: it is ours to pace).
        while !backlog.is_empty() && (echo || !conn.is_handshaking()) {
            let (a, _) = backlog.as_slices();
            let n = conn.writer().write(a).map_err(|e| format!("tls: {e}"))?;
            if n == 0 {
                break;
            }
            backlog.drain(..n);
            moved = true;
        }
        // TLS records out.
        while conn.wants_write() {
            match conn.write_tls(&mut sock) {
                Ok(n) => moved |= n > 0,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) => return Err(format!("write: {e}")),
            }
        }
        // TLS records in: always for the client (its output is standard output); for the echo
        // only while the backlog is bounded (back-pressure towards the peer).
        let mut eof = false;
        loop {
            if peer_closed || (echo && backlog.len() >= BACKLOG_MAX) {
                break;
            }
            match conn.read_tls(&mut sock) {
                Ok(0) => eof = true,
                Ok(_) => moved = true,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) => return Err(format!("read: {e}")),
            }
            if let Err(e) = conn.process_new_packets() {
                let what = describe(&e);
                linger(conn, &mut sock);
                return Err(what);
            }
            loop {
                match conn.reader().read(&mut plain) {
                    Ok(0) => {
                        peer_closed = true;
                        break;
                    }
                    Ok(n) if echo => backlog.extend(&plain[..n]),
                    // Flushed at once: whoever reads our output may be waiting for it.
                    Ok(n) => sink
                        .write_all(&plain[..n])
                        .and_then(|()| sink.flush())
                        .map_err(|e| format!("stdout: {e}"))?,
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                    Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                        return Err("the peer closed the connection without close_notify".into())
                    }
                    Err(e) => return Err(format!("tls: {e}")),
                }
            }
            if eof {
                break;
            }
        }
        if eof && !peer_closed {
            return Err("the peer closed the connection without close_notify".into());
        }
        // More input from the reader thread.
        if let Source::Chunks(rx) = &source {
            while backlog.len() < BACKLOG_MAX && !input_done {
                match rx.try_recv() {
                    Ok(Some(chunk)) => {
                        backlog.extend(&chunk);
                        moved = true;
                    }
                    Ok(None) | Err(TryRecvError::Disconnected) => input_done = true,
                    Err(TryRecvError::Empty) => break,
                }
            }
        }
        // Half-close once all input is sent (client), or answer the peer's close (echo).
        let done_sending = backlog.is_empty()
            && (if echo {
                peer_closed
            } else {
                input_done || peer_closed
            });
        if !close_sent && done_sending && !conn.is_handshaking() {
            conn.send_close_notify();
            close_sent = true;
            continue;
        }
        if close_sent && !conn.wants_write() {
            let _ = sock.shutdown(std::net::Shutdown::Write);
            if peer_closed {
                sink.flush().map_err(|e| format!("stdout: {e}"))?;
                return Ok(());
            }
        }
        if moved {
            last_progress = Instant::now();
        } else {
            if last_progress.elapsed() > IDLE {
                return Err(format!("no progress for {} s", IDLE.as_secs()));
            }
            // The input thread's wake-ups are not relied on alone: a short timeout re-checks.
            poll.poll(&mut events, Some(TICK))
                .map_err(|e| format!("poll: {e}"))?;
        }
    }
}

/// After a fatal error: puts the alert rustls queued on the wire, half-closes, then reads and
/// drops what the peer still sends until it closes (at most a few seconds). Closing a socket
/// with unread data makes the kernel reset the connection, and the peer may then never see
/// the alert.
fn linger(conn: &mut Connection, sock: &mut TcpStream) {
    let deadline = std::time::Instant::now() + Duration::from_secs(3);
    let mut flushed = false;
    let mut buf = [0u8; 16384];
    while std::time::Instant::now() < deadline {
        if !flushed {
            match conn.write_tls(sock) {
                Ok(_) if conn.wants_write() => continue,
                Ok(_) => {
                    flushed = true;
                    let _ = sock.shutdown(std::net::Shutdown::Write);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(_) => return,
            }
        }
        match sock.read(&mut buf) {
            Ok(0) => return,
            Ok(_) => continue,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(1))
            }
            Err(_) => return,
        }
    }
}

/// A TLS error, with the alert rustls answers it with where that is fixed (conn.rs).
fn describe(e: &rustls::Error) -> String {
    match e {
        rustls::Error::DecryptError => format!("{e} (sent alert bad_record_mac)"),
        rustls::Error::PeerSentOversizedRecord => format!("{e} (sent alert record_overflow)"),
        _ => e.to_string(),
    }
}

/// A poll and the waker the input thread uses to say a chunk is ready.
pub fn poll_with_waker() -> io::Result<(Poll, std::sync::Arc<Waker>)> {
    let poll = Poll::new()?;
    let waker = std::sync::Arc::new(Waker::new(poll.registry(), INPUT)?);
    Ok((poll, waker))
}

/// Reads `input` in chunks of up to 16 KiB on a thread, handing each to the loop.
pub fn spawn_reader(
    mut input: impl Read + Send + 'static,
    waker: std::sync::Arc<Waker>,
) -> Receiver<Option<Vec<u8>>> {
    let (tx, rx) = std::sync::mpsc::sync_channel(8);
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            let n = match input.read(&mut buf) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => 0,
            };
            let msg = (n > 0).then(|| buf[..n].to_vec());
            let last = msg.is_none();
            if tx.send(msg).is_err() {
                break;
            }
            let _ = waker.wake();
            if last {
                break;
            }
        }
    });
    rx
}
