'use strict';
// HPKE (RFC 9180, library 1.6): CipherSuite, SenderContext, RecipientContext.
// - Every case of RFC 9180's published vectors (hpke/rfc9180.json from tests/vectors.py; a missing file
//   fails): key pairs from ikmR / ikmS, the sender's enc from ikmE, every encryption in order at the
//   context's own sequence numbers (each nonce checked to be base_nonce XOR seq), opened in order and by
//   explicit sequence number, every export on both sides, then the single-shot calls.
// - Round trips over every suite and mode; in-order and explicit-sequence opens (the replay window);
//   tampered messages, other AAD, info, psk or keys refused.
// - Hostile callers: bad keys (X25519 / X448 low-order points, points off the curve, a zero scalar, keys
//   of the wrong length) refused; detached, resizable and non-byte arguments refused (no sequence number
//   consumed); closed contexts; worker_threads sealing on one shared context get
//   distinct sequence numbers. fork() does not apply: Node has no fork(2) (child_process.fork starts a
//   new process that shares no memory), so no child can inherit a context.
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { Worker } = require('worker_threads');
const { vectorsDir, lib, hex } = require('./helpers');

const L = lib();
const { CipherSuite, KemId, KdfId, AeadId, Mode } = L;
// RFC 9180's suites: the DHKEMs and the HKDFs (draft-ietf-hpke-pq's KEMs and KDFs: hpke-pq.test.js).
const SUITES = [];
for (const kem of Object.values(KemId).filter((k) => k < 0x0040)) {
  for (const kdf of Object.values(KdfId).filter((k) => k <= KdfId.HkdfSha512)) {
    for (const aead of Object.values(AeadId)) SUITES.push({ kem, kdf, aead });
  }
}
const X25519 = { kem: KemId.DhkemX25519HkdfSha256, kdf: KdfId.HkdfSha256, aead: AeadId.Aes128Gcm };
const rnd = (n) => crypto.randomBytes(n);
const int = (lo, hi) => lo + crypto.randomInt(hi - lo + 1);

function xorSeq(baseNonce, seq) {
  const n = Buffer.from(baseNonce);
  const s = Buffer.alloc(8);
  s.writeBigUInt64BE(BigInt(seq));
  for (let i = 0; i < 8; i++) n[4 + i] ^= s[i];
  return n;
}

function vectorCase(c) {
  const suite = new CipherSuite({ kem: c.kem_id, kdf: c.kdf_id, aead: c.aead_id });
  const auth = c.mode === Mode.Auth || c.mode === Mode.AuthPsk;
  const psk = c.mode === Mode.Psk || c.mode === Mode.AuthPsk ? { id: hex(c.psk_id), key: hex(c.psk) } : undefined;
  const kr = suite.kem.deriveKeyPair(hex(c.ikmR));
  assert.deepStrictEqual([kr.privateKey, kr.publicKey], [hex(c.skRm), hex(c.pkRm)]);
  assert.deepStrictEqual(suite.kem.publicKeyOf(kr.privateKey), kr.publicKey);
  const ks = auth ? suite.kem.deriveKeyPair(hex(c.ikmS)) : null;
  if (auth) assert.deepStrictEqual([ks.privateKey, ks.publicKey], [hex(c.skSm), hex(c.pkSm)]);
  const info = hex(c.info);
  const sender = suite.createSenderContext({ recipientPublicKey: kr.publicKey, senderKey: ks?.privateKey, info, psk, ekm: hex(c.ikmE) });
  assert.deepStrictEqual(sender.enc, hex(c.enc));
  const rparams = { recipientKey: kr.privateKey, enc: sender.enc, senderPublicKey: ks?.publicKey, info, psk };
  const recipient = suite.createRecipientContext(rparams);
  const bySeq = suite.createRecipientContext({ ...rparams, window: 4096 });
  let seals = 0;
  if (c.aead_id === AeadId.ExportOnly) {
    assert.throws(() => sender.seal(Buffer.from('x')), (e) => e.code === 'AEAD_ERR_ARG');
    assert.throws(() => recipient.open(Buffer.alloc(16)), (e) => e.code === 'AEAD_ERR_ARG');
  } else {
    c.encryptions.forEach((e, seq) => {
      // The vectors list the encryptions at sequence numbers 0, 1, 2, ... in order: each nonce says so.
      assert.deepStrictEqual(hex(e.nonce), xorSeq(hex(c.base_nonce), seq));
      const { sequence, ct } = sender.sealWithSequence(hex(e.pt), hex(e.aad));
      assert.strictEqual(sequence, BigInt(seq));
      assert.deepStrictEqual(ct, hex(e.ct));
      assert.deepStrictEqual(recipient.open(hex(e.ct), hex(e.aad)), hex(e.pt));
      assert.deepStrictEqual(bySeq.openAt(seq, hex(e.ct), hex(e.aad)), hex(e.pt));
      seals++;
    });
    const first = c.encryptions[0];
    const single = suite.seal({ recipientPublicKey: kr.publicKey, senderKey: ks?.privateKey, info, psk, ekm: hex(c.ikmE) },
      hex(first.pt), hex(first.aad));
    assert.deepStrictEqual(single, { enc: hex(c.enc), ct: hex(first.ct) });
    assert.deepStrictEqual(suite.open(rparams, hex(first.ct), hex(first.aad)), hex(first.pt));
  }
  for (const x of c.exports) {
    assert.deepStrictEqual(sender.export(hex(x.exporter_context), x.L), hex(x.exported_value));
    assert.deepStrictEqual(recipient.export(hex(x.exporter_context), x.L), hex(x.exported_value));
  }
  for (const ctx of [sender, recipient, bySeq]) ctx.close();
  return { seals, exports: c.exports.length };
}

