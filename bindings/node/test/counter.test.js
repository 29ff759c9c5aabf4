'use strict';
// Counter nonces (AESGCMCounterNonce, AESGCMXORCounterNonce) and SSH (AESGCMForSSH): the sequences
// of Go's TestGCMNoncesFIPSV1 (crypto/cipher/gcm_test.go), the IV given or learned, refusals that write and
// consume nothing, and random runs with gaps (and wraps past 2^64-1) against node:crypto's aes-*-gcm in
// both directions.
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('crypto');
const { lib, hex } = require('./helpers');

const L = lib();
const SSH_AAD = Buffer.from([0, 0, 0, 0x20]); // a packet length
const M64 = (1n << 64n) - 1n;

// fixed(4) || BE64(counter mod 2^64).
function nonce(fixed, counter) {
  const n = Buffer.alloc(12);
  n.writeUInt32BE(fixed >>> 0, 0);
  n.writeBigUInt64BE(BigInt(counter) & M64, 4);
  return n;
}
// fixed || (mask XOR n) for iv = fixed || mask.
const xorNonce = (iv, n) => { const x = Buffer.from(iv); x.writeBigUInt64BE(x.readBigUInt64BE(4) ^ (BigInt(n) & M64), 4); return x; };

// Encrypts "x" as Go's test does into a marked buffer: 'ok', or the refusal's code (the buffer untouched).
function tryNonce(aead, n, aad = null) {
  const out = Buffer.alloc(17, 0x5a);
  try {
    assert.strictEqual(aead.encryptInto(n, Buffer.from('x'), aad, out), 17);
    return 'ok';
  } catch (e) {
    assert.deepStrictEqual(out, Buffer.alloc(17, 0x5a), 'a refused encryption wrote');
    if (!(e instanceof L.NonceError)) throw e;
    return e.code;
  }
}

const ORDER = 'AEAD_ERR_NONCE_ORDER';
const EXHAUSTED = 'AEAD_ERR_NONCE_EXHAUSTED';
const PREFIX = 'AEAD_ERR_NONCE_PREFIX';

test("Go's NewGCMWithCounterNonce sequences", () => {
  const key = Buffer.alloc(16);
  const fresh = () => new L.AESGCMCounterNonce(key);
  let g = fresh();
  for (const c of [0n, 1n, 100n, 1n << 8n, 1n << 16n, 1n << 24n, 1n << 32n, 1n << 40n, 1n << 48n, 1n << 56n]) {
    assert.strictEqual(tryNonce(g, nonce(0, c)), 'ok', `counter ${c}`);
  }
  assert.strictEqual(tryNonce(g, nonce(1, 0)), PREFIX, 'changed name');
  g.close();
  g = fresh();
  assert.strictEqual(tryNonce(g, nonce(0, 1)), 'ok');
  assert.strictEqual(tryNonce(g, nonce(0, 0)), EXHAUSTED, 'went down: one below the start is 2^64-1 from it');
  g.close();
  g = fresh();
  assert.strictEqual(tryNonce(g, hex('0102030405060708090a0b0c')), 'ok');
  assert.strictEqual(tryNonce(g, hex('0102030405060708090a0b0d')), 'ok');
  assert.strictEqual(tryNonce(g, hex('0102030405060708090a0b0d')), ORDER, 'did not increment');
  g.close();
  g = fresh();
  assert.strictEqual(tryNonce(g, nonce(0x01020304, 0xffffffffffffff00n)), 'ok');
  assert.strictEqual(tryNonce(g, nonce(0x01020304, 0xffffffffffffffffn)), 'ok');
  assert.strictEqual(tryNonce(g, nonce(0x01020304, 0)), 'ok', 'a wrap is fine until the values run out');
  assert.strictEqual(tryNonce(g, nonce(0x01020304, 0xfffffffffffffefen)), 'ok');
  assert.strictEqual(tryNonce(g, nonce(0x01020304, 0xfffffffffffffeffn)), EXHAUSTED, 'back to the start');
  g.close();
  g = fresh();
  assert.strictEqual(tryNonce(g, nonce(0x01020304, 0xffffffffffffffffn)), 'ok');
  assert.strictEqual(tryNonce(g, nonce(0x01020305, 0)), PREFIX, 'a wrap carried into the name');
  g.close();
});

// Go's steps on one SSH object: [nonce hex | 'inc' (x/crypto/ssh's incIV on the last nonce), result].
function sshSteps(steps) {
  const g = new L.AESGCMForSSH(Buffer.alloc(16));
  let iv = null;
  for (const [n, want] of steps) {
    if (n === 'inc') iv.writeBigUInt64BE((iv.readBigUInt64BE(4) + 1n) & M64, 4);
    else iv = hex(n);
    assert.strictEqual(tryNonce(g, iv, SSH_AAD), want, `${iv.toString('hex')}`);
  }
  g.close();
}

