'use strict';
// Differential tests on random inputs: libaead against independent implementations, both directions
// (libaead's ciphertext opens there, theirs opens here, and both agree byte for byte):
// node:crypto's OpenSSL (the copy inside Node) for AES-GCM (every key size, nonce and tag length),
// ChaCha20-Poly1305, AES-CCM and AES-OCB3; @noble/ciphers (pure JavaScript) for XChaCha20-Poly1305 and
// AES-GCM-SIV. Random nonces: libaead's AESGCMRandomNonce output is opened by node:crypto.
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('crypto');
const { lib } = require('./helpers');

const L = lib();
const ROUNDS = Number(process.env.AEAD_NODE_DIFF_ROUNDS || 300);
const rnd = (n) => crypto.randomBytes(n);
const int = (lo, hi) => lo + crypto.randomInt(hi - lo + 1);
// Lengths biased to the interesting ones: empty, around a block, and some larger.
const len = () => [0, 1, 15, 16, 17, 63, 64, 65][int(0, 7)] + (int(0, 3) === 0 ? int(0, 4096) : 0);

function nodeSeal(name, key, nonce, pt, aad, tagLen, ccm) {
  const opts = { authTagLength: tagLen };
  const c = crypto.createCipheriv(name, key, nonce, opts);
  if (aad.length || ccm) c.setAAD(aad, ccm ? { plaintextLength: pt.length } : undefined);
  // An empty Buffer from crypto.randomBytes(0) makes node:crypto's CCM final() fail ("tag not set"),
  // Buffer.alloc(0) does not: a node:crypto quirk, so empty inputs are given to it as Buffer.alloc(0).
  return Buffer.concat([c.update(pt.length ? pt : Buffer.alloc(0)), c.final(), c.getAuthTag()]);
}

function nodeOpen(name, key, nonce, sealed, aad, tagLen, ccm) {
  const ct = sealed.subarray(0, sealed.length - tagLen);
  const d = crypto.createDecipheriv(name, key, nonce, { authTagLength: tagLen });
  d.setAuthTag(sealed.subarray(sealed.length - tagLen));
  if (aad.length || ccm) d.setAAD(aad, ccm ? { plaintextLength: ct.length } : undefined);
  return Buffer.concat([d.update(ct.length ? ct : Buffer.alloc(0)), d.final()]);
}

function both(obj, name, key, nonce, pt, aad, tagLen, ccm = false) {
  const ours = obj.encrypt(nonce, pt, aad);
  const theirs = nodeSeal(name, key, nonce, pt, aad, tagLen, ccm);
  assert.deepStrictEqual(ours, theirs, `${name} nonce ${nonce.length} pt ${pt.length} aad ${aad.length}`);
  assert.deepStrictEqual(nodeOpen(name, key, nonce, ours, aad, tagLen, ccm), pt);
  assert.deepStrictEqual(obj.decrypt(nonce, theirs, aad), pt);
  if (ours.length > 0) {
    const bad = Buffer.from(ours);
    bad[int(0, bad.length - 1)] ^= 1 << int(0, 7);
    assert.throws(() => obj.decrypt(nonce, bad, aad), L.AuthenticationError);
  }
}

test('AES-GCM vs node:crypto (key sizes, nonce 1..128 bytes, tags 4..16)', () => {
  for (let i = 0; i < ROUNDS; i++) {
    const bits = [128, 192, 256][i % 3];
    const tag = [16, 16, 12, 13, 14, 15, 8, 4][int(0, 7)];
    const key = rnd(bits / 8);
    const nonce = rnd(int(0, 3) === 0 ? int(1, 128) : 12);
    const obj = new L.AESGCM(key, tag);
    both(obj, `aes-${bits}-gcm`, key, nonce, rnd(len()), rnd(int(0, 2) === 0 ? 0 : len()), tag);
    obj.close();
  }
});

test('ChaCha20-Poly1305 vs node:crypto', () => {
  for (let i = 0; i < ROUNDS; i++) {
    const key = rnd(32);
    const obj = new L.ChaCha20Poly1305(key);
    both(obj, 'chacha20-poly1305', key, rnd(12), rnd(len()), rnd(len()), 16);
    obj.close();
  }
});

test('AES-CCM vs node:crypto (nonce 7..13, tags 4..16)', () => {
  for (let i = 0; i < ROUNDS; i++) {
    const bits = [128, 192, 256][i % 3];
    const tag = [4, 6, 8, 10, 12, 14, 16][int(0, 6)];
    const key = rnd(bits / 8);
    const nonce = rnd(int(7, 13));
    const max = nonce.length === 13 ? 65535 : 4096;
    const obj = new L.AESCCM(key, tag);
    both(obj, `aes-${bits}-ccm`, key, nonce, rnd(Math.min(len(), max)), rnd(len()), tag, true);
    obj.close();
  }
});

