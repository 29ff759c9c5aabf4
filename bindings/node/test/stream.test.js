'use strict';
// Streaming AEAD through stream.pipeline: Tink's AES-GCM-HKDF streaming and age's payload round trip at
// sizes 0, 1, each side of the segment boundaries and several MiB, fed in random chunks; every stream
// the writer makes is also opened by an oracle written here on node:crypto (HKDF, AES-GCM,
// ChaCha20-Poly1305: each format's nonce and key derivation as its specification gives them), and
// every stream the oracle seals is opened by the reader. Truncated, reordered, extended and bit-flipped
// streams reject the pipeline with AuthenticationError, after exactly the segments that opened. RFC 8188
// section 3's two examples decrypt to "I am the walrus".
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('crypto');
const { lib, run } = require('./helpers');

const L = lib();
const int = (lo, hi) => lo + crypto.randomInt(hi - lo + 1);
const pick = (a) => a[int(0, a.length - 1)];
const MiB = 1 << 20;

async function roundTrip(buf, enc, dec) {
  const c = await run(buf, enc);
  assert.strictEqual(c.error, null);
  const p = await run(c.out, dec);
  assert.strictEqual(p.error, null);
  assert.ok(p.out.equals(buf), `round trip of ${buf.length} bytes`);
  return c.out;
}

// ----------------------------------------------------------------------------------------- oracles
const hkdf = (hash, ikm, salt, info, n) => Buffer.from(crypto.hkdfSync(hash, ikm, salt, info, n));

function gcmOpen(alg, key, nonce, seg) {
  const d = crypto.createDecipheriv(alg, key, nonce, { authTagLength: 16 });
  d.setAuthTag(seg.subarray(seg.length - 16));
  return Buffer.concat([d.update(seg.subarray(0, seg.length - 16)), d.final()]);
}
function gcmSeal(alg, key, nonce, pt) {
  const c = crypto.createCipheriv(alg, key, nonce, { authTagLength: 16 });
  return Buffer.concat([c.update(pt), c.final(), c.getAuthTag()]);
}

// A format's layout: header length, ciphertext of segment i when not the last, key and nonce.
const TINK_HASH = { SHA1: 'sha1', SHA256: 'sha256', SHA512: 'sha512' };
function tinkFormat(key, o) {
  const hl = 1 + o.keySize + 7;
  return {
    headerLength: hl,
    segment: (i) => (i === 0 ? o.segmentSize - hl - o.firstSegmentOffset : o.segmentSize),
    header: (salt, prefix) => Buffer.concat([Buffer.from([hl]), salt, prefix]),
    fresh: () => [crypto.randomBytes(o.keySize), crypto.randomBytes(7)],
    parse: (h) => [h.subarray(1, 1 + o.keySize), h.subarray(1 + o.keySize, hl)],
    key: (salt) => hkdf(TINK_HASH[o.hkdfHash], key, salt, o.associatedData || Buffer.alloc(0), o.keySize),
    nonce: (prefix, i, last) => {
      const n = Buffer.alloc(12);
      prefix.copy(n);
      n.writeUInt32BE(i, 7);
      n[11] = last ? 1 : 0;
      return n;
    },
    alg: o.keySize === 16 ? 'aes-128-gcm' : 'aes-256-gcm',
  };
}
function ageFormat(fileKey) {
  return {
    headerLength: 16,
    segment: () => 65536 + 16,
    header: (nonce) => nonce,
    fresh: () => [crypto.randomBytes(16)],
    parse: (h) => [h],
    key: (nonce) => hkdf('sha256', fileKey, nonce, Buffer.from('payload'), 32),
    nonce: (_, i, last) => {
      const n = Buffer.alloc(12);
      n.writeBigUInt64BE(BigInt(i), 3);
      n[11] = last ? 1 : 0;
      return n;
    },
    alg: 'chacha20-poly1305',
  };
}

// Opens a whole stream as the format's specification does; throws on any failure.
function oracleOpen(f, ct) {
  const parts = f.parse(ct.subarray(0, f.headerLength));
  const key = f.key(parts[0]);
  const out = [];
  let off = f.headerLength;
  for (let i = 0; ; i++) {
    const n = f.segment(i);
    const last = ct.length - off <= n;
    const seg = ct.subarray(off, last ? ct.length : off + n);
    out.push(gcmOpen(f.alg, key, f.nonce(parts[1], i, last), seg));
    if (last) return Buffer.concat(out);
    off += n;
  }
}
// Seals a whole stream as the format's writers do (the last segment holds data unless the stream is empty).
function oracleSeal(f, pt) {
  const parts = f.fresh();
  const key = f.key(parts[0]);
  const out = [f.header(...parts)];
  let off = 0;
  for (let i = 0; ; i++) {
    const n = f.segment(i) - 16;
    const last = pt.length - off <= n;
    out.push(gcmSeal(f.alg, key, f.nonce(parts[1], i, last), pt.subarray(off, last ? pt.length : off + n)));
    if (last) return Buffer.concat(out);
    off += n;
  }
}

