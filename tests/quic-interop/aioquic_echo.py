#!/usr/bin/env python3
"""aioquic (1.7.x, unmodified) speaking the interop echo protocol of tests/quic-interop/run.py, on its own
packet protection or, with --libaead, on libaead's (docs/quic.md's two-line swap of aioquic's AEAD and
HeaderProtection for libaead.quic's).

The echo protocol (every peer of run.sh): ALPN "libaead-echo"; the client opens one bidirectional stream,
writes N bytes (echodata: SHA-256 of the big-endian uint64 counter 0, 1, ..., cut to N), finishes; the server
reads to the end, writes it all back, finishes; the client checks the echo byte for byte and closes the
connection with application code 0. aioquic's own examples (HTTP/3, DNS over QUIC) speak other protocols,
hence this script, written against aioquic's public asyncio API (aioquic.asyncio.connect / serve).

    aioquic_echo.py server --listen PORT --cert CERT.pem --key KEY.pem [--suite NAME] [--key-update] [--libaead]
    aioquic_echo.py client --connect HOST:PORT --ca CA.pem [--suite NAME] [--bytes N] [--key-update] [--libaead]

--suite limits aioquic's TLS 1.3 cipher suites to that one (QuicConfiguration.cipher_suites).
--key-update: once KEY_UPDATE_AT bytes have arrived, request a 1-RTT key update
(QuicConnection.request_key_update); the run fails unless it happened and packets from the peer were
received under the new keys afterwards (the peer followed).
--fips (with --libaead): libaead's packet protection under the FIPS provider named by QI_FIPS_OPENSSL_CONF /
QI_FIPS_OPENSSL_MODULES (tests/fips/env.sh's values). pyca/cryptography (aioquic's TLS handshake) keeps its
own OpenSSL's default configuration: one FIPS provider module serves one libcrypto per process, so pyca's
OpenSSL is initialised first without it, then the variables are set and libaead is loaded.

Success: one line "aioquic[+libaead] ROLE ok bytes=N suite=NAME key_updates=K initiated=I dropped=D
[forgeries=F seals=S provider=P [seal_approved=A/N]]" on stdout, exit 0. key_updates: 1-RTT key updates
of the connection (either side's), initiated: those this side asked for, dropped: packets aioquic dropped because they did not decrypt;
forgeries (--libaead): failed authentications summed over every libaead key of the connection, from
libaead's own usage counters (aead_ctx_usage), seals likewise; provider: the OpenSSL provider of those
keys; seal_approved (--fips): how many of the N keys libaead's FIPS indicator marks as approved for sealing.
Anything else: a message on stderr and exit status 1.
"""

import argparse
import os
import sys

KEY_UPDATE_AT = 512 * 1024


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("role", choices=("server", "client"))
    p.add_argument("--listen", type=int, help="server: UDP port on 127.0.0.1")
    p.add_argument("--connect", help="client: HOST:PORT")
    p.add_argument("--cert")
    p.add_argument("--key")
    p.add_argument("--ca")
    p.add_argument("--suite", help="TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384 or TLS_CHACHA20_POLY1305_SHA256")
    p.add_argument("--bytes", type=int, default=1 << 20)
    p.add_argument("--key-update", action="store_true")
    p.add_argument("--libaead", action="store_true", help="run aioquic on libaead.quic's AEAD and HeaderProtection")
    p.add_argument("--fips", action="store_true", help="with --libaead: libaead under the FIPS provider")
    p.add_argument("--timeout", type=float, default=40.0, help="seconds for the whole connection")
    a = p.parse_args()
    if a.role == "server" and not (a.listen and a.cert and a.key):
        p.error("server needs --listen, --cert and --key")
    if a.role == "client" and not (a.connect and a.ca):
        p.error("client needs --connect and --ca")
    if a.fips and not a.libaead:
        p.error("--fips needs --libaead")
    return a


ARGS = parse_args()
NAME = "aioquic+libaead" if ARGS.libaead else "aioquic"


def fail(msg):
    print("%s %s: %s" % (NAME, ARGS.role, msg), file=sys.stderr)
    sys.exit(1)


if ARGS.fips:
    # pyca/cryptography's own OpenSSL reads its configuration now, without the FIPS variables ...
    from cryptography.hazmat.primitives.asymmetric import ec as _ec

    _ec.generate_private_key(_ec.SECP256R1())
    for var in ("OPENSSL_CONF", "OPENSSL_MODULES"):
        value = os.environ.get("QI_FIPS_" + var)
        if not value:
            fail("--fips needs QI_FIPS_%s" % var)
        os.environ[var] = value
    # ... and libaead's libcrypto (loaded just below, first user of anything OpenSSL here) with them.