test("Go's NewGCMForSSH sequences", () => {
  sshSteps([['11223344' + '0000000000000000', 'ok'], ['inc', 'ok'], ['11223344' + 'fffffffffffffffe', 'ok'], ['inc', EXHAUSTED]]);
  // wrapping is fine as long as the values do not run out
  sshSteps([['11223344' + 'fffffffffffffffe', 'ok'], ['inc', 'ok'], ['inc', 'ok'], ['inc', 'ok']]);
  sshSteps([['11223344' + 'aaaaaaaaaaaaaaaa', 'ok'], ['11223344' + 'ffffffffffffffff', 'ok'], ['inc', 'ok'],
    ['11223344' + 'aaaaaaaaaaaaaaa8', 'ok'], ['inc', EXHAUSTED], ['11223344' + 'bbbbbbbbbbbbbbbb', ORDER]]);
});

function nodeSeal(key, n, pt, aad) {
  const c = crypto.createCipheriv(`aes-${key.length * 8}-gcm`, key, n, { authTagLength: 16 });
  if (aad && aad.length) c.setAAD(aad);
  return Buffer.concat([c.update(pt), c.final(), c.getAuthTag()]);
}

function nodeOpen(key, n, sealed, aad) {
  const d = crypto.createDecipheriv(`aes-${key.length * 8}-gcm`, key, n, { authTagLength: 16 });
  d.setAuthTag(sealed.subarray(sealed.length - 16));
  if (aad && aad.length) d.setAAD(aad);
  return Buffer.concat([d.update(sealed.subarray(0, sealed.length - 16)), d.final()]);
}

test('XOR counter: the mask learned from counter 0 or given; the counter strictly increases', () => {
  const key = crypto.randomBytes(32);
  const iv = hex('a0a1a2a3' + '0123456789abcdef');
  for (const given of [false, true]) {
    const c = given ? new L.AESGCMXORCounterNonce(key, iv) : new L.AESGCMXORCounterNonce(key);
    const aad = crypto.randomBytes(crypto.randomInt(40));
    const pt = crypto.randomBytes(50);
    for (const n of [0, 1, 7]) assert.deepStrictEqual(c.encrypt(xorNonce(iv, n), pt, aad), nodeSeal(key, xorNonce(iv, n), pt, aad));
    assert.strictEqual(tryNonce(c, xorNonce(iv, 7)), ORDER);
    assert.strictEqual(tryNonce(c, xorNonce(iv, 3)), ORDER);
    assert.strictEqual(tryNonce(c, xorNonce(iv, M64)), EXHAUSTED);
    const other = xorNonce(iv, 8);
    other[0] ^= 1;
    assert.strictEqual(tryNonce(c, other), PREFIX);
    assert.strictEqual(tryNonce(c, xorNonce(iv, M64 - 1n)), 'ok', '2^64-2, the last one');
    assert.strictEqual(tryNonce(c, xorNonce(iv, M64 - 1n)), ORDER);
    c.close();
  }
});

test('counter and SSH with the IV given: the counter starts at its value', () => {
  const key = crypto.randomBytes(16);
  for (const [Cls, aad] of [[L.AESGCMCounterNonce, null], [L.AESGCMForSSH, SSH_AAD]]) {
    const c = new Cls(key, nonce(0xcafef00d, 5));
    assert.strictEqual(tryNonce(c, nonce(0xcafef00d, 4), aad), EXHAUSTED, 'one before the start');
    assert.strictEqual(tryNonce(c, nonce(0xcafef00e, 5), aad), PREFIX);
    assert.strictEqual(tryNonce(c, nonce(0xcafef00d, 5), aad), 'ok');
    assert.strictEqual(tryNonce(c, nonce(0xcafef00d, 5), aad), ORDER);
    assert.strictEqual(tryNonce(c, nonce(0xcafef00d, 9), aad), 'ok');
    c.close();
  }
});

test('keys, IVs, nonces and SSH AAD the classes take', () => {
  const rangeCode = (fn, code) => assert.throws(fn, (e) => e instanceof RangeError && e.code === code, code);
  rangeCode(() => new L.AESGCMForSSH(crypto.randomBytes(24)), 'AEAD_ERR_KEY_SIZE'); // RFC 5647: AES-128, AES-256
  rangeCode(() => new L.AESGCMCounterNonce(crypto.randomBytes(20)), 'AEAD_ERR_KEY_SIZE');
  new L.AESGCMCounterNonce(crypto.randomBytes(24)).close();
  new L.AESGCMXORCounterNonce(crypto.randomBytes(24)).close();
  new L.AESGCMForSSH(crypto.randomBytes(32)).close();
  for (const Cls of [L.AESGCMCounterNonce, L.AESGCMXORCounterNonce, L.AESGCMForSSH]) {
    for (const ivLen of [4, 8, 16]) rangeCode(() => new Cls(crypto.randomBytes(16), crypto.randomBytes(ivLen)), 'AEAD_ERR_NONCE_SIZE');
    const c = new Cls(crypto.randomBytes(16));
    rangeCode(() => c.encrypt(crypto.randomBytes(8), Buffer.alloc(4), Cls === L.AESGCMForSSH ? SSH_AAD : null), 'AEAD_ERR_NONCE_SIZE');
    assert.strictEqual(c.tagLength, 16);
    c.close();
  }
  const ssh = new L.AESGCMForSSH(crypto.randomBytes(32));
  for (const len of [0, 3, 5, 13]) rangeCode(() => tryNonce(ssh, nonce(7, 100), Buffer.alloc(len)), 'AEAD_ERR_AAD_SIZE');
  assert.strictEqual(tryNonce(ssh, nonce(7, 100), SSH_AAD), 'ok', 'the refusals consumed nothing');
  ssh.close();
});