// Sizes at 0, 1, and each side of the first three segment boundaries (in plaintext), and one of several MiB.
function sizes(f) {
  const s = [0, 1];
  let b = 0;
  for (let i = 0; i < 3; i++) {
    b += f.segment(i) - 16;
    s.push(b - 1, b, b + 1);
  }
  s.push(int(3 * MiB, 5 * MiB));
  return s;
}

const tinkCases = [
  { keySize: 16, hkdfHash: 'SHA256', segmentSize: 4096, firstSegmentOffset: 0 },
  { keySize: 32, hkdfHash: 'SHA256', segmentSize: 1 << 20, firstSegmentOffset: 0 },
  { keySize: 16, hkdfHash: 'SHA1', segmentSize: 100, firstSegmentOffset: 7 },
  { keySize: 32, hkdfHash: 'SHA512', segmentSize: 333, firstSegmentOffset: 0, associatedData: Buffer.from('aad') },
  { keySize: 32, hkdfHash: 'SHA256', segmentSize: 65536, firstSegmentOffset: 19, associatedData: crypto.randomBytes(100) },
];

for (const o of tinkCases) {
  test(`Tink AES-GCM-HKDF ${JSON.stringify({ ...o, associatedData: o.associatedData && o.associatedData.length })}: pipeline round trips, oracle both ways`, async () => {
    const key = crypto.randomBytes(int(o.keySize, 48));
    const f = tinkFormat(key, o);
    for (const n of sizes(f)) {
      const pt = crypto.randomBytes(n);
      const ct = await roundTrip(pt, new L.TinkEncryptStream(key, o), new L.TinkDecryptStream(key, o));
      assert.ok(oracleOpen(f, ct).equals(pt), `the oracle opens the writer's ${n} bytes`);
      const p = await run(oracleSeal(f, pt), new L.TinkDecryptStream(key, o));
      assert.strictEqual(p.error, null);
      assert.ok(p.out.equals(pt), `the reader opens the oracle's ${n} bytes`);
    }
  });
}

test('age payload: pipeline round trips at 0, 1, chunk boundaries +-1 and MiB; oracle both ways', async () => {
  const fileKey = crypto.randomBytes(16);
  const f = ageFormat(fileKey);
  for (const n of sizes(f)) {
    const pt = crypto.randomBytes(n);
    const ct = await roundTrip(pt, new L.AgeEncryptStream(fileKey), new L.AgeDecryptStream(fileKey));
    // The writer holds back the last full chunk: the last chunk is empty only for an empty payload.
    const chunks = n === 0 ? 1 : Math.ceil(n / 65536);
    assert.strictEqual(ct.length, 16 + n + 16 * chunks);
    assert.ok(oracleOpen(f, ct).equals(pt), `the oracle opens the writer's ${n} bytes`);
    const p = await run(oracleSeal(f, pt), new L.AgeDecryptStream(fileKey));
    assert.strictEqual(p.error, null);
    assert.ok(p.out.equals(pt));
  }
});

// ------------------------------------------------------------------------------- hostile streams
// Segment boundaries of a stream the format f describes: [start, end) of each segment after the header.
function segments(f, ct) {
  const out = [];
  let off = f.headerLength;
  for (let i = 0; off < ct.length; i++) {
    const end = Math.min(ct.length, off + f.segment(i));
    out.push([off, end]);
    off = end;
  }
  return out;
}

// Each damaged stream: the pipeline rejects with AuthenticationError, and what came out before is the
// plaintext of the segments before the damage (never more).
async function refused(ct, before, makeReader, pt, what) {
  const r = await run(ct, makeReader());
  assert.ok(r.error instanceof L.AuthenticationError, `${what}: ${r.error}`);
  assert.strictEqual(r.error.code, 'AEAD_ERR_AUTH');
  assert.ok(r.out.length <= before && pt.subarray(0, r.out.length).equals(r.out), `${what}: ${r.out.length} bytes out`);
}