test('RFC 9180 test vectors: every case, every encryption and export, both sides', () => {
  const file = path.join(vectorsDir(), 'hpke', 'rfc9180.json');
  assert.ok(fs.existsSync(file), `${file} is missing (tests/vectors.py fetches it)`);
  const cases = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.strictEqual(cases.length, 128);
  const suites = new Set(cases.map((c) => `${c.kem_id}/${c.kdf_id}/${c.aead_id}`));
  assert.strictEqual(suites.size, 32);
  const modes = [0, 0, 0, 0];
  let seals = 0;
  let exports = 0;
  for (const c of cases) {
    const r = vectorCase(c);
    seals += r.seals;
    exports += r.exports;
    modes[c.mode]++;
  }
  assert.deepStrictEqual(modes, [32, 32, 32, 32]);
  console.log(`vectors hpke/rfc9180.json: 128 of 128 cases passed (${suites.size} suites, 4 modes; ` +
    `${seals} sequenced encryptions, ${exports} exports)`);
});

function setup(suite, mode, { window } = {}) {
  const kr = suite.kem.generateKeyPair();
  const ks = mode === Mode.Auth || mode === Mode.AuthPsk ? suite.kem.generateKeyPair() : null;
  const psk = mode === Mode.Psk || mode === Mode.AuthPsk ? { id: rnd(int(1, 20)), key: rnd(32) } : undefined;
  const info = rnd([0, 1, 17, 64, 300][int(0, 4)]);
  const sender = suite.createSenderContext({ recipientPublicKey: kr.publicKey, senderKey: ks?.privateKey, info, psk });
  const rparams = { recipientKey: kr.privateKey, enc: sender.enc, senderPublicKey: ks?.publicKey, info, psk, window };
  return { kr, ks, psk, info, sender, rparams, recipient: suite.createRecipientContext(rparams) };
}

