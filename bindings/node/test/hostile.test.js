'use strict';
// Hostile callers: detached, transferred and resizable buffers, overlapping outputs other than the exact
// in-place alias, bad offsets and lengths, wrong types. Each must throw a TypeError or RangeError and
// write nothing; closed objects refuse further use.
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('crypto');
const { lib } = require('./helpers');

const L = lib();
const key = crypto.randomBytes(16);
const nonce = crypto.randomBytes(12);
const aad = crypto.randomBytes(7);
const pt = crypto.randomBytes(48);

function detached(n = 16) {
  const ab = new ArrayBuffer(n);
  structuredClone(ab, { transfer: [ab] });
  return ab;
}

function untouched(buf, fill) {
  assert.ok(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength).every((b) => b === fill), 'nothing written');
}

test('detached or transferred buffers: TypeError, nothing written', () => {
  const g = new L.AESGCM(key);
  const ab = new ArrayBuffer(16);
  const view = new Uint8Array(ab);
  structuredClone(ab, { transfer: [ab] }); // the view's buffer is transferred away
  for (const bad of [detached(), view]) {
    const out = Buffer.alloc(80, 0xaa);
    assert.throws(() => g.encryptInto(nonce, bad, aad, out), TypeError);
    assert.throws(() => g.encryptInto(bad, pt, aad, out), TypeError);
    assert.throws(() => g.encryptInto(nonce, pt, bad, out), TypeError);
    assert.throws(() => g.decryptInto(nonce, bad, aad, out), TypeError);
    assert.throws(() => g.decrypt(nonce, bad, aad), TypeError); // not an AuthenticationError
    untouched(out, 0xaa);
    assert.throws(() => g.encryptInto(nonce, pt, aad, bad), TypeError);
    assert.throws(() => new L.AESGCM(bad), (e) => e instanceof TypeError || e instanceof RangeError);
  }
  g.close();
});

test('resizable and growable buffers are refused (a resize could move a view out of bounds)', () => {
  const g = new L.AESGCM(key);
  const rab = new ArrayBuffer(64, { maxByteLength: 128 });
  const out = Buffer.alloc(80, 0xaa);
  assert.throws(() => g.encryptInto(nonce, new Uint8Array(rab), aad, out), TypeError);
  assert.throws(() => g.encryptInto(nonce, rab, aad, out), TypeError);
  assert.throws(() => g.encryptInto(nonce, pt, aad, new Uint8Array(rab)), TypeError);
  untouched(out, 0xaa);
  if (typeof SharedArrayBuffer === 'function') {
    let gsab = null;
    try { gsab = new SharedArrayBuffer(64, { maxByteLength: 128 }); } catch { /* not growable here */ }
    if (gsab && gsab.growable) assert.throws(() => g.encrypt(nonce, new Uint8Array(gsab), aad), TypeError);
  }
  g.close();
});

test('overlap: only the exact in-place alias is accepted', () => {
  const g = new L.AESGCM(key);
  const sealed = g.encrypt(nonce, pt, aad);
  // Exact in place (seal: plaintext at the start of the output; open: ciphertext at the start).
  const buf = Buffer.alloc(pt.length + 16);
  pt.copy(buf);
  assert.strictEqual(g.encryptInto(nonce, buf.subarray(0, pt.length), aad, buf), pt.length + 16);
  assert.deepStrictEqual(buf, sealed);
  assert.strictEqual(g.decryptInto(nonce, buf, aad, buf), pt.length);
  assert.deepStrictEqual(buf.subarray(0, pt.length), pt);
  // Shifted by one byte, over the AAD, over the nonce: RangeError AEAD_ERR_OVERLAP, nothing written.
  const arena = Buffer.alloc(256, 0x55);
  pt.copy(arena, 16);
  const snapshot = Buffer.from(arena);
  const overlap = (e) => e instanceof RangeError && e.code === 'AEAD_ERR_OVERLAP';
  assert.throws(() => g.encryptInto(nonce, arena.subarray(16, 16 + pt.length), aad, arena, 17), overlap);
  assert.throws(() => g.encryptInto(nonce, arena.subarray(16, 16 + pt.length), aad, arena, 8), overlap);
  assert.throws(() => g.encryptInto(nonce, pt, arena.subarray(100, 120), arena, 90), overlap);
  assert.throws(() => g.encryptInto(arena.subarray(100, 112), pt, aad, arena, 60), overlap);
  // The same bytes through a different view type of the same memory.
  assert.throws(() => g.encryptInto(nonce, new Uint8Array(arena.buffer, arena.byteOffset + 16, 48), aad,
    new DataView(arena.buffer, arena.byteOffset + 20, 100)), overlap);
  assert.deepStrictEqual(arena, snapshot);
  g.close();
});

