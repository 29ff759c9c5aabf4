'use strict';
// Seal and open at 64 B, 1 KiB and 16 KiB: libaead against node:crypto, sodium-native and @noble/ciphers,
// all in one process, interleaved round by round; the table gives each one's median CPU time per message and
// its ratio to node:crypto (or, where node:crypto lacks the algorithm, to libaead). Only ratios from one
// run mean anything; the absolute times depend on the machine and its load.
//   cd bindings/node/bench && npm ci && nice node bench.js [--rounds N] [--ms T] [--json FILE]
// --json FILE also writes every row and the versions machine-readably (bench/results/bench.json is what the
// README's table and docs/bench.png show).
// A second table puts AEGIS-128L, -128X2, -128X4 and -256 (libaead, 32-byte tags) and libsodium-wrappers'
// aegis128l / aegis256 (WebAssembly) beside libaead's AES-128-GCM and ChaCha20-Poly1305, as ratios to
// libaead's AES-128-GCM (its JSON rows are "aegis_rows"). --only main | aegis runs one of the two tables.
const crypto = require('crypto');
const os = require('os');
const L = require('..');
const sodium = require('sodium-native');

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : dflt; };
const ROUNDS = opt('--rounds', 5);
const MS = opt('--ms', 40);
const JSON_OUT = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1] : null;
if (ONLY !== null && ONLY !== 'main' && ONLY !== 'aegis') throw new Error('--only takes main or aegis');
const SIZES = [64, 1024, 16384];

// CPU time of the process (user + system, in ns): on a shared machine the wall clock also counts the
// time other processes held the CPU; this counts only the work done (GC threads included).
function cpuNs() {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
}

function time(fn) {
  // Calibrate the count to about MS milliseconds, then time it.
  let n = 16;
  for (;;) {
    const t0 = cpuNs();
    for (let i = 0; i < n; i++) fn();
    const dt = cpuNs() - t0;
    if (dt > MS * 1e6 / 4) return { n: Math.ceil(n * (MS * 1e6) / dt) };
    n *= 4;
  }
}

function measure(fns) {
  const counts = fns.map((f) => time(f.fn).n);
  const samples = fns.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    fns.forEach((f, k) => {
      const t0 = cpuNs();
      for (let i = 0; i < counts[k]; i++) f.fn();
      samples[k].push((cpuNs() - t0) / counts[k]);
    });
  }
  return samples.map((s) => s.sort((a, b) => a - b)[s.length >> 1]);
}

// A package's version from its package.json (read as a file: some packages' exports do not list it).
const installedVersion = (name) =>
  JSON.parse(require('fs').readFileSync(require('path').join(__dirname, 'node_modules', name, 'package.json'), 'utf8')).version;