test('round trips: every suite and mode; tampering, other AAD, info, psk or keys refused', () => {
  let checked = 0;
  for (const ids of SUITES) {
    const suite = new CipherSuite(ids);
    assert.strictEqual(suite.kem.generateKeyPair().publicKey.length, suite.kem.publicKeySize);
    for (const mode of Object.values(Mode)) {
      const { kr, ks, psk, info, sender, rparams, recipient } = setup(suite, mode);
      assert.strictEqual(sender.enc.length, suite.kem.encSize);
      const x = sender.export(Buffer.from('ctx'), 48);
      assert.deepStrictEqual(recipient.export(Buffer.from('ctx'), 48), x);
      assert.notDeepStrictEqual(recipient.export(Buffer.from('ctx2'), 48), x);
      // Every input of the key schedule matters: a recipient set up with another one exports otherwise.
      const others = [{ info: Buffer.concat([info, Buffer.from('x')]) }, { recipientKey: suite.kem.generateKeyPair().privateKey }];
      if (psk) others.push({ psk: { id: psk.id, key: rnd(32) } });
      if (ks) others.push({ senderPublicKey: suite.kem.generateKeyPair().publicKey });
      for (const o of others) {
        const wrong = suite.createRecipientContext({ ...rparams, ...o });
        assert.notDeepStrictEqual(wrong.export(Buffer.from('ctx'), 48), x);
        wrong.close();
      }
      if (suite.aead.id !== AeadId.ExportOnly) {
        for (let seq = 0; seq < 4; seq++) {
          const pt = rnd(int(0, 200));
          const aad = rnd(int(0, 40));
          const { sequence, ct } = sender.sealWithSequence(pt, aad);
          assert.strictEqual(sequence, BigInt(seq));
          assert.strictEqual(ct.length, pt.length + 16);
          const bad = Buffer.from(ct);
          bad[int(0, bad.length - 1)] ^= 1 << int(0, 7);
          assert.throws(() => recipient.open(bad, aad), L.AuthenticationError);
          assert.throws(() => recipient.open(ct, Buffer.concat([aad, Buffer.from('x')])), L.AuthenticationError);
          assert.deepStrictEqual(recipient.open(ct, aad), pt);
          checked++;
        }
        const { enc, ct } = suite.seal({ recipientPublicKey: kr.publicKey, senderKey: ks?.privateKey, info, psk }, Buffer.from('one'));
        assert.deepStrictEqual(suite.open({ ...rparams, enc }, ct), Buffer.from('one'));
      }
      sender.close();
      recipient.close();
    }
  }
  assert.strictEqual(checked, 5 * 3 * 3 * 4 * 4);
});

test('in order and by sequence number: the replay window', () => {
  const suite = new CipherSuite(X25519);
  const { sender, rparams, recipient } = setup(suite, Mode.Base);
  const msgs = []; // sequence numbers 0, 1, 2, 3 and 70
  for (let i = 0; i < 71; i++) {
    const ct = sender.seal(Buffer.from(`msg ${i}`), Buffer.from('a'));
    if (i < 4) msgs[i] = ct;
    if (i === 70) msgs[4] = ct;
  }
  assert.throws(() => recipient.open(msgs[1], Buffer.from('a')), L.AuthenticationError); // 1 at 0's place
  assert.deepStrictEqual(recipient.open(msgs[0], Buffer.from('a')), Buffer.from('msg 0'));
  assert.throws(() => recipient.open(msgs[0], Buffer.from('a')), L.AuthenticationError); // replayed
  assert.deepStrictEqual(recipient.open(msgs[1], Buffer.from('a')), Buffer.from('msg 1'));
  const bySeq = suite.createRecipientContext(rparams);
  assert.deepStrictEqual(bySeq.openAt(2, msgs[2], Buffer.from('a')), Buffer.from('msg 2'));
  assert.deepStrictEqual(bySeq.openAt(0n, msgs[0], Buffer.from('a')), Buffer.from('msg 0'));
  assert.throws(() => bySeq.openAt(2, msgs[2], Buffer.from('a')), L.ReplayError);
  assert.throws(() => bySeq.openAt(3, msgs[2], Buffer.from('a')), L.AuthenticationError); // wrong number
  assert.deepStrictEqual(bySeq.openAt(3, msgs[3], Buffer.from('a')), Buffer.from('msg 3')); // window unmoved
  assert.deepStrictEqual(bySeq.openAt(70, msgs[4], Buffer.from('a')), Buffer.from('msg 70'));
  // Left of the 64-message window (the newest is 70): a ReplayError, which is an AuthenticationError.
  assert.throws(() => bySeq.openAt(1, msgs[1], Buffer.from('a')),
    (e) => e instanceof L.ReplayError && e instanceof L.AuthenticationError && e.code === 'AEAD_ERR_REPLAY');
  assert.throws(() => bySeq.openAt(-1, msgs[1]), RangeError);
  assert.throws(() => bySeq.openAt(1n << 64n, msgs[1]), RangeError);
  assert.throws(() => sender.export(Buffer.alloc(961), 32), (x) => x.code === 'AEAD_ERR_TOO_LONG');
  assert.throws(() => sender.export(Buffer.alloc(0), 255 * 32 + 1), (x) => x.code === 'AEAD_ERR_TOO_LONG');
  assert.strictEqual(sender.export(Buffer.alloc(0), 255 * 32).length, 255 * 32);
  assert.throws(() => suite.createRecipientContext({ ...rparams, window: 65 }), (x) => x.code === 'AEAD_ERR_ARG');
  assert.throws(() => suite.createSenderContext({ recipientPublicKey: rparams.recipientKey, psk: { id: Buffer.alloc(0), key: rnd(32) } }),
    (x) => x.code === 'AEAD_ERR_ARG');
  for (const c of [sender, recipient, bySeq]) c.close();
});

