'use strict';
// AEGIS (RFC 10032) in the package: the specification's test vectors (tests/vectors.py's aegis/ files)
// for every variant with both tag lengths (sealed byte for byte, opened, a flipped bit refused; its
// must-fail vectors refused), the sizes each class takes and the errors for wrong ones, the random-nonce
// classes, the Into, batch and async forms. The differential test against libsodium is
// test/aegis-libsodium.test.js.
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { vectorsDir, lib, hex } = require('./helpers');

const L = lib();

const VARIANTS = [
  ['AEGIS128L', 16], ['AEGIS256', 32], ['AEGIS128X2', 16], ['AEGIS128X4', 16], ['AEGIS256X2', 32], ['AEGIS256X4', 32],
];

// RFC 10032's test vectors (its appendix's "Test Vector 1".. of each variant), read from the aegis crate's
// JSON files that tests/vectors.py unpacks into aegis/, as tests/test_aegis.cpp does. Entries without "ct"
// are intermediate states (skipped); those with "error" (and no "msg") must fail verification.
function rfcVectors() {
  return VARIANTS.flatMap(([cls]) => {
    const file = path.join(vectorsDir(), 'aegis', `aegis-${cls.slice(5).toLowerCase()}-test-vectors.json`);
    return JSON.parse(fs.readFileSync(file, 'utf8')).filter((v) => 'ct' in v)
      .map((v) => ({ ...v, cls, name: `${cls} ${v.name}`, valid: !('error' in v) }));
  });
}

const isCode = (Cls, code) => (e) => e instanceof Cls && e.code === code;

test('RFC 10032 test vectors: every variant, 16- and 32-byte tags', () => {
  let sealed = 0;
  let refused = 0;
  for (const v of rfcVectors()) {
    for (const tagLength of [16, 32]) {
      const what = `${v.name}, tag ${tagLength}`;
      const key = hex(v.key);
      const nonce = hex(v.nonce);
      const ad = hex(v.ad);
      const want = Buffer.concat([hex(v.ct), hex(tagLength === 16 ? v.tag128 : v.tag256)]);
      assert.strictEqual(want.length, hex(v.ct).length + tagLength, what);
      const a = new L[v.cls](key, tagLength);
      assert.strictEqual(a.tagLength, tagLength);
      if (v.valid) {
        const msg = hex(v.msg);
        assert.deepStrictEqual(a.encrypt(nonce, msg, ad), want, what);
        assert.deepStrictEqual(a.decrypt(nonce, want, ad), msg, what);
        // In place: the plaintext's buffer holds the sealed message afterwards, and opens back in place.
        const buf = Buffer.alloc(want.length);
        msg.copy(buf);
        assert.strictEqual(a.encryptInto(nonce, buf.subarray(0, msg.length), ad, buf), want.length, what);
        assert.deepStrictEqual(buf, want, what);
        assert.strictEqual(a.decryptInto(nonce, buf, ad, buf), msg.length, what);
        assert.deepStrictEqual(buf.subarray(0, msg.length), msg, what);
        // A flipped bit anywhere (first and last byte of the ciphertext, the tag), or other AD: refused.
        for (const at of new Set([0, hex(v.ct).length, want.length - 1])) {
          const forged = Buffer.from(want);
          forged[at] ^= 0x01;
          assert.throws(() => a.decrypt(nonce, forged, ad), isCode(L.AuthenticationError, 'AEAD_ERR_AUTH'), `${what} bit at ${at}`);
        }
        assert.throws(() => a.decrypt(nonce, want, Buffer.concat([ad, Buffer.alloc(1)])), L.AuthenticationError, what);
        sealed++;
      } else {
        assert.throws(() => a.decrypt(nonce, want, ad), isCode(L.AuthenticationError, 'AEAD_ERR_AUTH'), what);
        refused++;
      }
      a.close();
    }
  }
  assert.strictEqual(sealed, 2 * 18);
  assert.strictEqual(refused, 2 * 8);
  console.log(`RFC 10032: ${sealed} vectors sealed and opened, ${refused} must-fail vectors refused`);
});

