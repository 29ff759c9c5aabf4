'use strict';
// encryptAsync / decryptAsync (libuv's thread pool): equal to node:crypto and to the synchronous calls on
// random inputs, many in flight at once; inputs are copied (changing or detaching them after the call
// does not change the result); close() while calls are in flight lets them finish; failures reject with
// the same errors as the synchronous calls.
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('crypto');
const { lib } = require('./helpers');

const L = lib();

test('async results equal node:crypto and the sync calls, 64 in flight', async () => {
  const key = crypto.randomBytes(32);
  const g = new L.AESGCM(key);
  const c = new L.ChaCha20Poly1305(key);
  const jobs = [];
  for (let i = 0; i < 64; i++) {
    const nonce = crypto.randomBytes(12);
    const pt = crypto.randomBytes(crypto.randomInt(0, 200000));
    const aad = crypto.randomBytes(crypto.randomInt(0, 64));
    jobs.push((async () => {
      const [sg, sc] = await Promise.all([g.encryptAsync(nonce, pt, aad), c.encryptAsync(nonce, pt, aad)]);
      const ci = crypto.createCipheriv('aes-256-gcm', key, nonce);
      ci.setAAD(aad);
      assert.deepStrictEqual(sg, Buffer.concat([ci.update(pt), ci.final(), ci.getAuthTag()]));
      assert.deepStrictEqual(sc, c.encrypt(nonce, pt, aad));
      assert.deepStrictEqual(await g.decryptAsync(nonce, sg, aad), pt);
      assert.deepStrictEqual(await c.decryptAsync(nonce, sc, aad), pt);
    })());
  }
  await Promise.all(jobs);
});

test('async copies its inputs; errors reject; close() waits for calls in flight', async () => {
  const key = crypto.randomBytes(16);
  const g = new L.AESOCB3(key);
  const nonce = crypto.randomBytes(12);
  const pt = crypto.randomBytes(1 << 20);
  const expected = g.encrypt(nonce, pt, null);
  const ab = pt.buffer.slice(pt.byteOffset, pt.byteOffset + pt.length);
  const view = new Uint8Array(ab);
  const p = g.encryptAsync(nonce, view, null);
  structuredClone(ab, { transfer: [ab] }); // the caller detaches its buffer while the work runs
  assert.deepStrictEqual(await p, expected);
  const bad = Buffer.from(expected);
  bad[7] ^= 1;
  await assert.rejects(g.decryptAsync(nonce, bad, null), L.AuthenticationError);
  await assert.rejects(g.encryptAsync(Buffer.alloc(16), pt, null), (e) => e instanceof RangeError && e.code === 'AEAD_ERR_NONCE_SIZE');
  await assert.rejects(g.encryptAsync(nonce, 'text', null), TypeError);
  await assert.rejects(g.encryptAsync(nonce, view, null), TypeError); // a view on the detached buffer
  const inflight = [g.encryptAsync(nonce, pt, null), g.decryptAsync(nonce, expected, null)];
  g.close();
  const [s, o] = await Promise.all(inflight);
  assert.deepStrictEqual(s, expected);
  assert.deepStrictEqual(o, pt);
  await assert.rejects(g.encryptAsync(nonce, pt, null), /closed/);
  assert.strictEqual(typeof new L.AESGCMForTLS13(key).encryptAsync, 'undefined');
});