test('bad keys refused: X25519 / X448 low-order points, off-curve points, zero scalars, wrong lengths', () => {
  const x = new CipherSuite(X25519);
  const kr = x.kem.generateKeyPair();
  const code = (c) => (e) => e.code === c && e.aeadCode !== undefined;
  // RFC 7748's low-order points: DH with them gives the all-zero shared secret (RFC 9180 section 7.1.4).
  const lowOrder25519 = [Buffer.alloc(32), Buffer.concat([Buffer.from([1]), Buffer.alloc(31)]),
    hex('e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800'),
    hex('5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157')];
  for (const p of lowOrder25519) {
    const enc = Buffer.alloc(32, 0xaa);
    assert.throws(() => x.createSenderContext({ recipientPublicKey: p }), code('AEAD_ERR_ARG'));
    assert.throws(() => x.createRecipientContext({ recipientKey: kr.privateKey, enc: p }), code('AEAD_ERR_ARG'));
    assert.throws(() => x.seal({ recipientPublicKey: p }, Buffer.from('m')), code('AEAD_ERR_ARG'));
    assert.throws(() => x.open({ recipientKey: kr.privateKey, enc: p }, Buffer.alloc(17)), code('AEAD_ERR_ARG'));
    assert.ok(enc.every((b) => b === 0xaa));
  }
  const x448 = new CipherSuite({ ...X25519, kem: KemId.DhkemX448HkdfSha512 });
  assert.throws(() => x448.createSenderContext({ recipientPublicKey: Buffer.alloc(56) }), code('AEAD_ERR_ARG'));
  assert.throws(() => x448.createSenderContext({ recipientPublicKey: Buffer.concat([Buffer.from([1]), Buffer.alloc(55)]) }),
    code('AEAD_ERR_ARG'));
  // Wrong lengths: RangeError AEAD_ERR_KEY_SIZE, on every key argument.
  for (const n of [1, 31, 33, 65]) {
    assert.throws(() => x.createSenderContext({ recipientPublicKey: rnd(n) }), code('AEAD_ERR_KEY_SIZE'));
    assert.throws(() => x.createRecipientContext({ recipientKey: kr.privateKey, enc: rnd(n) }), code('AEAD_ERR_KEY_SIZE'));
    assert.throws(() => x.createRecipientContext({ recipientKey: rnd(n), enc: kr.publicKey }), code('AEAD_ERR_KEY_SIZE'));
    assert.throws(() => x.createSenderContext({ recipientPublicKey: kr.publicKey, senderKey: rnd(n) }), code('AEAD_ERR_KEY_SIZE'));
    assert.throws(() => x.kem.publicKeyOf(rnd(n)), code('AEAD_ERR_KEY_SIZE'));
  }
  // NIST curves: a point off the curve, a compressed point, the identity; a zero scalar, one not below n.
  const p256 = new CipherSuite({ ...X25519, kem: KemId.DhkemP256HkdfSha256 });
  const good = p256.kem.generateKeyPair();
  const offCurve = Buffer.from(good.publicKey);
  offCurve[64] ^= 1;
  const compressed = Buffer.concat([Buffer.from([2 + (good.publicKey[64] & 1)]), good.publicKey.subarray(1, 33), Buffer.alloc(32)]);
  for (const p of [offCurve, compressed, Buffer.alloc(65)]) {
    assert.throws(() => p256.createSenderContext({ recipientPublicKey: p }), code('AEAD_ERR_ARG'));
    assert.throws(() => p256.createRecipientContext({ recipientKey: good.privateKey, enc: p }), code('AEAD_ERR_ARG'));
  }
  const order = hex('ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');
  for (const sk of [Buffer.alloc(32), order, Buffer.alloc(32, 0xff)]) {
    assert.throws(() => p256.kem.publicKeyOf(sk), code('AEAD_ERR_ARG'));
    assert.throws(() => p256.createRecipientContext({ recipientKey: sk, enc: good.publicKey }), code('AEAD_ERR_ARG'));
  }
  // Not bytes: TypeError before the library is called; unknown ids refused.
  assert.throws(() => x.createSenderContext({ recipientPublicKey: 'key' }), TypeError);
  assert.throws(() => x.createSenderContext({}), TypeError);
  assert.throws(() => new CipherSuite({ ...X25519, kem: 0x13 }), L.UnsupportedAlgorithmError);
  assert.throws(() => new CipherSuite({ ...X25519, aead: 4 }), L.UnsupportedAlgorithmError);
});