async function main() {
  const { gcm } = await import('@noble/ciphers/aes.js');
  const { chacha20poly1305, xchacha20poly1305 } = await import('@noble/ciphers/chacha.js');
  const key16 = crypto.randomBytes(16);
  const key32 = crypto.randomBytes(32);
  const n12 = crypto.randomBytes(12);
  const n24 = crypto.randomBytes(24);
  const aad = crypto.randomBytes(13);
  const lg = new L.AESGCM(key16);
  const lc = new L.ChaCha20Poly1305(key32);
  const lx = new L.XChaCha20Poly1305(key32);

  const nodeSeal = (alg, key) => (pt) => () => {
    const c = crypto.createCipheriv(alg, key, n12, { authTagLength: 16 });
    c.setAAD(aad);
    return Buffer.concat([c.update(pt), c.final(), c.getAuthTag()]);
  };
  const nodeOpen = (alg, key) => (ct) => () => {
    const d = crypto.createDecipheriv(alg, key, n12, { authTagLength: 16 });
    d.setAAD(aad);
    d.setAuthTag(ct.subarray(ct.length - 16));
    return Buffer.concat([d.update(ct.subarray(0, ct.length - 16)), d.final()]);
  };
  const sodiumSeal = (f, nonce) => (pt) => () => {
    const out = Buffer.allocUnsafe(pt.length + 16);
    f(out, pt, aad, null, nonce, key32);
    return out;
  };
  const sodiumOpen = (f, nonce) => (ct) => () => {
    const out = Buffer.allocUnsafe(ct.length - 16);
    f(out, null, ct, aad, nonce, key32);
    return out;
  };

  const families = [
    ['AES-128-GCM', [
      ['libaead', (pt) => () => lg.encrypt(n12, pt, aad), (ct) => () => lg.decrypt(n12, ct, aad)],
      ['node:crypto', nodeSeal('aes-128-gcm', key16), nodeOpen('aes-128-gcm', key16)],
      ['@noble/ciphers', (pt) => () => gcm(key16, n12, aad).encrypt(pt), (ct) => () => gcm(key16, n12, aad).decrypt(ct)],
    ]],
    ['ChaCha20-Poly1305', [
      ['libaead', (pt) => () => lc.encrypt(n12, pt, aad), (ct) => () => lc.decrypt(n12, ct, aad)],
      ['node:crypto', nodeSeal('chacha20-poly1305', key32), nodeOpen('chacha20-poly1305', key32)],
      ['sodium-native', sodiumSeal(sodium.crypto_aead_chacha20poly1305_ietf_encrypt, n12),
        sodiumOpen(sodium.crypto_aead_chacha20poly1305_ietf_decrypt, n12)],
      ['@noble/ciphers', (pt) => () => chacha20poly1305(key32, n12, aad).encrypt(pt),
        (ct) => () => chacha20poly1305(key32, n12, aad).decrypt(ct)],
    ]],
    ['XChaCha20-Poly1305', [
      ['libaead', (pt) => () => lx.encrypt(n24, pt, aad), (ct) => () => lx.decrypt(n24, ct, aad)],
      ['sodium-native', sodiumSeal(sodium.crypto_aead_xchacha20poly1305_ietf_encrypt, n24),
        sodiumOpen(sodium.crypto_aead_xchacha20poly1305_ietf_decrypt, n24)],
      ['@noble/ciphers', (pt) => () => xchacha20poly1305(key32, n24, aad).encrypt(pt),
        (ct) => () => xchacha20poly1305(key32, n24, aad).decrypt(ct)],
    ]],
  ];

  const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  const meta = {
    date: new Date().toISOString(), cpu: os.cpus()[0].model, cpus: os.cpus().length, node: process.version,
    libaead: L.libraryVersion(), node_openssl: `OpenSSL ${process.versions.openssl}`,
    sodium_native: require('sodium-native/package.json').version,
    noble_ciphers: installedVersion('@noble/ciphers'),
    rounds: ROUNDS, ms: MS,
  };
  const rows = [];
  if (ONLY !== 'aegis') mainTable(families, meta, load, rows);
  const out = { meta, rows };
  if (ONLY !== 'main') out.aegis_rows = await aegisTable(meta, key16, key32, n12, aad);
  if (JSON_OUT) require('fs').writeFileSync(JSON_OUT, JSON.stringify(out, null, 1) + '\n');
}