if ARGS.libaead:
    import libaead
    import libaead.quic
    from libaead._binding import ffi as _ffi
    from libaead._binding import lib as _lib

    if ARGS.fips:
        probe = libaead.AESGCM(bytes(16))
        if probe.indicator.provider != "fips":
            fail("--fips: libaead's default provider is %r, not the FIPS provider" % probe.indicator.provider)
        try:
            libaead.quic.AEAD(b"chacha20-poly1305", bytes(32), bytes(12))
            fail("--fips: ChaCha20-Poly1305 was not refused: the FIPS provider is not the only one")
        except libaead.UnsupportedAlgorithm:
            pass

import asyncio  # noqa: E402
import hashlib  # noqa: E402
import ssl  # noqa: E402

import aioquic.quic.crypto  # noqa: E402
from aioquic.asyncio import connect, serve  # noqa: E402
from aioquic.asyncio.protocol import QuicConnectionProtocol  # noqa: E402
from aioquic.quic.configuration import QuicConfiguration  # noqa: E402
from aioquic.quic.events import ConnectionTerminated, HandshakeCompleted, StreamDataReceived  # noqa: E402
from aioquic.quic.logger import QuicLogger, QuicLoggerTrace  # noqa: E402
from aioquic.tls import CipherSuite  # noqa: E402

MADE = []  # every libaead.quic object aioquic created (to read their usage at the end)
if ARGS.libaead:
    def _keep(cls):
        def make(*args):
            obj = cls(*args)
            MADE.append(obj)
            return obj
        return make

    # docs/quic.md's two-line swap, through factories that keep the objects:
    aioquic.quic.crypto.AEAD = _keep(libaead.quic.AEAD)
    aioquic.quic.crypto.HeaderProtection = _keep(libaead.quic.HeaderProtection)