const hostile = [
  ['Tink', (k) => tinkFormat(k, tinkCases[2]), () => crypto.randomBytes(20),
    (k) => new L.TinkEncryptStream(k, tinkCases[2]), (k) => new L.TinkDecryptStream(k, tinkCases[2])],
  ['age', (k) => ageFormat(k), () => crypto.randomBytes(16), (k) => new L.AgeEncryptStream(k), (k) => new L.AgeDecryptStream(k)],
];

for (const [name, format, newKey, writer, reader] of hostile) {
  test(`${name}: truncated, reordered, extended and bit-flipped streams reject the pipeline with AuthenticationError`, async () => {
    let cases = 0;
    for (let round = 0; round < 12; round++) {
      const key = newKey();
      const f = format(key);
      const per = f.segment(1) - 16;
      const pt = crypto.randomBytes(int(2 * per + 1, 5 * per));
      const ct = (await run(pt, writer(key))).out;
      const segs = segments(f, ct);
      const plainBefore = (i) => (i === 0 ? 0 : f.segment(0) - 16 + (i - 1) * per);
      const mk = () => reader(key);
      // Cut at a segment boundary (the last segment dropped), inside a segment, inside the header.
      const cut = int(1, segs.length - 1);
      await refused(ct.subarray(0, segs[cut][0]), plainBefore(cut), mk, pt, 'cut at a boundary');
      const at = int(f.headerLength + 1, ct.length - 1);
      const seg = segs.findIndex(([s, e]) => at >= s && at < e);
      await refused(ct.subarray(0, at), plainBefore(seg), mk, pt, 'cut inside a segment');
      await refused(ct.subarray(0, int(0, f.headerLength)), 0, mk, pt, 'cut inside the header');
      // Two whole segments swapped (not the last: all full).
      const i = int(0, segs.length - 3);
      const [a, b] = [segs[i], segs[i + 1]];
      if (b[1] - b[0] === a[1] - a[0]) {
        const swapped = Buffer.concat([ct.subarray(0, a[0]), ct.subarray(b[0], b[1]), ct.subarray(a[0], a[1]), ct.subarray(b[1])]);
        await refused(swapped, plainBefore(i), mk, pt, 'two segments swapped');
      }
      // Extended: bytes after the final segment; another stream's segment; the same stream twice.
      const last = segs.length - 1;
      await refused(Buffer.concat([ct, crypto.randomBytes(int(1, 40))]), plainBefore(last), mk, pt, 'bytes appended');
      await refused(Buffer.concat([ct, ct.subarray(segs[1][0], segs[1][1])]), plainBefore(last), mk, pt, 'a segment appended');
      await refused(Buffer.concat([ct, ct]), plainBefore(last), mk, pt, 'the stream twice');
      // A bit flipped anywhere.
      const pos = int(0, ct.length - 1);
      const flipped = Buffer.from(ct);
      flipped[pos] ^= 1 << int(0, 7);
      const hit = segs.findIndex(([s, e]) => pos >= s && pos < e);
      await refused(flipped, hit < 0 ? 0 : plainBefore(hit), mk, pt, `bit flipped at ${pos}`);
      cases += 8;
    }
    assert.ok(cases >= 96);
  });
}

test('a reader refuses what its parameters do not describe; a writer refuses bad parameters', async () => {
  const key = crypto.randomBytes(32);
  const o = tinkCases[3];
  const ct = (await run(crypto.randomBytes(1000), new L.TinkEncryptStream(key, o))).out;
  for (const other of [{ ...o, associatedData: Buffer.from('aae') }, { ...o, hkdfHash: 'SHA256' }]) {
    const r = await run(ct, new L.TinkDecryptStream(key, other));
    assert.ok(r.error instanceof L.AuthenticationError);
    assert.strictEqual(r.out.length, 0);
  }
  // A header length byte for another key size: refused as the header.
  const r = await run(ct, new L.TinkDecryptStream(key, { ...o, keySize: 16 }));
  assert.ok(r.error instanceof L.AuthenticationError);
  assert.throws(() => new L.TinkEncryptStream(key, { keySize: 24 }), RangeError);
  assert.throws(() => new L.TinkEncryptStream(key, { hkdfHash: 'MD5' }), TypeError);
  assert.throws(() => new L.TinkEncryptStream(Buffer.alloc(8), {}), (e) => e.code === 'AEAD_ERR_KEY_SIZE');
  assert.throws(() => new L.TinkEncryptStream(key, { segmentSize: 40 }), (e) => e.code === 'AEAD_ERR_ARG');
  assert.throws(() => new L.AgeEncryptStream(crypto.randomBytes(32)), (e) => e.code === 'AEAD_ERR_KEY_SIZE');
  // Readers check their parameters when made, before any input.
  assert.throws(() => new L.TinkDecryptStream(Buffer.alloc(8), {}), (e) => e.code === 'AEAD_ERR_KEY_SIZE');
  assert.throws(() => new L.TinkDecryptStream(key, { segmentSize: 40 }), (e) => e.code === 'AEAD_ERR_ARG');
  assert.throws(() => new L.AgeDecryptStream(crypto.randomBytes(15)), (e) => e.code === 'AEAD_ERR_KEY_SIZE');
  assert.throws(() => new L.RFC8188DecryptStream(Buffer.alloc(0)), (e) => e.code === 'AEAD_ERR_KEY_SIZE');
  assert.throws(() => new L.RFC8188DecryptStream(key, { maxRecordSize: 2 ** 24 + 1 }), (e) => e.code === 'AEAD_ERR_ARG');
  assert.throws(() => new L.RFC8188EncryptStream(key, { rs: 17 }), (e) => e.code === 'AEAD_ERR_ARG');
  assert.throws(() => new L.RFC8188EncryptStream(key, { rs: 100, pad: 84 }), RangeError);
  assert.throws(() => new L.RFC8188EncryptStream(key, { keyid: Buffer.alloc(256) }), (e) => e.code === 'AEAD_ERR_ARG');
});

