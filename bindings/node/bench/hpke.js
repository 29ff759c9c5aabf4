'use strict';
// HPKE (RFC 9180): libaead's CipherSuite against @hpke/core (and, for X25519, @hpke/dhkem-x25519's pure
// JavaScript KEM), all in one process, interleaved round by round, as bench.js times the AEADs:
//   - "setup + seal 64 B": a sender context set up to a recipient's public key (a fresh ephemeral key, the
//     DH, the key schedule) and one 64-byte seal, the single-shot cost of ECH or Oblivious HTTP;
//   - "context seal 64 B": one more 64-byte seal on an existing sender context.
// The table gives each one's median CPU time per operation and the ratio of @hpke's time to libaead's. @hpke/core is
// asynchronous (WebCrypto): each of its operations is awaited before the next, as an application calls it.
// Only ratios from one run mean anything; the absolute times depend on the machine and its load.
// --json FILE also writes the rows as bench/all.sh's hpke entry reads them (libaead's time / the peer's).
//   cd bindings/node/bench && npm ci && nice node hpke.js [--rounds N] [--ms T] [--json FILE]
const crypto = require('crypto');
const os = require('os');
const L = require('..');
const H = require('@hpke/core');
const { Chacha20Poly1305 } = require('@hpke/chacha20poly1305');
const { DhkemX25519HkdfSha256: PureX25519 } = require('@hpke/dhkem-x25519');

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : dflt; };
const ROUNDS = opt('--rounds', 5);
const MS = opt('--ms', 40);
const JSON_OUT = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;

// CPU time of the process (user + system, in ns), as bench.js: other processes' share does not count.
function cpuNs() {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
}

// fn may return a promise (awaited) or not (a synchronous call is not wrapped in one).
async function loop(fn, n) {
  for (let i = 0; i < n; i++) {
    const r = fn();
    if (r instanceof Promise) await r;
  }
}

async function calibrate(fn) {
  for (let n = 4; ; n *= 4) {
    const t0 = cpuNs();
    await loop(fn, n);
    const dt = cpuNs() - t0;
    if (dt > MS * 1e6 / 4) return Math.ceil(n * (MS * 1e6) / dt);
  }
}

async function measure(fns) {
  const counts = [];
  for (const f of fns) counts.push(await calibrate(f.fn));
  const samples = fns.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < fns.length; k++) {
      const t0 = cpuNs();
      await loop(fns[k].fn, counts[k]);
      samples[k].push((cpuNs() - t0) / counts[k]);
    }
  }
  return samples.map((s) => s.sort((a, b) => a - b)[s.length >> 1]);
}

const buf = (ab) => Buffer.from(new Uint8Array(ab));