test('AES-OCB3 vs node:crypto (nonce 1..15)', () => {
  for (let i = 0; i < ROUNDS; i++) {
    const bits = [128, 192, 256][i % 3];
    const key = rnd(bits / 8);
    const obj = new L.AESOCB3(key);
    both(obj, `aes-${bits}-ocb`, key, rnd(int(1, 15)), rnd(len()), rnd(len()), 16);
    obj.close();
  }
});

test('XChaCha20-Poly1305 and AES-GCM-SIV vs @noble/ciphers', async () => {
  const { xchacha20poly1305 } = await import('@noble/ciphers/chacha.js');
  const { gcmsiv } = await import('@noble/ciphers/aes.js');
  for (let i = 0; i < ROUNDS; i++) {
    const key = rnd(32);
    const nonce = rnd(24);
    const pt = rnd(len());
    const aad = rnd(len());
    const x = new L.XChaCha20Poly1305(key);
    const ours = x.encrypt(nonce, pt, aad);
    const theirs = Buffer.from(xchacha20poly1305(key, nonce, aad).encrypt(pt));
    assert.deepStrictEqual(ours, theirs);
    assert.deepStrictEqual(x.decrypt(nonce, theirs, aad), pt);
    x.close();

    const skey = rnd(i % 2 ? 16 : 32);
    const snonce = rnd(12);
    const s = new L.AESGCMSIV(skey);
    const sOurs = s.encrypt(snonce, pt, aad);
    const sTheirs = Buffer.from(gcmsiv(skey, snonce, aad).encrypt(pt));
    assert.deepStrictEqual(sOurs, sTheirs);
    assert.deepStrictEqual(Buffer.from(gcmsiv(skey, snonce, aad).decrypt(sOurs)), pt);
    assert.deepStrictEqual(s.decrypt(snonce, sTheirs, aad), pt);
    s.close();
  }
});

test('AESGCMRandomNonce / XChaCha20Poly1305RandomNonce: nonce || ct || tag opens elsewhere', async () => {
  const { xchacha20poly1305 } = await import('@noble/ciphers/chacha.js');
  const nonces = new Set();
  for (let i = 0; i < ROUNDS; i++) {
    const key = rnd(16);
    const g = new L.AESGCMRandomNonce(key);
    const pt = rnd(len());
    const aad = rnd(len());
    const out = g.encrypt(pt, aad);
    assert.strictEqual(out.length, pt.length + 28);
    nonces.add(out.subarray(0, 12).toString('hex'));
    assert.deepStrictEqual(nodeOpen('aes-128-gcm', key, out.subarray(0, 12), out.subarray(12), aad, 16), pt);
    assert.deepStrictEqual(g.decrypt(out, aad), pt);
    g.close();
    const xkey = rnd(32);
    const x = new L.XChaCha20Poly1305RandomNonce(xkey);
    const xo = x.encrypt(pt, aad);
    assert.deepStrictEqual(Buffer.from(xchacha20poly1305(xkey, xo.subarray(0, 24), aad).decrypt(xo.subarray(24))), pt);
    x.close();
  }
  assert.strictEqual(nonces.size, ROUNDS, 'every drawn nonce differs');
});

test('batches: encryptMany/decryptMany equal record-by-record calls', () => {
  for (let i = 0; i < 20; i++) {
    const key = rnd(32);
    const obj = new L.ChaCha20Poly1305(key);
    const n = int(0, 40);
    const nonces = Array.from({ length: n }, () => rnd(12));
    const datas = Array.from({ length: n }, () => rnd(len()));
    const aads = Array.from({ length: n }, () => (int(0, 3) ? rnd(len()) : null));
    const sealed = obj.encryptMany(nonces, datas, aads);
    sealed.forEach((s, k) => assert.deepStrictEqual(s, nodeSeal('chacha20-poly1305', key, nonces[k], datas[k], aads[k] || Buffer.alloc(0), 16)));
    assert.deepStrictEqual(obj.decryptMany(nonces, sealed, aads), datas);
    if (n > 0) {
      const k = int(0, n - 1);
      sealed[k] = Buffer.from(sealed[k]);
      sealed[k][0] ^= 1;
      assert.throws(() => obj.decryptMany(nonces, sealed, aads), (e) => e instanceof L.AuthenticationError && e.index === k);
    }
    obj.close();
  }
});