// --------------------------------------------------------------------------------------- RFC 8188
const b64u = (s) => Buffer.from(s, 'base64url');
const RFC8188_EXAMPLES = [  // section 3.1 and 3.2: (IKM, body, rs, keyid)
  ['yqdlZ-tYemfogSmv7Ws5PQ', 'I1BsxtFttlv3u_Oo94xnmwAAEAAA-NAVub2qFgBEuQKRapoZu-IxkIva3MEB1PD-ly8Thjg', 4096, ''],
  ['BO3ZVPxUlnLORbVGMpbT1Q',
    'uNCkWiNYzKTnBN9ji3-qWAAAABkCYTHOG8chz_gnvgOqdGYovxyjuqRyJFjEDyoF1Fvkj6hQPdPHI51OEUKEpgz3SsLWIqS_uA', 25, 'a1'],
];

test('RFC 8188 section 3: both examples decrypt to "I am the walrus", in one call and through a pipeline', async () => {
  for (const [ikm, body, rs, keyid] of RFC8188_EXAMPLES) {
    const key = b64u(ikm);
    const ct = b64u(body);
    assert.strictEqual(L.rfc8188.decrypt(ct, key).toString(), 'I am the walrus');
    const dec = new L.RFC8188DecryptStream(key);
    const r = await run(ct, dec);
    assert.strictEqual(r.error, null);
    assert.strictEqual(r.out.toString(), 'I am the walrus');
    assert.strictEqual(dec.header.readUInt32BE(16), rs);
    assert.strictEqual(dec.header.subarray(21).toString(), keyid);
    // Another key, a reader bound below the body's rs, the body cut to its header: refused.
    const other = Buffer.from(key);
    other[0] ^= 1;
    assert.throws(() => L.rfc8188.decrypt(ct, other), L.AuthenticationError);
    assert.throws(() => L.rfc8188.decrypt(ct, key, { maxRecordSize: rs - 1 }), (e) => e.code === 'AEAD_ERR_TOO_LONG');
    assert.throws(() => L.rfc8188.decrypt(ct.subarray(0, 21 + keyid.length), key), L.AuthenticationError);
  }
});

test('RFC 8188: pipeline round trips with rs, keyid and final padding', async () => {
  for (let i = 0; i < 40; i++) {
    const key = crypto.randomBytes(pick([16, 16, 1, 32]));
    const rs = pick([18, 19, 25, 100, 4096, int(18, 70000)]);
    const opts = { rs, keyid: i % 3 === 0 ? crypto.randomBytes(int(0, 255)) : 'key-1', pad: int(0, rs - 17) };
    const pt = crypto.randomBytes(pick([0, 1, rs - 17, rs - 16, 2 * (rs - 17), int(0, 300000)]));
    const enc = new L.RFC8188EncryptStream(key, opts);
    const ct = await roundTrip(pt, enc, new L.RFC8188DecryptStream(key));
    assert.ok(enc.header.subarray(21).equals(Buffer.from(opts.keyid)));
    assert.ok(L.rfc8188.decrypt(ct, key).equals(pt));
    assert.ok(L.rfc8188.decrypt(L.rfc8188.encrypt(pt, key, opts), key).equals(pt));
  }
});
