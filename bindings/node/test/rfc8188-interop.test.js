'use strict';
// RFC 8188 (aes128gcm) interop with http_ece (the Web Push libraries' implementation, plain JavaScript on
// node:crypto). Random bodies each direction: random sizes (empty, within a record, many records), rs
// from 18 up, a keyid or none, padding (libaead: in the final record; http_ece's `pad`: spread over the
// records, so records that are only padding occur too); each side opens what the other sealed, through
// the one-call helpers or a pipeline fed in random pieces. Then damaged bodies (cut, records swapped,
// extended, a bit flipped in the salt or a record) are refused by both.
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('crypto');
const ece = require('http_ece');
const { lib, through } = require('./helpers');

const L = lib();
const BODIES = Number(process.env.AEAD_NODE_RFC8188_INTEROP || 250);
const int = (lo, hi) => lo + crypto.randomInt(hi - lo + 1);
const pick = (a) => a[int(0, a.length - 1)];

const randomRs = () => pick([18, 19, 20, 25, 32, 100, 4096, int(18, 300), int(18, 70000)]);
// At most 2000 records (http_ece's decrypt concatenates its output record by record).
function randomSize(rs) {
  const per = rs - 17;
  return Math.min(2000 * per, pick([0, 1, per - 1, per, per + 1, 2 * per, int(0, 3 * per), int(0, 20 * per), int(0, 200000)]));
}
const randomKeyid = () => pick([null, Buffer.alloc(0), crypto.randomBytes(int(1, 255)), Buffer.from('p256dh')]);

const eceDecrypt = (body, key) => ece.decrypt(body, { version: 'aes128gcm', key });

test(`libaead -> http_ece: ${BODIES} bodies`, async () => {
  let disagreements = 0, records = 0;
  for (let i = 0; i < BODIES; i++) {
    const key = crypto.randomBytes(16);
    const rs = randomRs();
    const pt = crypto.randomBytes(randomSize(rs));
    const keyid = randomKeyid();
    const opts = { rs, pad: int(0, 2) === 0 ? 0 : int(0, rs - 17) };
    if (keyid !== null) opts.keyid = keyid;
    const body = i % 2 ? L.rfc8188.encrypt(pt, key, opts) : await through(pt, new L.RFC8188EncryptStream(key, opts));
    records += Math.ceil((body.length - 21 - (keyid ? keyid.length : 0)) / rs);
    let out = null;
    try {
      out = eceDecrypt(body, key);
    } catch (e) {
      out = e;
    }
    if (!(out instanceof Buffer) || !out.equals(pt)) {
      disagreements++;
      console.log(`disagreement: ${pt.length} bytes, rs ${rs}, pad ${opts.pad}: http_ece ${out instanceof Error ? out.message : 'other plaintext'}`);
    }
  }
  console.log(`rfc8188 interop: libaead -> http_ece: ${BODIES} bodies (${records} records), ${disagreements} disagreements`);
  assert.strictEqual(disagreements, 0);
});

// http_ece's `pad` is spread over the records; when it outlasts the data, http_ece 1.2.1 writes records
// that are not the last and shorter than rs, which RFC 8188 does not allow ("fixed-size encrypted
// records; the final record can be smaller") and which its own decrypt refuses. Such bodies are
// counted apart: libaead must refuse them too. The count of bodies is of the well-formed ones.
test(`http_ece -> libaead: ${BODIES} bodies`, async () => {
  let disagreements = 0, padded = 0, malformed = 0;
  for (let i = 0; i < BODIES;) {
    const key = crypto.randomBytes(16);
    const rs = randomRs();
    const pt = crypto.randomBytes(randomSize(rs));
    const params = { version: 'aes128gcm', key, salt: crypto.randomBytes(16), rs };
    const keyid = randomKeyid();
    if (keyid !== null) params.keyid = keyid;
    if (int(0, 2) !== 0) params.pad = pick([1, int(0, rs), int(0, 3 * rs)]);
    const body = ece.encrypt(pt, params);
    let own;
    try {
      own = eceDecrypt(body, key);
    } catch (e) {
      own = e;
    }
    let out;
    try {
      out = i % 2 ? L.rfc8188.decrypt(body, key) : await through(body, new L.RFC8188DecryptStream(key));
    } catch (e) {
      out = e;
    }
    if (own instanceof Error) {
      malformed++;
      if (!(out instanceof L.AuthenticationError)) {
        disagreements++;
        console.log(`disagreement: http_ece refuses its own body (${pt.length} bytes, rs ${rs}, pad ${params.pad}), libaead ${out instanceof Error ? out : 'opens it'}`);
      }
      continue;
    }
    i++;
    if (params.pad) padded++;
    if (!own.equals(pt) || !(out instanceof Buffer) || !out.equals(pt)) {
      disagreements++;
      console.log(`disagreement: ${pt.length} bytes, rs ${rs}, pad ${params.pad}: libaead ${out instanceof Error ? out.message : 'other plaintext'}`);
    }
  }
  console.log(`rfc8188 interop: http_ece -> libaead: ${BODIES} bodies (${padded} with http_ece's padding); ` +
    `${malformed} more that http_ece's own decrypt refuses, refused by libaead too; ${disagreements} disagreements`);
  assert.strictEqual(disagreements, 0);
});

