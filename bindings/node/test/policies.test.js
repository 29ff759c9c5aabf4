'use strict';
// Nonce policies enforced inside the library: TLS 1.2 / 1.3 record sequences and QUIC packet numbers
// must strictly increase on encrypt (a reused or lower one is a NonceError carrying the library's code,
// nothing is written and no sequence is consumed); decrypt checks no order. The nonces the policies
// accept are checked against node:crypto.
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('crypto');
const { lib } = require('./helpers');

const L = lib();

const be64 = (n) => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(n)); return b; };
const xorSeq = (iv, seq) => { const n = Buffer.from(iv); n.writeBigUInt64BE(n.readBigUInt64BE(4) ^ BigInt(seq), 4); return n; };

function nodeSeal(name, key, nonce, pt, aad) {
  const c = crypto.createCipheriv(name, key, nonce, { authTagLength: 16 });
  c.setAAD(aad);
  return Buffer.concat([c.update(pt), c.final(), c.getAuthTag()]);
}

function refusedNonce(fn, code) {
  assert.throws(fn, (e) => e instanceof L.NonceError && e.code === code && typeof e.aeadCode === 'number' && e.aeadCode < 0,
    `expected NonceError ${code}`);
}

test('AESGCMForTLS12 without iv: salt learned, sequence strictly increasing, refusals write nothing', () => {
  const key = crypto.randomBytes(16);
  const salt = crypto.randomBytes(4);
  const t = new L.AESGCMForTLS12(key);
  const aad = crypto.randomBytes(13);
  const pt = crypto.randomBytes(40);
  const nonce = (seq) => Buffer.concat([salt, be64(seq)]);
  assert.deepStrictEqual(t.encrypt(nonce(1), pt, aad), nodeSeal('aes-128-gcm', key, nonce(1), pt, aad));
  const out = Buffer.alloc(pt.length + 16, 0xaa);
  refusedNonce(() => t.encryptInto(nonce(1), pt, aad, out), 'AEAD_ERR_NONCE_ORDER');
  refusedNonce(() => t.encryptInto(nonce(0), pt, aad, out), 'AEAD_ERR_NONCE_ORDER');
  refusedNonce(() => t.encryptInto(Buffer.concat([crypto.randomBytes(4), be64(9)]), pt, aad, out), 'AEAD_ERR_NONCE_PREFIX');
  refusedNonce(() => t.encryptInto(nonce((1n << 64n) - 1n), pt, aad, out), 'AEAD_ERR_NONCE_EXHAUSTED');
  assert.throws(() => t.encryptInto(nonce(5), pt, aad.subarray(0, 5), out), (e) => e instanceof RangeError && e.code === 'AEAD_ERR_AAD_SIZE');
  assert.ok(out.every((b) => b === 0xaa), 'refused seals wrote nothing');
  // The refused sequence 5 (bad AAD) was not consumed; gaps are allowed.
  assert.strictEqual(t.encryptInto(nonce(5), pt, aad, out), pt.length + 16);
  refusedNonce(() => t.encrypt(nonce(5), pt, aad), 'AEAD_ERR_NONCE_ORDER');
  // Decryption checks no order: the first record still opens.
  assert.deepStrictEqual(t.decrypt(nonce(1), nodeSeal('aes-128-gcm', key, nonce(1), pt, aad), aad), pt);
  t.close();
});

test('AESGCMForTLS12 with a 4-byte salt: explicit nonce = BE64(seq)', () => {
  const key = crypto.randomBytes(32);
  const salt = crypto.randomBytes(4);
  const t = new L.AESGCMForTLS12(key, salt);
  const aad = crypto.randomBytes(13);
  for (const seq of [0, 1, 2, 7, 1000]) {
    const n = Buffer.concat([salt, be64(seq)]);
    assert.deepStrictEqual(t.encrypt(n, Buffer.from('x'), aad), nodeSeal('aes-256-gcm', key, n, Buffer.from('x'), aad));
  }
  refusedNonce(() => t.encrypt(Buffer.concat([salt, be64(1000)]), Buffer.from('x'), aad), 'AEAD_ERR_NONCE_ORDER');
  t.close();
});

for (const [cls, name, keyLen, aadLen] of [
  ['AESGCMForTLS13', 'aes-128-gcm', 16, 5], ['ChaCha20Poly1305ForTLS13', 'chacha20-poly1305', 32, 5],
  ['ChaCha20Poly1305ForTLS12', 'chacha20-poly1305', 32, 13]]) {
  test(`${cls}: nonce = iv XOR seq, reuse refused (with and without iv)`, () => {
    for (const given of [true, false]) {
      const key = crypto.randomBytes(keyLen);
      const iv = crypto.randomBytes(12);
      const t = given ? new L[cls](key, iv) : new L[cls](key);
      const aad = crypto.randomBytes(aadLen);
      for (const seq of [0, 1, 2, 3, 10, 11]) {
        const pt = crypto.randomBytes(seq * 3);
        assert.deepStrictEqual(t.encrypt(xorSeq(iv, seq), pt, aad), nodeSeal(name, key, xorSeq(iv, seq), pt, aad));
      }
      for (const seq of [11, 10, 0]) refusedNonce(() => t.encrypt(xorSeq(iv, seq), Buffer.alloc(1), aad), 'AEAD_ERR_NONCE_ORDER');
      const other = Buffer.from(iv);
      other[0] ^= 1;
      refusedNonce(() => t.encrypt(xorSeq(other, 12), Buffer.alloc(1), aad), 'AEAD_ERR_NONCE_PREFIX');
      assert.throws(() => t.encrypt(xorSeq(iv, 12), Buffer.alloc(1), Buffer.alloc(aadLen + 1)), RangeError);
      assert.strictEqual(t.encrypt(xorSeq(iv, 12), Buffer.alloc(1), aad).length, 17);
      t.close();
    }
  });
}

test('QUIC: packet numbers increase on encrypt, any order on decrypt, match node:crypto', () => {
  for (const [cls, name, keyLen] of [['AESGCMForQUIC', 'aes-128-gcm', 16], ['AESGCMForQUIC', 'aes-256-gcm', 32],
    ['ChaCha20Poly1305ForQUIC', 'chacha20-poly1305', 32]]) {
    const key = crypto.randomBytes(keyLen);
    const iv = crypto.randomBytes(12);
    const q = new L[cls](key, iv);
    const hdr = crypto.randomBytes(20);
    const sealed = [];
    for (const pn of [0, 1, 5, 6, 2 ** 40]) {
      const pt = crypto.randomBytes(30);
      const s = q.encrypt(pt, hdr, pn);
      assert.deepStrictEqual(s, nodeSeal(name, key, xorSeq(iv, pn), pt, hdr));
      sealed.push([pn, pt, s]);
    }
    refusedNonce(() => q.encrypt(Buffer.alloc(3), hdr, 6), 'AEAD_ERR_NONCE_ORDER');
    assert.throws(() => q.encrypt(Buffer.alloc(3), hdr, 2n ** 62n), RangeError);
    for (const [pn, pt, s] of sealed.reverse()) assert.deepStrictEqual(q.decrypt(s, hdr, pn), pt);
    assert.throws(() => q.decrypt(sealed[0][2], hdr, 3), L.AuthenticationError);
    q.close();
  }
});
