'use strict';
// AEGIS (RFC 10032) in the package: the specification's test vectors for every variant with both tag
// lengths (sealed byte for byte, opened, a flipped bit refused; its must-fail vectors refused), the
// sizes each class takes and the errors for wrong ones, the random-nonce classes, the Into, batch and
// async forms. The differential test against libsodium is test/aegis-libsodium.test.js.
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('crypto');
const { lib, hex } = require('./helpers');

const L = lib();

// The parallel variants' vectors (two each) share their inputs: key 00 01 02 .. and nonce 10 11 12 .. of the
// variant's size; first an empty message and AD, then 120 bytes of 04050607.. under the AD 0102030401020304.
function parallelVectors(cls, size, [emptyTag16, emptyTag32], [ct, tag16, tag32]) {
  const counting = (from) => Buffer.from(Array.from({ length: size }, (_, i) => from + i)).toString('hex');
  const common = { cls, valid: true, key: counting(0), nonce: counting(16) };
  const name = `AEGIS-${cls.slice(5)} test vector`;
  return [
    { ...common, name: `${name} 1`, ad: '', msg: '', ct: '', tag16: emptyTag16, tag32: emptyTag32 },
    { ...common, name: `${name} 2`, ad: '0102030401020304', msg: '04050607'.repeat(30), ct, tag16, tag32 },
  ];
}