// Record boundaries of an aes128gcm body: [start, end) of each record.
function recordsOf(body) {
  const rs = body.readUInt32BE(16);
  const out = [];
  for (let off = 21 + body[20]; off < body.length; off += rs) out.push([off, Math.min(body.length, off + rs)]);
  return out;
}

test('damaged bodies: refused by libaead and by http_ece alike', async () => {
  const counts = { cut: 0, swapped: 0, extended: 0, flipped: 0 };
  let disagreements = 0;
  const check = async (kind, body, key) => {
    let oneCall = null, piped = null, theirs = null;
    try { L.rfc8188.decrypt(body, key); } catch (e) { oneCall = e; }
    try { await through(body, new L.RFC8188DecryptStream(key)); } catch (e) { piped = e; }
    try { eceDecrypt(body, key); } catch (e) { theirs = e; }
    if (!(oneCall instanceof L.AuthenticationError) || !(piped instanceof L.AuthenticationError) || theirs === null) {
      disagreements++;
      console.log(`${kind}: libaead ${oneCall} / ${piped}, http_ece ${theirs}`);
    }
    counts[kind]++;
  };
  for (let i = 0; i < 100; i++) {
    const key = crypto.randomBytes(16);
    const rs = pick([18, 19, 25, 64, 100, int(18, 5000)]);
    const pt = crypto.randomBytes(int(2 * (rs - 17) + 1, 10 * (rs - 17)));
    const body = i % 2 ? L.rfc8188.encrypt(pt, key, { rs, pad: int(0, rs - 17) })
      : ece.encrypt(pt, { version: 'aes128gcm', key, salt: crypto.randomBytes(16), rs, pad: int(0, 2 * rs) });
    const recs = recordsOf(body);
    const h = 21 + body[20];
    // Cut: at a record boundary (records remain: http_ece takes a body cut to its bare header as empty),
    // or anywhere after the header.
    await check('cut', body.subarray(0, recs[int(1, recs.length - 1)][0]), key);
    await check('cut', body.subarray(0, int(h + 1, body.length - 1)), key);
    // Two records swapped.
    const j = int(0, recs.length - 2);
    const [a, b] = [recs[j], recs[j + 1]];
    await check('swapped', Buffer.concat([body.subarray(0, a[0]), body.subarray(b[0], b[1]), body.subarray(a[0], a[1]), body.subarray(b[1])]), key);
    // Extended: random bytes, a record of the same body, the body's records twice.
    await check('extended', Buffer.concat([body, crypto.randomBytes(int(1, 40))]), key);
    await check('extended', Buffer.concat([body, body.subarray(recs[0][0], recs[0][1])]), key);
    await check('extended', Buffer.concat([body, body.subarray(h)]), key);
    // A bit flipped in the salt or in a record (rs and keyid are not authenticated by either).
    for (const pos of [int(0, 15), int(h, body.length - 1)]) {
      const f = Buffer.from(body);
      f[pos] ^= 1 << int(0, 7);
      await check('flipped', f, key);
    }
  }
  console.log(`rfc8188 interop: damaged bodies refused: ${JSON.stringify(counts)}, ${disagreements} disagreements`);
  assert.strictEqual(disagreements, 0);
  assert.ok(Object.values(counts).every((n) => n >= 100));
});
