'use strict';
// The package's surface: CommonJS and ESM entry points export the same classes, errors carry the
// library's codes, Into forms write at an offset, AES-SIV's components, random-nonce overhead, and a
// forgotten context is freed by the collector (checked in a child process with --expose-gc).
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('crypto');
const path = require('path');
const { execFileSync } = require('child_process');
const { lib } = require('./helpers');

const L = lib();
const pkg = process.env.LIBAEAD_NODE_PACKAGE || path.resolve(__dirname, '..');

test('ESM and CommonJS export the same objects', async () => {
  const esm = await import(require('url').pathToFileURL(require.resolve(pkg).replace(/index\.js$/, 'index.mjs')).href);
  // Every CommonJS export, and nothing else, is a named ESM export of the same object (index.mjs lists none).
  assert.deepStrictEqual(Object.keys(esm).filter((k) => k !== 'default').sort(), Object.keys(L).sort());
  for (const name of Object.keys(L)) assert.strictEqual(esm[name], L[name], name);
  assert.strictEqual(esm.default, L);
  for (const name of ['AESGCM', 'ChaCha20Poly1305', 'AESCCM', 'AESGCMSIV', 'AESOCB3', 'XChaCha20Poly1305', 'AESSIV',
    'AESGCMForTLS12', 'AESGCMForTLS13', 'ChaCha20Poly1305ForTLS12', 'ChaCha20Poly1305ForTLS13', 'AESGCMRandomNonce',
    'XChaCha20Poly1305RandomNonce', 'AESGCMForQUIC', 'ChaCha20Poly1305ForQUIC', 'AESGCMCounterNonce',
    'AESGCMXORCounterNonce', 'AESGCMForSSH', 'AEGIS128L', 'AEGIS256', 'AEGIS128X2', 'AEGIS128X4', 'AEGIS256X2',
    'AEGIS256X4', 'AEGIS128LRandomNonce', 'AEGIS256RandomNonce', 'AEGIS128X2RandomNonce', 'AEGIS128X4RandomNonce',
    'AEGIS256X2RandomNonce', 'AEGIS256X4RandomNonce', 'AuthenticationError', 'NonceError',
    'CipherSuite', 'SenderContext', 'RecipientContext', 'ReplayError']) {
    assert.strictEqual(typeof L[name], 'function', name);
    assert.strictEqual(esm[name], L[name], name);
  }
  for (const name of ['Mode', 'KemId', 'KdfId', 'AeadId']) {
    assert.ok(Object.isFrozen(L[name]), name);
    assert.strictEqual(esm[name], L[name], name);
  }
  assert.strictEqual(esm.HPKE_MAX_SEQUENCE, (1n << 64n) - 2n);
  assert.match(L.libraryVersion(), /^libaead \d+\.\d+\.\d+ \(OpenSSL 3\./);
  assert.ok(L.libraryVersionNumber() >= 10300);
});

test('errors: classes, names and library codes', () => {
  const g = new L.AESGCM(crypto.randomBytes(16));
  const n = crypto.randomBytes(12);
  const s = g.encrypt(n, Buffer.from('abc'), null);
  s[3] ^= 1;
  try { g.decrypt(n, s, null); assert.fail('no error'); } catch (e) {
    assert.ok(e instanceof L.AuthenticationError && e instanceof L.AeadError && e instanceof Error);
    assert.strictEqual(e.name, 'AuthenticationError');
    assert.strictEqual(e.code, 'AEAD_ERR_AUTH');
    assert.strictEqual(e.aeadCode, -1);
    assert.strictEqual(L.strerror(-1), 'authentication failed');
  }
  const t = new L.AESGCMForTLS13(crypto.randomBytes(16), Buffer.alloc(12));
  t.encrypt(Buffer.alloc(12), Buffer.alloc(1), Buffer.alloc(5));
  try { t.encrypt(Buffer.alloc(12), Buffer.alloc(1), Buffer.alloc(5)); assert.fail('no error'); } catch (e) {
    assert.ok(e instanceof L.NonceError);
    assert.strictEqual(e.aeadCode, -10);
    assert.strictEqual(e.code, 'AEAD_ERR_NONCE_ORDER');
  }
});

test('Into forms write at an offset and leave the rest alone', () => {
  const g = new L.ChaCha20Poly1305(crypto.randomBytes(32));
  const n = crypto.randomBytes(12);
  const pt = crypto.randomBytes(100);
  const out = Buffer.alloc(200, 0x77);
  assert.strictEqual(g.encryptInto(n, pt, null, out, 50), 116);
  assert.deepStrictEqual(out.subarray(50, 166), g.encrypt(n, pt, null));
  assert.ok(out.subarray(0, 50).every((b) => b === 0x77) && out.subarray(166).every((b) => b === 0x77));
  const back = new Uint8Array(120);
  assert.strictEqual(g.decryptInto(n, out.subarray(50, 166), null, back, 20), 100);
  assert.deepStrictEqual(Buffer.from(back.subarray(20)), pt);
});

test('AES-SIV: components, deterministic, the AEAD form equals one component + nonce', () => {
  const s = new L.AESSIV(L.AESSIV.generateKey(512));
  const pt = crypto.randomBytes(33);
  const a = [crypto.randomBytes(5), crypto.randomBytes(0), crypto.randomBytes(20)];
  const c = s.encrypt(pt, a);
  assert.deepStrictEqual(s.encrypt(pt, a), c);
  assert.deepStrictEqual(s.decrypt(c, a), pt);
  assert.throws(() => s.decrypt(c, a.slice(0, 2)), L.AuthenticationError);
  const nonce = crypto.randomBytes(16);
  assert.deepStrictEqual(s.encryptWithNonce(nonce, pt, a[0]), s.encrypt(pt, [a[0], nonce]));
  assert.deepStrictEqual(s.decryptWithNonce(nonce, s.encrypt(pt, [a[0], nonce]), a[0]), pt);
  assert.throws(() => s.encrypt(pt, Array.from({ length: 127 }, () => Buffer.alloc(1))), (e) => e instanceof RangeError && e.code === 'AEAD_ERR_TOO_LONG');
});

test('random-nonce overhead and generateKey sizes', () => {
  assert.strictEqual(new L.AESGCMRandomNonce(L.AESGCM.generateKey(256)).overhead, 28);
  assert.strictEqual(new L.XChaCha20Poly1305RandomNonce(L.XChaCha20Poly1305.generateKey()).overhead, 40);
  assert.strictEqual(L.AESGCM.generateKey(192).length, 24);
  assert.throws(() => L.AESGCM.generateKey(100), RangeError);
});

test('forgotten contexts are freed (FinalizationRegistry, the handle finalizer as backstop)', () => {
  // 50k unclosed AES-SIV contexts (about 4 KiB of native state each): with the frees the child's RSS
  // stays bounded; with them disabled in the addon it grew by about 4 KiB per context (819 MiB for 200k).
  const script = `
    const L = require(${JSON.stringify(pkg)});
    const key = Buffer.alloc(64, 1);
    const rss = () => process.memoryUsage().rss;
    for (let i = 0; i < 5000; i++) new L.AESSIV(key).encrypt(Buffer.alloc(1), null);
    global.gc();
    (async () => {
      await new Promise((r) => setTimeout(r, 50)); global.gc();
      const before = rss();
      for (let round = 0; round < 5; round++) {
        for (let i = 0; i < 10000; i++) new L.AESSIV(key).encrypt(Buffer.alloc(1), null);
        global.gc(); await new Promise((r) => setTimeout(r, 10));
      }
      global.gc(); await new Promise((r) => setTimeout(r, 50));
      console.log(JSON.stringify({ growth: rss() - before }));
    })();`;
  const out = execFileSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' });
  const { growth } = JSON.parse(out.trim().split('\n').pop());
  console.log(`finalization: RSS growth over 50000 forgotten AES-SIV contexts: ${(growth / 1048576).toFixed(1)} MiB`);
  assert.ok(growth < 100 * 1048576, `RSS grew by ${growth} bytes`);
});