// RFC 10032's test vectors (its appendix's "Test Vector 1".. of each variant), as tests/test_aegis.cpp
// carries them. valid false: the vector must fail verification (no msg).
const VECTORS = [
  { cls: 'AEGIS128L', name: 'AEGIS-128L test vector 1', valid: true,
    key: '10010000000000000000000000000000',
    nonce: '10000200000000000000000000000000',
    ad: '',
    msg: '00000000000000000000000000000000',
    ct: 'c1c0e58bd913006feba00f4b3cc3594e',
    tag16: 'abe0ece80c24868a226a35d16bdae37a',
    tag32: '25835bfbb21632176cf03840687cb968cace4617af1bd0f7d064c639a5c79ee4',
  },
  { cls: 'AEGIS128L', name: 'AEGIS-128L test vector 2', valid: true,
    key: '10010000000000000000000000000000',
    nonce: '10000200000000000000000000000000',
    ad: '',
    msg: '',
    ct: '',
    tag16: 'c2b879a67def9d74e6c14f708bbcc9b4',
    tag32: '1360dc9db8ae42455f6e5b6a9d488ea4f2184c4e12120249335c4ee84bafe25d',
  },
  { cls: 'AEGIS128L', name: 'AEGIS-128L test vector 3', valid: true,
    key: '10010000000000000000000000000000',
    nonce: '10000200000000000000000000000000',
    ad: '0001020304050607',
    msg: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
    ct: '79d94593d8c2119d7e8fd9b8fc77845c5c077a05b2528b6ac54b563aed8efe84',
    tag16: 'cc6f3372f6aa1bb82388d695c3962d9a',
    tag32: '022cb796fe7e0ae1197525ff67e309484cfbab6528ddef89f17d74ef8ecd82b3',
  },
  { cls: 'AEGIS128L', name: 'AEGIS-128L test vector 4', valid: true,
    key: '10010000000000000000000000000000',
    nonce: '10000200000000000000000000000000',
    ad: '0001020304050607',
    msg: '000102030405060708090a0b0c0d',
    ct: '79d94593d8c2119d7e8fd9b8fc77',
    tag16: '5c04b3dba849b2701effbe32c7f0fab7',
    tag32: '86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac',
  },
  { cls: 'AEGIS128L', name: 'AEGIS-128L test vector 5', valid: true,
    key: '10010000000000000000000000000000',
    nonce: '10000200000000000000000000000000',
    ad: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223242526272829',
    msg: '101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637',
    ct: 'b31052ad1cca4e291abcf2df3502e6bdb1bfd6db36798be3607b1f94d34478aa7ede7f7a990fec10',
    tag16: '7542a745733014f9474417b337399507',
    tag32: 'b91e2947a33da8bee89b6794e647baf0fc835ff574aca3fc27c33be0db2aff98',
  },
  { cls: 'AEGIS128L', name: 'AEGIS-128L test vector 6', valid: false,
    key: '10000200000000000000000000000000',
    nonce: '10010000000000000000000000000000',
    ad: '0001020304050607',
    msg: '',
    ct: '79d94593d8c2119d7e8fd9b8fc77',
    tag16: '5c04b3dba849b2701effbe32c7f0fab7',
    tag32: '86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac',
  },
  { cls: 'AEGIS128L', name: 'AEGIS-128L test vector 7', valid: false,
    key: '10010000000000000000000000000000',
    nonce: '10000200000000000000000000000000',
    ad: '0001020304050607',
    msg: '',
    ct: '79d94593d8c2119d7e8fd9b8fc78',
    tag16: '5c04b3dba849b2701effbe32c7f0fab7',
    tag32: '86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac',
  },
  { cls: 'AEGIS128L', name: 'AEGIS-128L test vector 8', valid: false,
    key: '10010000000000000000000000000000',
    nonce: '10000200000000000000000000000000',
    ad: '0001020304050608',
    msg: '',
    ct: '79d94593d8c2119d7e8fd9b8fc77',
    tag16: '5c04b3dba849b2701effbe32c7f0fab7',
    tag32: '86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac',
  },
  { cls: 'AEGIS128L', name: 'AEGIS-128L test vector 9', valid: false,
    key: '10010000000000000000000000000000',
    nonce: '10000200000000000000000000000000',
    ad: '0001020304050607',
    msg: '',
    ct: '79d94593d8c2119d7e8fd9b8fc77',
    tag16: '6c04b3dba849b2701effbe32c7f0fab8',
    tag32: '86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ad',
  },
  { cls: 'AEGIS256', name: 'AEGIS-256 test vector 1', valid: true,
    key: '1001000000000000000000000000000000000000000000000000000000000000',
    nonce: '1000020000000000000000000000000000000000000000000000000000000000',
    ad: '',
    msg: '00000000000000000000000000000000',
    ct: '754fc3d8c973246dcc6d741412a4b236',
    tag16: '3fe91994768b332ed7f570a19ec5896e',
    tag32: '1181a1d18091082bf0266f66297d167d2e68b845f61a3b0527d31fc7b7b89f13',
  },
  { cls: 'AEGIS256', name: 'AEGIS-256 test vector 2', valid: true,
    key: '1001000000000000000000000000000000000000000000000000000000000000',
    nonce: '1000020000000000000000000000000000000000000000000000000000000000',
    ad: '',
    msg: '',
    ct: '',
    tag16: 'e3def978a0f054afd1e761d7553afba3',
    tag32: '6a348c930adbd654896e1666aad67de989ea75ebaa2b82fb588977b1ffec864a',
  },
  { cls: 'AEGIS256', name: 'AEGIS-256 test vector 3', valid: true,
    key: '1001000000000000000000000000000000000000000000000000000000000000',
    nonce: '1000020000000000000000000000000000000000000000000000000000000000',
    ad: '0001020304050607',
    msg: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
    ct: 'f373079ed84b2709faee373584585d60accd191db310ef5d8b11833df9dec711',
    tag16: '8d86f91ee606e9ff26a01b64ccbdd91d',
    tag32: 'b7d28d0c3c0ebd409fd22b44160503073a547412da0854bfb9723020dab8da1a',
  },
  { cls: 'AEGIS256', name: 'AEGIS-256 test vector 4', valid: true,
    key: '1001000000000000000000000000000000000000000000000000000000000000',
    nonce: '1000020000000000000000000000000000000000000000000000000000000000',
    ad: '0001020304050607',
    msg: '000102030405060708090a0b0c0d',
    ct: 'f373079ed84b2709faee37358458',
    tag16: 'c60b9c2d33ceb058f96e6dd03c215652',
    tag32: '8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9',
  },
  { cls: 'AEGIS256', name: 'AEGIS-256 test vector 5', valid: true,
    key: '1001000000000000000000000000000000000000000000000000000000000000',
    nonce: '1000020000000000000000000000000000000000000000000000000000000000',
    ad: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223242526272829',
    msg: '101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637',
    ct: '57754a7d09963e7c787583a2e7b859bb24fa1e04d49fd550b2511a358e3bca252a9b1b8b30cc4a67',
    tag16: 'ab8a7d53fd0e98d727accca94925e128',
    tag32: 'a3aca270c006094d71c20e6910b5161c0826df233d08919a566ec2c05990f734',
  },
  { cls: 'AEGIS256', name: 'AEGIS-256 test vector 6', valid: false,
    key: '1000020000000000000000000000000000000000000000000000000000000000',
    nonce: '1001000000000000000000000000000000000000000000000000000000000000',
    ad: '0001020304050607',
    msg: '',
    ct: 'f373079ed84b2709faee37358458',
    tag16: 'c60b9c2d33ceb058f96e6dd03c215652',
    tag32: '8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9',
  },
  { cls: 'AEGIS256', name: 'AEGIS-256 test vector 7', valid: false,
    key: '1001000000000000000000000000000000000000000000000000000000000000',
    nonce: '1000020000000000000000000000000000000000000000000000000000000000',
    ad: '0001020304050607',
    msg: '',
    ct: 'f373079ed84b2709faee37358459',
    tag16: 'c60b9c2d33ceb058f96e6dd03c215652',
    tag32: '8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9',
  },
  { cls: 'AEGIS256', name: 'AEGIS-256 test vector 8', valid: false,
    key: '1001000000000000000000000000000000000000000000000000000000000000',
    nonce: '1000020000000000000000000000000000000000000000000000000000000000',
    ad: '0001020304050608',
    msg: '',
    ct: 'f373079ed84b2709faee37358458',
    tag16: 'c60b9c2d33ceb058f96e6dd03c215652',
    tag32: '8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9',
  },
  { cls: 'AEGIS256', name: 'AEGIS-256 test vector 9', valid: false,
    key: '1001000000000000000000000000000000000000000000000000000000000000',
    nonce: '1000020000000000000000000000000000000000000000000000000000000000',
    ad: '0001020304050607',
    msg: '',
    ct: 'f373079ed84b2709faee37358458',
    tag16: 'c60b9c2d33ceb058f96e6dd03c215653',
    tag32: '8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2da',
  },
  ...parallelVectors('AEGIS128X2', 16, ['63117dc57756e402819a82e13eca8379',
    'b92c71fdbd358b8a4de70b27631ace90cffd9b9cfba82028412bac41b4f53759'],
    ['5795544301997f93621b278809d6331b3bfa6f18e90db12c4aa35965b5e98c5fc6fb4e54bcb6111842c20637252eff74' +
      '7cb3a8f85b37de80919a589fe0f24872bc926360696739e05520647e390989e1eb5fd42f99678a0276a498f8c454761c' +
      '9d6aacb647ad56be62b29c22cd4b5761b38f43d5a5ee062f',
     '1aebc200804f405cab637f2adebb6d77', 'c471876f9b4978c44f2ae1ce770cdb11a094ee3feca64e7afcd48bfe52c60eca']),
  ...parallelVectors('AEGIS128X4', 16, ['5bef762d0947c00455b97bb3af30dfa3',
    'a4b25437f4be93cfa856a2f27e4416b42cac79fd4698f2cdbe6af25673e10a68'],
    ['e836118562f4479c9d35c17356a833114c21f9aa39e4dda5e5c87f4152a00fce9a7c38f832eafe8b1c12f8a7cf12a81a' +
      '1ad8a9c24ba9dedfbdaa586ffea67ddc801ea97d9ab4a872f42d0e352e2713dacd609f9442c17517c5a29daf3e2a3fac' +
      '4ff6b1380c4e46df7b086af6ce6bc1ed594b8dd64aed2a7e',
     '0e56ab94e2e85db80f9d54010caabfb4', '69abf0f64a137dd6e122478d777e98bc422823006cf57f5ee822dd78397230b2']),
  ...parallelVectors('AEGIS256X2', 32, ['62cdbab084c83dacdb945bb446f049c8',
    '25d7e799b49a80354c3f881ac2f1027f471a5d293052bd9997abd3ae84014bb7'],
    ['72120c2ea8236180d67859001f4729077b7064c414384fe3a7b52f1571f4f8a7d0f01e18db4f3bc0adb150702e5d147a' +
      '8d36522132761b994c1bd395589e2ccf0790dfe2a3d12d61cd666b2859827739db4037dd3124c78424459376f6cac08e' +
      '1a7223a2a43e398ce6385cd654a19f481cba3b8f25910b42',
     '635d391828520bf1512763f0c8f5cdbd', 'b5668d3317159e9cc5d46e4803c3a76ad63bb42b3f47956d94f30db8cb366ad7']),
  ...parallelVectors('AEGIS256X4', 32, ['3b7fee6cee7bf17888ad11ed2397beb4',
    '6093a1a8aab20ec635dc1ca71745b01b5bec4fc444c9ffbebd710d4a34d20eaf'],
    ['bfc2085b7e8017da99b0b6d646ae4d01f4ba8f2e7dfca1d759ae48a135139b9aaac6b4f5db810d426be1fdaff4e14541' +
      '53a34b11da78ed7e418ee2ee9853042e95536aecbb694cea1b16a478eb0d4d1bf6509b1ce652a45af58e0e46ffccfa2d' +
      '0426e702391d2ff5813808b81748a490dd656465fed61f09',
     'b63b611b13975e2f3dc3cb6c2397bfcd', '7847eace74409ee56c8f4cf63a9c2841ce7c8bd567d7c0ca514c879a190b978c']),

];

const VARIANTS = [
  ['AEGIS128L', 16], ['AEGIS256', 32], ['AEGIS128X2', 16], ['AEGIS128X4', 16], ['AEGIS256X2', 32], ['AEGIS256X4', 32],
];

const isCode = (Cls, code) => (e) => e instanceof Cls && e.code === code;

test('RFC 10032 test vectors: every variant, 16- and 32-byte tags', () => {
  let sealed = 0;
  let refused = 0;
  for (const v of VECTORS) {
    for (const tagLength of [16, 32]) {
      const what = `${v.name}, tag ${tagLength}`;
      const key = hex(v.key);
      const nonce = hex(v.nonce);
      const ad = hex(v.ad);
      const want = Buffer.concat([hex(v.ct), hex(tagLength === 16 ? v.tag16 : v.tag32)]);
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