test('bad offsets, short outputs and wrong sizes: RangeError, nothing written', () => {
  const g = new L.AESGCM(key);
  const out = Buffer.alloc(64 + 16, 0xaa);
  for (const off of [-1, 81, 1.5, NaN, Infinity, 2 ** 32, 2 ** 32 + 1, 2 ** 53]) {
    assert.throws(() => g.encryptInto(nonce, pt, aad, out, off), RangeError, `offset ${off}`);
  }
  assert.throws(() => g.encryptInto(nonce, pt, aad, out, 40), (e) => e instanceof RangeError && e.code === 'AEAD_ERR_BUFFER_TOO_SMALL');
  assert.throws(() => g.encryptInto(Buffer.alloc(0), pt, aad, out), (e) => e instanceof RangeError && e.code === 'AEAD_ERR_NONCE_SIZE');
  assert.throws(() => g.encryptInto(Buffer.alloc(129), pt, aad, out), (e) => e instanceof RangeError && e.code === 'AEAD_ERR_NONCE_SIZE');
  untouched(out, 0xaa);
  for (const k of [0, 15, 17, 33]) assert.throws(() => new L.AESGCM(Buffer.alloc(k)), RangeError);
  assert.throws(() => new L.ChaCha20Poly1305(Buffer.alloc(16)), (e) => e instanceof RangeError && e.code === 'AEAD_ERR_KEY_SIZE');
  assert.throws(() => new L.AESGCM(key, 3), (e) => e instanceof RangeError && e.code === 'AEAD_ERR_TAG_SIZE');
  assert.throws(() => new L.AESCCM(key, 5), RangeError);
  assert.throws(() => new L.AESGCMForTLS13(key, Buffer.alloc(5)), RangeError);
  assert.throws(() => new L.AESGCMForQUIC(key, Buffer.alloc(11)), RangeError);
  // Too short to hold a tag: the library's answer is an authentication failure.
  assert.throws(() => g.decrypt(nonce, Buffer.alloc(15), aad), L.AuthenticationError);
  assert.throws(() => new L.AESGCMRandomNonce(key).decrypt(Buffer.alloc(27), aad), L.AuthenticationError);
  g.close();
});

test('wrong types: TypeError for every argument', () => {
  const g = new L.AESGCM(key);
  for (const bad of ['abc', 12, {}, [1, 2, 3], true, Symbol('x'), () => 1]) {
    assert.throws(() => g.encrypt(bad, pt, aad), TypeError);
    assert.throws(() => g.encrypt(nonce, bad, aad), TypeError);
    assert.throws(() => g.encrypt(nonce, pt, bad), TypeError);
    assert.throws(() => g.encryptInto(nonce, pt, aad, bad), TypeError);
    assert.throws(() => new L.AESGCM(bad), TypeError);
  }
  assert.throws(() => g.encrypt(null, pt, aad), RangeError); // no nonce: size 0
  assert.throws(() => g.encrypt(nonce, null, aad), TypeError);
  assert.throws(() => new L.AESSIV(Buffer.alloc(32)).encrypt(pt, aad), TypeError); // components must be an array
  assert.throws(() => new L.AESSIV(Buffer.alloc(32)).encrypt(pt, ['x']), TypeError);
  g.close();
});

test('any byte view works and means its bytes (DataView, Float64Array, ArrayBuffer, SharedArrayBuffer)', () => {
  const g = new L.AESGCM(key);
  const expected = g.encrypt(nonce, pt, aad);
  const ab = pt.buffer.slice(pt.byteOffset, pt.byteOffset + pt.length);
  for (const v of [new DataView(ab), new Float64Array(ab), ab, new Uint16Array(ab, 8, 4)]) {
    const bytes = Buffer.from(ArrayBuffer.isView(v) ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(v));
    assert.deepStrictEqual(g.encrypt(nonce, v, aad), g.encrypt(nonce, bytes, aad));
  }
  assert.deepStrictEqual(g.encrypt(nonce, new DataView(ab), aad), expected);
  const sab = new SharedArrayBuffer(pt.length);
  new Uint8Array(sab).set(pt);
  assert.deepStrictEqual(g.encrypt(nonce, new Uint8Array(sab), aad), expected);
  const out = new Uint8Array(new SharedArrayBuffer(100));
  assert.strictEqual(g.encryptInto(nonce, pt, aad, out, 10), expected.length);
  assert.deepStrictEqual(Buffer.from(out.subarray(10, 10 + expected.length)), expected);
  g.close();
});

test('close(): later calls throw, close is idempotent, using works', () => {
  const g = new L.ChaCha20Poly1305(crypto.randomBytes(32));
  g.encrypt(nonce, pt, aad);
  g.close();
  g.close();
  assert.throws(() => g.encrypt(nonce, pt, aad), /closed/);
  assert.throws(() => g.decrypt(nonce, pt, aad), /closed/);
  const s = new L.AESSIV(Buffer.alloc(64));
  s[Symbol.dispose]();
  assert.throws(() => s.encrypt(pt, null), /closed/);
});