test('closed contexts refuse; another kind of handle is not taken for an HPKE context', () => {
  const suite = new CipherSuite(X25519);
  const { sender, recipient } = setup(suite, Mode.Base);
  const ct = sender.seal(Buffer.from('m'));
  sender.close();
  sender.close();
  assert.throws(() => sender.seal(Buffer.from('m')), /closed/);
  assert.throws(() => sender.export(Buffer.alloc(0), 8), /closed/);
  assert.deepStrictEqual(recipient.open(ct), Buffer.from('m'));
  recipient.close();
  assert.throws(() => recipient.open(ct), /closed/);
  // The addon checks what each External is: an AEAD handle given to an HPKE call and back is a TypeError.
  const native = require('node-gyp-build')(path.resolve(__dirname, '..'));
  const aeadHandle = native.create(1, 0, Buffer.alloc(16), 16, null, null);
  assert.throws(() => native.hpkeSeal(aeadHandle, null, Buffer.alloc(1), Buffer.alloc(17), null), TypeError);
  const live = setup(suite, Mode.Base).sender;
  assert.throws(() => native.sealOpen(live._h, 1, Buffer.alloc(12), null, Buffer.alloc(1), Buffer.alloc(17), 0), TypeError);
  native.free(aeadHandle);
  live.close();
});

test('detached, resizable and non-byte arguments: TypeError before the library is called', () => {
  const suite = new CipherSuite(X25519);
  const { sender, recipient, rparams } = setup(suite, Mode.Base);
  const ct = sender.seal(Buffer.from('m'));
  const ab = new ArrayBuffer(32);
  const view = new Uint8Array(ab);
  structuredClone(ab, { transfer: [ab] }); // ab and view are detached now
  const resizable = new Uint8Array(new ArrayBuffer(32, { maxByteLength: 64 }));
  for (const bad of [ab, view, resizable, 'text', 42, [1, 2, 3]]) {
    assert.throws(() => sender.seal(bad), TypeError);
    assert.throws(() => sender.seal(Buffer.from('m'), bad), TypeError);
    assert.throws(() => recipient.open(bad), TypeError);
    assert.throws(() => sender.export(bad, 16), TypeError);
    assert.throws(() => suite.createSenderContext({ recipientPublicKey: bad }), TypeError);
    assert.throws(() => suite.createRecipientContext({ ...rparams, enc: bad }), TypeError);
    assert.throws(() => suite.createRecipientContext({ ...rparams, info: bad }), TypeError);
    assert.throws(() => suite.kem.deriveKeyPair(bad), TypeError);
  }
  // None of those consumed a sequence number or moved the recipient.
  assert.strictEqual(sender.sealWithSequence(Buffer.from('n')).sequence, 1n);
  assert.deepStrictEqual(recipient.open(ct), Buffer.from('m'));
  assert.throws(() => sender.export(Buffer.alloc(0), -1), RangeError);
  sender.close();
  recipient.close();
});