def echodata(n):
    out = b"".join(hashlib.sha256(i.to_bytes(8, "big")).digest() for i in range((n + 31) // 32))
    return out[:n]


class CountingTrace(QuicLoggerTrace):
    """aioquic's qlog trace, counting instead of storing: key updates by trigger, packets dropped because
    they did not decrypt, 1-RTT packets received after this side's first key update."""

    def __init__(self, *, is_client, odcid):
        super().__init__(is_client=is_client, odcid=odcid)
        self.updates = {"local_update": 0, "remote_update": 0}
        self.dropped = 0
        self.dropped_other = {}
        self.received_after_update = 0
        self.send_key = "client_1rtt_secret" if is_client else "server_1rtt_secret"

    def log_event(self, *, category, event, data):
        if event == "key_updated" and data.get("key_type") == self.send_key and data.get("trigger") in self.updates:
            self.updates[data["trigger"]] += 1
        elif event == "packet_dropped":
            if data.get("trigger") == "payload_decrypt_error":
                self.dropped += 1
            else:
                trigger = str(data.get("trigger"))
                self.dropped_other[trigger] = self.dropped_other.get(trigger, 0) + 1
        elif event == "packet_received" and self.updates["local_update"] and \
                data.get("header", {}).get("packet_type") == "1RTT":
            self.received_after_update += 1


class CountingLogger(QuicLogger):
    def __init__(self):
        super().__init__()
        self.trace = None

    def start_trace(self, is_client, odcid):
        self.trace = CountingTrace(is_client=is_client, odcid=odcid)
        return self.trace

    def end_trace(self, trace):
        pass


class Echo(QuicConnectionProtocol):
    """Both roles: the server echoes each stream at its end; the client sends and checks."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.streams = {}
        self.received = 0
        self.updated = False
        self.suite = None
        self.done = asyncio.get_running_loop().create_future()
        self.terminated = asyncio.get_running_loop().create_future()

    def quic_event_received(self, event):
        if isinstance(event, HandshakeCompleted):
            self.suite = "TLS_" + self._quic.tls.key_schedule.cipher_suite.name
        elif isinstance(event, StreamDataReceived):
            buf = self.streams.setdefault(event.stream_id, bytearray())
            buf += event.data
            self.received += len(event.data)
            if ARGS.key_update and not self.updated and self.received >= KEY_UPDATE_AT:
                self._quic.request_key_update()  # sent with the next packet (transmit follows the events)
                self.updated = True
            if event.end_stream:
                if ARGS.role == "server":
                    self._quic.send_stream_data(event.stream_id, bytes(buf), end_stream=True)
                elif not self.done.done():
                    self.done.set_result(bytes(buf))
        elif isinstance(event, ConnectionTerminated):
            for fut in (self.done, self.terminated):
                if not fut.done():
                    fut.set_result(event)


def configuration(is_client, logger):
    cfg = QuicConfiguration(is_client=is_client, alpn_protocols=["libaead-echo"], idle_timeout=10.0,
                            quic_logger=logger)
    if ARGS.suite:
        name = ARGS.suite[4:] if ARGS.suite.startswith("TLS_") else ARGS.suite
        try:
            cfg.cipher_suites = [CipherSuite[name]]
        except KeyError:
            fail("unknown suite %s" % ARGS.suite)
    if is_client:
        cfg.load_verify_locations(ARGS.ca)
        cfg.server_name = "localhost"
        cfg.verify_mode = ssl.CERT_REQUIRED
    else:
        cfg.load_cert_chain(ARGS.cert, ARGS.key)
    return cfg


def summary(proto, logger, n):
    t = logger.trace
    line = "%s %s ok bytes=%d suite=%s key_updates=%d initiated=%d dropped=%d" % (
        NAME, ARGS.role, n, proto.suite, t.updates["local_update"] + t.updates["remote_update"],
        t.updates["local_update"], t.dropped)
    if t.dropped_other:  # aioquic's other reasons (e.g. duplicates), for the logs
        line += " dropped_other=" + ",".join("%s:%d" % kv for kv in sorted(t.dropped_other.items()))
    if ARGS.key_update:
        if not t.updates["local_update"]:
            fail("--key-update: no key update was carried out (%s)" % line)
        if not t.received_after_update:
            fail("--key-update: nothing from the peer decrypted under the new keys (%s)" % line)
    if ARGS.libaead:
        aeads = [o for o in MADE if isinstance(o, libaead.quic.AEAD)]
        if not aeads or not any(isinstance(o, libaead.quic.HeaderProtection) for o in MADE):
            fail("--libaead: aioquic made no libaead.quic objects: the swap did not take")
        providers = sorted({_ffi.string(_lib.aead_ctx_provider(o._ctx)).decode() for o in aeads})
        forgeries = sum(o.usage.forgeries for o in aeads)
        line += " forgeries=%d seals=%d provider=%s" % (forgeries, sum(o.usage.seals for o in aeads),
                                                       ",".join(providers))
        # Every packet aioquic dropped as undecryptable is one libaead counted as a forgery, and no other.
        if forgeries != t.dropped:
            fail("libaead counted %d forgeries, aioquic dropped %d packets (%s)" % (forgeries, t.dropped, line))
        if ARGS.fips:
            # docs/quic.md: under a FIPS provider, QUIC AES-GCM seals are reported approved (IG C.H).
            approved = sum(1 for o in aeads if _lib.aead_ctx_indicator(o._ctx) & _lib.AEAD_IND_SEAL_APPROVED)
            line += " seal_approved=%d/%d" % (approved, len(aeads))
            if providers != ["fips"] or approved != len(aeads):
                fail("--fips: libaead keys from %s, %d of %d with approved seals (%s)" % (
                    providers, approved, len(aeads), line))
    print(line, flush=True)


async def client():
    logger = CountingLogger()
    host, port = ARGS.connect.rsplit(":", 1)
    data = echodata(ARGS.bytes)
    async with connect(host, int(port), configuration=configuration(True, logger), create_protocol=Echo) as proto:
        sid = proto._quic.get_next_available_stream_id()
        proto._quic.send_stream_data(sid, data, end_stream=True)
        proto.transmit()
        echo = await proto.done
        if isinstance(echo, ConnectionTerminated):
            fail("connection closed before the echo ended (%d bytes in): code %d, %r" % (
                proto.received, echo.error_code, echo.reason_phrase))
        if echo != data:
            at = next((i for i, (x, y) in enumerate(zip(echo, data)) if x != y), min(len(echo), len(data)))
            fail("echo differs: got %d bytes, sent %d, first difference at byte %d" % (len(echo), len(data), at))
        summary(proto, logger, len(echo))
    # leaving `async with` closes the connection with application code 0


async def server():
    logger = CountingLogger()
    protos = []

    def make(*args, **kwargs):
        p = Echo(*args, **kwargs)
        protos.append(p)
        return p

    srv = await serve("127.0.0.1", ARGS.listen, configuration=configuration(False, logger), create_protocol=make)
    print("%s server listening on 127.0.0.1:%d" % (NAME, ARGS.listen), file=sys.stderr, flush=True)
    try:
        while not protos:
            await asyncio.sleep(0.01)
        proto = protos[0]
        ev = await proto.terminated
        if ev.error_code != 0:
            fail("connection closed with code %d (%r) after %d bytes" % (ev.error_code, ev.reason_phrase, proto.received))
        if not proto.streams:
            fail("the connection ended without a stream")
        summary(proto, logger, sum(len(b) for b in proto.streams.values()))
    finally:
        srv.close()


def main():
    try:
        asyncio.run(asyncio.wait_for(client() if ARGS.role == "client" else server(), ARGS.timeout))
    except asyncio.TimeoutError:
        fail("no result within %.0f s" % ARGS.timeout)
    except ConnectionError as e:
        fail("connection failed: %r" % e)


if __name__ == "__main__":
    main()