async function main() {
  const pt = crypto.randomBytes(64);
  const aad = crypto.randomBytes(13);
  const info = Buffer.from('libaead bench');
  const suites = [
    ['X25519, HKDF-SHA256, AES-128-GCM', { kem: L.KemId.DhkemX25519HkdfSha256, kdf: L.KdfId.HkdfSha256, aead: L.AeadId.Aes128Gcm },
      [['@hpke/core', () => new H.DhkemX25519HkdfSha256()], ['@hpke/core + @hpke/dhkem-x25519', () => new PureX25519()]],
      () => new H.HkdfSha256(), () => new H.Aes128Gcm()],
    ['X25519, HKDF-SHA256, ChaCha20-Poly1305', { kem: L.KemId.DhkemX25519HkdfSha256, kdf: L.KdfId.HkdfSha256, aead: L.AeadId.Chacha20Poly1305 },
      [['@hpke/core + @hpke/chacha20poly1305', () => new H.DhkemX25519HkdfSha256()]], () => new H.HkdfSha256(), () => new Chacha20Poly1305()],
    ['P-256, HKDF-SHA256, AES-128-GCM', { kem: L.KemId.DhkemP256HkdfSha256, kdf: L.KdfId.HkdfSha256, aead: L.AeadId.Aes128Gcm },
      [['@hpke/core', () => new H.DhkemP256HkdfSha256()]], () => new H.HkdfSha256(), () => new H.Aes128Gcm()],
  ];
  const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  const v = (p) => require(`${p}/package.json`).version;
  console.log(`# node ${process.version}; ${L.libraryVersion()}; @hpke/core ${v('@hpke/core')} on node:crypto's WebCrypto ` +
    `(OpenSSL ${process.versions.openssl}); @hpke/dhkem-x25519 ${v('@hpke/dhkem-x25519')}; @hpke/chacha20poly1305 ${v('@hpke/chacha20poly1305')}`);
  console.log(`# ${os.cpus()[0].model}, ${os.cpus().length} CPUs; load average at start ${load}; ${ROUNDS} rounds, median of CPU time per operation`);
  console.log('| suite | operation | compared with | libaead | it | its time / libaead\'s |');
  console.log('|---|---|---|---:|---:|---:|');
  const ns = (x) => `${Math.round(x).toLocaleString('en-US')} ns`;
  const rows = [];
  for (const [name, ids, kems, kdf, aead] of suites) {
    const ours = new L.CipherSuite(ids);
    const kp = ours.kem.generateKeyPair();
    const impls = [['libaead', {
      setup: () => {
        const c = ours.createSenderContext({ recipientPublicKey: kp.publicKey, info });
        const ct = c.seal(pt, aad);
        c.close();
        return ct;
      },
      ctx: ours.createSenderContext({ recipientPublicKey: kp.publicKey, info }),
    }]];
    for (const [label, kem] of kems) {
      const theirs = new H.CipherSuite({ kem: kem(), kdf: kdf(), aead: aead() });
      const pkR = await theirs.kem.deserializePublicKey(kp.publicKey);
      const ctx = await theirs.createSenderContext({ recipientPublicKey: pkR, info });
      // Before timing: each side's message opens on the other side.
      const rx = ours.createRecipientContext({ recipientKey: kp.privateKey, enc: buf(ctx.enc), info });
      if (!rx.open(buf(await ctx.seal(pt, aad)), aad).equals(pt)) throw new Error(`${label}: libaead does not open it`);
      const tx = ours.createSenderContext({ recipientPublicKey: kp.publicKey, info });
      const theirRx = await theirs.createRecipientContext({ recipientKey: await theirs.kem.deserializePrivateKey(kp.privateKey), enc: tx.enc, info });
      if (!buf(await theirRx.open(tx.seal(pt, aad), aad)).equals(pt)) throw new Error(`${label}: it does not open libaead's`);
      impls.push([label, {
        setup: async () => (await theirs.createSenderContext({ recipientPublicKey: pkR, info })).seal(pt, aad),
        ctx,
      }]);
    }
    for (const [op, pick] of [['setup + seal 64 B', (i) => i.setup], ['context seal 64 B', (i) => () => i.ctx.seal(pt, aad)]]) {
      const t = await measure(impls.map(([label, i]) => ({ label, fn: pick(i) })));
      impls.slice(1).forEach(([label], k) => {
        console.log(`| ${name} | ${op} | ${label} | ${ns(t[0])} | ${ns(t[k + 1])} | ${(t[k + 1] / t[0]).toFixed(1)}x |`);
        rows.push({ suite: name, op: op === 'setup + seal 64 B' ? 'setup + 64 B seal' : '64 B seal on a context',
          peer: label.replace('@hpke/core', `@hpke/core ${v('@hpke/core')}`), libaead_ns: t[0], peer_ns: t[k + 1], ratio: t[0] / t[k + 1] });
      });
    }
  }
  console.log(`# load average at end ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  if (JSON_OUT) {
    require('fs').writeFileSync(JSON_OUT, `${JSON.stringify({ bench: 'hpke', lang: 'Node.js', libcrypto: L.libraryVersion(),
      rounds: ROUNDS, aad: 13, rows }, null, 1)}\n`);
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