// Several worker_threads seal on one sender context (its handle shared through share() / fromShared):
// the library hands each seal its own sequence number. The main thread checks every number was used once,
// none skipped, increasing within each worker, and opens every message at its number.
const WORKERS = 4;
const PER_WORKER = 5000;
const workerSource = `
const { parentPort, workerData } = require('worker_threads');
const L = require(workerData.pkg);
const ctx = L.SenderContext.fromShared(workerData.shared);
// Start together: each worker counts itself in and waits for the others.
const gate = new Int32Array(workerData.gate);
Atomics.add(gate, 0, 1);
Atomics.notify(gate, 0);
for (let n; (n = Atomics.load(gate, 0)) < workerData.workers;) Atomics.wait(gate, 0, n, 1000);
const out = [];
for (let i = 0; i < workerData.count; i++) {
  const pt = Buffer.alloc(8);
  pt.writeUInt32BE(workerData.id, 0);
  pt.writeUInt32BE(i, 4);
  const { sequence, ct } = ctx.sealWithSequence(pt, null);
  out.push([sequence, ct]);
}
ctx.close();
parentPort.postMessage(out);
`;

test(`${WORKERS} workers sealing on one shared sender context: distinct sequence numbers`, async () => {
  const pkg = process.env.LIBAEAD_NODE_PACKAGE || path.resolve(__dirname, '..');
  const suite = new CipherSuite(X25519);
  const { sender, recipient, rparams } = setup(suite, Mode.Base, { window: 4096 });
  const shared = sender.share();
  assert.deepStrictEqual(sender.share().token, shared.token); // one registry entry per context
  assert.throws(() => L.RecipientContext.fromShared(shared), TypeError);
  const gate = new SharedArrayBuffer(4);
  const runs = Array.from({ length: WORKERS }, (_, id) => new Promise((resolve, reject) => {
    const w = new Worker(workerSource, { eval: true, workerData: { pkg, shared, id, count: PER_WORKER, gate, workers: WORKERS } });
    let got = null;
    w.on('message', (m) => { got = m; });
    w.on('error', reject);
    w.on('exit', (code) => (code === 0 && got ? resolve(got) : reject(new Error(`worker ${id} exit ${code}`))));
  }));
  const results = await Promise.all(runs);
  // The main thread's handle is still live and sealed on the same counter.
  const last = sender.sealWithSequence(Buffer.from('main'));
  assert.strictEqual(last.sequence, BigInt(WORKERS * PER_WORKER));
  const seen = new Map();
  let switches = 0; // how often consecutive sequence numbers went to different workers
  results.forEach((records, id) => {
    let prev = -1n;
    for (const [seq, ct] of records) {
      assert.ok(seq > prev, `worker ${id}: sequence numbers increase`);
      prev = seq;
      assert.ok(!seen.has(seq), `sequence ${seq} sealed twice`);
      seen.set(seq, [id, Buffer.from(ct)]);
    }
  });
  assert.strictEqual(seen.size, WORKERS * PER_WORKER);
  for (let s = 0n; s < BigInt(WORKERS * PER_WORKER); s++) {
    assert.ok(seen.has(s), `sequence ${s} skipped`);
    if (s > 0n && seen.get(s)[0] !== seen.get(s - 1n)[0]) switches++;
  }
  // Every message opens in order of its number (the in-order recipient), and by number.
  const bySeq = suite.createRecipientContext(rparams);
  for (let s = 0n; s < BigInt(WORKERS * PER_WORKER); s++) {
    const [id, ct] = seen.get(s);
    const pt = recipient.open(ct);
    assert.strictEqual(pt.readUInt32BE(0), id);
    if (s % 97n === 0n) assert.deepStrictEqual(bySeq.openAt(s, ct), pt);
  }
  assert.deepStrictEqual(recipient.open(last.ct), Buffer.from('main'));
  console.log(`workers: ${WORKERS} x ${PER_WORKER} seals on one shared context, ${seen.size} distinct sequence numbers, ` +
    `none skipped; consecutive numbers went to different workers ${switches} times`);
  sender.close();
  // Every handle closed: the context is gone, and its description no longer opens it.
  assert.throws(() => L.SenderContext.fromShared(shared), /no such context/);
  recipient.close();
  bySeq.close();
});