test('decryption checks no order and no AAD length; a batch refuses a reused counter', () => {
  const key = crypto.randomBytes(16);
  const ssh = new L.AESGCMForSSH(key);
  const counter = new L.AESGCMCounterNonce(key);
  for (const n of [3, 1, 3]) {
    const aad = crypto.randomBytes(9);
    const pt = crypto.randomBytes(5);
    const sealed = nodeSeal(key, nonce(7, n), pt, aad);
    assert.deepStrictEqual(ssh.decrypt(nonce(7, n), sealed, aad), pt);
    assert.deepStrictEqual(counter.decrypt(nonce(7, n), sealed, aad), pt);
    sealed[0] ^= 1;
    assert.throws(() => ssh.decrypt(nonce(7, n), sealed, aad), L.AuthenticationError);
  }
  const pts = [crypto.randomBytes(3), crypto.randomBytes(4)];
  assert.throws(() => ssh.encryptMany([nonce(1, 10), nonce(1, 10)], pts, [SSH_AAD, SSH_AAD]),
    (e) => e instanceof L.NonceError && e.code === ORDER && e.index === 1);
  assert.strictEqual(tryNonce(ssh, nonce(1, 11), SSH_AAD), 'ok');
  ssh.close();
  counter.close();
});

const ROUNDS = Number(process.env.AEAD_NODE_DIFF_ROUNDS || 300);

// Random runs with gaps: every encryption equals node:crypto's under the same nonce and opens there, its
// output opens here, and a reused counter is refused; the counter starts anywhere (given or learned, near
// 2^64-1 sometimes, so that it wraps).
test('random runs with gaps equal node:crypto aes-*-gcm, both directions', () => {
  const runs = [];
  for (const [cls, bits] of [['AESGCMCounterNonce', [128, 192, 256]], ['AESGCMXORCounterNonce', [128, 192, 256]],
    ['AESGCMForSSH', [128, 256]]]) {
    for (const b of bits) for (const given of [false, true]) runs.push([cls, b, given]);
  }
  const perRun = Math.max(20, Math.ceil(ROUNDS / runs.length) * 4);
  let seals = 0;
  for (const [cls, bits, given] of runs) {
    const key = crypto.randomBytes(bits / 8);
    const iv = crypto.randomBytes(12);
    if (crypto.randomInt(3) === 0 && cls !== 'AESGCMXORCounterNonce') iv.fill(0xff, 4, 11); // wraps within the run
    const ssh = cls === 'AESGCMForSSH';
    const c = given ? new L[cls](key, iv) : new L[cls](key);
    const fixed = iv.readUInt32BE(0);
    const start = iv.readBigUInt64BE(4);
    const at = (n) => (cls === 'AESGCMXORCounterNonce' ? xorNonce(iv, n) : nonce(fixed, start + n));
    let n = 0n;
    for (let k = 0; k < perRun; k++) {
      const x = at(n);
      const aad = ssh ? crypto.randomBytes(4) : crypto.randomBytes(crypto.randomInt(4) === 0 ? 0 : crypto.randomInt(64));
      const pt = crypto.randomBytes(crypto.randomInt(8) === 0 ? crypto.randomInt(70000) : crypto.randomInt(300));
      const ours = c.encrypt(x, pt, aad);
      assert.deepStrictEqual(ours, nodeSeal(key, x, pt, aad), `${cls} ${bits} n ${n} pt ${pt.length}`);
      assert.deepStrictEqual(nodeOpen(key, x, ours, aad), pt);
      assert.deepStrictEqual(c.decrypt(x, ours, aad), pt);
      if (k % 7 === 3) assert.strictEqual(tryNonce(c, x, ssh ? SSH_AAD : null), ORDER);
      seals++;
      n += 1n + BigInt(crypto.randomInt(k % 5 === 0 ? 1000 : 2));
    }
    c.close();
  }
  assert.ok(seals >= runs.length * 20);
});