test('sizes: key and nonce 16 or 32 bytes by variant, tags 16 or 32; wrong ones are RangeErrors with the library code', () => {
  for (const [name, size] of VARIANTS) {
    const Cls = L[name];
    const Rnd = L[`${name}RandomNonce`];
    assert.strictEqual(Cls.name, name);
    assert.strictEqual(Rnd.name, `${name}RandomNonce`);
    assert.strictEqual(Cls.generateKey().length, size);
    assert.strictEqual(Rnd.generateKey().length, size);
    for (const n of [0, size - 1, size + 1, size === 16 ? 32 : 16]) {
      assert.throws(() => new Cls(crypto.randomBytes(n)), isCode(RangeError, 'AEAD_ERR_KEY_SIZE'), `${name} key ${n}`);
      assert.throws(() => new Rnd(crypto.randomBytes(n)), isCode(RangeError, 'AEAD_ERR_KEY_SIZE'), `${name}RandomNonce key ${n}`);
    }
    const key = Cls.generateKey();
    for (let t = 1; t <= 40; t++) {
      if (t === 16 || t === 32) continue;
      assert.throws(() => new Cls(key, t), isCode(RangeError, 'AEAD_ERR_TAG_SIZE'), `${name} tag ${t}`);
      assert.throws(() => new Rnd(key, t), isCode(RangeError, 'AEAD_ERR_TAG_SIZE'), `${name}RandomNonce tag ${t}`);
    }
    assert.throws(() => new Cls(key, '32'), TypeError);
    assert.throws(() => new Rnd(key, 16.5), TypeError);
    assert.throws(() => new Cls(key.subarray(0, 8), 32), isCode(RangeError, 'AEAD_ERR_KEY_SIZE'));
    for (const tagLength of [16, 32]) {
      const a = new Cls(key, tagLength);
      const pt = crypto.randomBytes(40);
      const aad = crypto.randomBytes(5);
      for (let n = 0; n <= 40; n++) {
        if (n === size) continue;
        assert.throws(() => a.encrypt(crypto.randomBytes(n), pt, aad), isCode(RangeError, 'AEAD_ERR_NONCE_SIZE'), `${name} nonce ${n}`);
        assert.throws(() => a.decrypt(crypto.randomBytes(n), Buffer.alloc(56), aad), isCode(RangeError, 'AEAD_ERR_NONCE_SIZE'));
      }
      const nonce = crypto.randomBytes(size);
      const sealed = a.encrypt(nonce, pt, aad);
      assert.strictEqual(sealed.length, pt.length + tagLength);
      // An output one byte short is refused and left alone; a message shorter than the tag does not open.
      const small = Buffer.alloc(sealed.length - 1, 0xee);
      assert.throws(() => a.encryptInto(nonce, pt, aad, small), isCode(RangeError, 'AEAD_ERR_BUFFER_TOO_SMALL'));
      assert.ok(small.every((b) => b === 0xee), 'a refused seal wrote nothing');
      assert.throws(() => a.decrypt(nonce, sealed.subarray(0, tagLength - 1), aad), L.AuthenticationError);
      assert.deepStrictEqual(a.decrypt(nonce, a.encrypt(nonce, Buffer.alloc(0), null), null), Buffer.alloc(0));
      // The other tag length's object does not open it.
      const other = new Cls(key, tagLength === 16 ? 32 : 16);
      assert.throws(() => other.decrypt(nonce, sealed, aad), L.AuthenticationError);
      other.close();
      a.close();
    }
    // The default tag is 16 bytes.
    assert.strictEqual(new Cls(key).tagLength, 16);
    assert.strictEqual(new Rnd(key).overhead, size + 16);
    assert.strictEqual(new Rnd(key, 32).overhead, size + 32);
  }
});

test('random-nonce classes: nonce || ciphertext || tag, the plain class agrees, fresh nonces, a flipped bit refused', () => {
  for (const [name, size] of VARIANTS) {
    for (const tagLength of [16, 32]) {
      const key = L[name].generateKey();
      const r = new L[`${name}RandomNonce`](key, tagLength);
      const p = new L[name](key, tagLength);
      assert.strictEqual(r.tagLength, tagLength);
      const nonces = new Set();
      for (let i = 0; i < 50; i++) {
        const pt = crypto.randomBytes(crypto.randomInt(300));
        const aad = crypto.randomBytes(crypto.randomInt(40));
        const out = r.encrypt(pt, aad);
        assert.strictEqual(out.length, pt.length + r.overhead);
        const nonce = out.subarray(0, size);
        nonces.add(nonce.toString('hex'));
        assert.deepStrictEqual(out.subarray(size), p.encrypt(nonce, pt, aad));
        assert.deepStrictEqual(r.decrypt(out, aad), pt);
        const bad = Buffer.from(out);
        bad[crypto.randomInt(bad.length)] ^= 1 << crypto.randomInt(8);
        assert.throws(() => r.decrypt(bad, aad), isCode(L.AuthenticationError, 'AEAD_ERR_AUTH'));
      }
      assert.strictEqual(nonces.size, 50, 'every drawn nonce differs');
      assert.throws(() => r.decrypt(Buffer.alloc(r.overhead - 1), null), L.AuthenticationError);
      const out = Buffer.alloc(r.overhead + 10);
      assert.strictEqual(r.encryptInto(Buffer.alloc(10, 7), null, out), out.length);
      const back = Buffer.alloc(10);
      assert.strictEqual(r.decryptInto(out, null, back), 10);
      assert.deepStrictEqual(back, Buffer.alloc(10, 7));
      r.close();
      p.close();
    }
  }
});

test('batches and the thread pool agree with one-at-a-time calls', async () => {
  for (const [name, size] of VARIANTS) {
    const a = new L[name](L[name].generateKey(), 32);
    const nonces = Array.from({ length: 9 }, () => crypto.randomBytes(size));
    const datas = nonces.map(() => crypto.randomBytes(crypto.randomInt(2000)));
    const aads = nonces.map((_, i) => (i % 3 ? crypto.randomBytes(i) : null));
    const sealed = a.encryptMany(nonces, datas, aads);
    sealed.forEach((s, i) => assert.deepStrictEqual(s, a.encrypt(nonces[i], datas[i], aads[i])));
    assert.deepStrictEqual(a.decryptMany(nonces, sealed, aads), datas);
    assert.deepStrictEqual(await a.encryptAsync(nonces[0], datas[0], aads[0]), sealed[0]);
    assert.deepStrictEqual(await a.decryptAsync(nonces[1], sealed[1], aads[1]), datas[1]);
    sealed[4] = Buffer.from(sealed[4]);
    sealed[4][sealed[4].length - 1] ^= 0x80;
    assert.throws(() => a.decryptMany(nonces, sealed, aads), (e) => e instanceof L.AuthenticationError && e.index === 4);
    await assert.rejects(a.decryptAsync(nonces[4], sealed[4], aads[4]), L.AuthenticationError);
    a.close();
  }
});