function mainTable(families, meta, load, rows) {
  console.log(`# node ${meta.node}; ${meta.libaead}; node:crypto on ${meta.node_openssl}; ` +
    `sodium-native ${meta.sodium_native}; @noble/ciphers ${meta.noble_ciphers}`);
  console.log(`# ${os.cpus()[0].model}, ${os.cpus().length} CPUs; load average at start ${load}; ${ROUNDS} rounds, median of CPU time per message`);
  console.log('| algorithm | size | op | implementation | ns/message | ratio |');
  console.log('|---|---:|---|---|---:|---:|');
  for (const [family, impls] of families) {
    for (const size of SIZES) {
      const pt = crypto.randomBytes(size);
      const ct = impls[0][1](pt)(); // libaead's sealed message opens in every implementation
      for (const [op, k, input] of [['seal', 1, pt], ['open', 2, ct]]) {
        const fns = impls.map(([name, ...f]) => ({ name, fn: f[k - 1](input) }));
        // Every implementation must give the same bytes before it is timed.
        const ref = Buffer.from(fns[0].fn());
        for (const f of fns) if (!Buffer.from(f.fn()).equals(ref)) throw new Error(`${family} ${f.name} ${op} disagrees`);
        const t = measure(fns);
        const base = impls.findIndex(([n]) => n === 'node:crypto');
        const b = t[base >= 0 ? base : 0];
        fns.forEach((f, i) => {
          console.log(`| ${family} | ${size} | ${op} | ${f.name} | ${t[i].toFixed(0)} | ${(t[i] / b).toFixed(2)}x |`);
          rows.push({ alg: family, bytes: size, op, impl: f.name, ns: t[i], ratio: t[i] / b });
        });
      }
    }
  }
  console.log(`# load average at end ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
}

// AEGIS beside libaead's AES-128-GCM and ChaCha20-Poly1305: each implementation seals the same plaintext
// and opens its own algorithm's message (libsodium's must equal libaead's byte for byte, 32-byte tags).
async function aegisTable(meta, key16, key32, n12, aad) {
  const sodium = require('libsodium-wrappers');
  await sodium.ready;
  meta.libsodium_wrappers = installedVersion('libsodium-wrappers');
  meta.libsodium = sodium.SODIUM_VERSION_STRING;
  const n16 = crypto.randomBytes(16);
  const n32 = crypto.randomBytes(32);
  const libaead = (obj, nonce) => ({ seal: (pt) => () => obj.encrypt(nonce, pt, aad), open: (ct) => () => obj.decrypt(nonce, ct, aad) });
  const libsodium = (prefix, nonce, key) => ({
    seal: (pt) => () => sodium[`crypto_aead_${prefix}_encrypt`](pt, aad, null, nonce, key),
    open: (ct) => () => sodium[`crypto_aead_${prefix}_decrypt`](null, ct, aad, nonce, key),
  });
  const a128l = libaead(new L.AEGIS128L(key16, 32), n16);
  const a256 = libaead(new L.AEGIS256(key32, 32), n32);
  // [name, its calls, the libaead calls of the same algorithm (its reference output)]
  const impls = [
    ['libaead AES-128-GCM', libaead(new L.AESGCM(key16), n12)],
    ['libaead ChaCha20-Poly1305', libaead(new L.ChaCha20Poly1305(key32), n12)],
    ['libaead AEGIS-128L', a128l],
    ['libaead AEGIS-128X2', libaead(new L.AEGIS128X2(key16, 32), n16)],
    ['libaead AEGIS-128X4', libaead(new L.AEGIS128X4(key16, 32), n16)],
    ['libaead AEGIS-256', a256],
    ['libsodium-wrappers AEGIS-128L', libsodium('aegis128l', n16, key16), a128l],
    ['libsodium-wrappers AEGIS-256', libsodium('aegis256', n32, key32), a256],
  ];
  console.log(`# AEGIS: node ${meta.node}; ${meta.libaead}; libsodium-wrappers ${meta.libsodium_wrappers} ` +
    `(libsodium ${meta.libsodium}, WebAssembly); 32-byte AEGIS tags, 16-byte AES-GCM and ChaCha20-Poly1305 tags`);
  console.log(`# ${ROUNDS} rounds, median of CPU time per message; ratio to libaead's AES-128-GCM`);
  console.log('| size | op | implementation | ns/message | ratio |');
  console.log('|---:|---|---|---:|---:|');
  const rows = [];
  for (const size of SIZES) {
    const pt = crypto.randomBytes(size);
    const sealed = impls.map(([, f, ref]) => Buffer.from((ref || f).seal(pt)()));
    impls.forEach(([name, f], i) => {
      if (!Buffer.from(f.seal(pt)()).equals(sealed[i])) throw new Error(`AEGIS table: ${name} seals other bytes`);
      if (!Buffer.from(f.open(sealed[i])()).equals(pt)) throw new Error(`AEGIS table: ${name} does not open`);
    });
    for (const op of ['seal', 'open']) {
      const fns = impls.map(([name, f], i) => ({ name, fn: op === 'seal' ? f.seal(pt) : f.open(sealed[i]) }));
      const t = measure(fns);
      fns.forEach((f, i) => {
        console.log(`| ${size} | ${op} | ${f.name} | ${t[i].toFixed(0)} | ${(t[i] / t[0]).toFixed(2)}x |`);
        rows.push({ bytes: size, op, impl: f.name, ns: t[i], ratio: t[i] / t[0] });
      });
    }
  }
  return rows;
}

main().catch((e) => { console.error(e); process.exit(1); });
