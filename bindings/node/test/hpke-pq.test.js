'use strict';
// draft-ietf-hpke-pq (library 1.6): ML-KEM-512/768/1024, the hybrids MLKEM768-P256, MLKEM1024-P384 and
// X-Wing, and the one-stage KDFs SHAKE128 / SHAKE256 (TurboSHAKE is in no OpenSSL: always refused).
// - Every case of Go 1.26's hpke-pq.json (tests/vectors.py; a missing file fails): with ML-KEM in libcrypto
//   (OpenSSL 3.5+, the prebuilt addon) 10 pass and the 3 TurboSHAKE cases are refused; without it (the
//   fallback build on the system OpenSSL 3.0) the 2 DHKEM + SHAKE cases pass and 11 are refused, each an
//   UnsupportedAlgorithmError (AEAD_ERR_UNSUPPORTED), as sender and as recipient.
// - Round trips with generated keys for every PQ KEM in base and psk mode (the auth modes refused), and
//   for the DHKEMs with the SHAKE KDFs in every mode.
// - Bad PQ keys and encapsulations refused, or (ML-KEM's implicit rejection) failing the first open.
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { vectorsDir, lib, hex } = require('./helpers');

const L = lib();
const { CipherSuite, KemId, KdfId, AeadId, Mode, UnsupportedAlgorithmError } = L;
const PQ_KEMS = [KemId.MlKem512, KemId.MlKem768, KemId.MlKem1024, KemId.MlKem768P256, KemId.MlKem1024P384, KemId.XWing];
// Nenc, Npk, Nsk (draft-ietf-hpke-pq).
const PQ_SIZES = [[768, 800, 64], [1088, 1184, 64], [1568, 1568, 64], [1153, 1249, 32], [1665, 1665, 32], [1120, 1216, 32]];
const DHKEMS = Object.values(KemId).filter((k) => k < 0x0040);
const TURBOSHAKE = [KdfId.TurboShake128, KdfId.TurboShake256];

// Whether the addon runs on a libcrypto with ML-KEM: OpenSSL 3.5 or later, read from the version text
// (not by asking the KEM).
function mlkemExpected() {
  const v = L.libraryVersion();
  const m = /OpenSSL (\d+)\.(\d+)\./.exec(v);
  assert.ok(m, `no OpenSSL version in ${v}`);
  const pq = Number(m[1]) > 3 || (Number(m[1]) === 3 && Number(m[2]) >= 5);
  // This checkout's package loads the prebuilt addon, built on the vendored OpenSSL 3.5.
  if (!process.env.LIBAEAD_NODE_PACKAGE) assert.ok(pq, `the prebuilt addon runs on OpenSSL 3.5: ${v}`);
  return pq;
}
const PQ = mlkemExpected();

const unsupported = (e) => e instanceof UnsupportedAlgorithmError && e.code === 'AEAD_ERR_UNSUPPORTED';
const badArg = (e) => e.code === 'AEAD_ERR_ARG' || e.code === 'AEAD_ERR_KEY_SIZE';

test('draft-ietf-hpke-pq vectors (hpke-pq.json): every case; refusals where libcrypto lacks the KEM or KDF', () => {
  const file = path.join(vectorsDir(), 'hpke', 'hpke-pq.json');
  assert.ok(fs.existsSync(file), `${file} is missing (tests/vectors.py fetches it)`);
  const cases = JSON.parse(fs.readFileSync(file, 'utf8'));
  let passed = 0, refusedTurboshake = 0, refusedMlkem = 0, seals = 0, exports = 0;
  const perKem = new Map();
  for (const c of cases) {
    assert.strictEqual(c.mode, Mode.Base);
    const suite = new CipherSuite({ kem: c.kem_id, kdf: c.kdf_id, aead: c.aead_id });
    const where = suite.toString();
    const [sk, pk, enc, info] = [hex(c.skRm), hex(c.pkRm), hex(c.enc), hex(c.info)];
    assert.strictEqual(sk.length, suite.kem.privateKeySize, where);
    assert.strictEqual(pk.length, suite.kem.publicKeySize, where);
    assert.strictEqual(enc.length, suite.kem.encSize, where);
    const turbo = TURBOSHAKE.includes(c.kdf_id);
    if (turbo || (PQ_KEMS.includes(c.kem_id) && !PQ)) {
      assert.throws(() => suite.createSenderContext({ recipientPublicKey: pk, info, ekm: hex(c.ikmE) }), unsupported, where);
      assert.throws(() => suite.createRecipientContext({ recipientKey: sk, enc, info }), unsupported, where);
      if (turbo) refusedTurboshake++; else refusedMlkem++;
      continue;
    }
    const kr = suite.kem.deriveKeyPair(hex(c.ikmR));
    assert.deepStrictEqual([kr.privateKey, kr.publicKey], [sk, pk], where);
    assert.deepStrictEqual(suite.kem.publicKeyOf(sk), pk, where);
    const sender = suite.createSenderContext({ recipientPublicKey: pk, info, ekm: hex(c.ikmE) });
    assert.deepStrictEqual(sender.enc, enc, where);
    const recipient = suite.createRecipientContext({ recipientKey: sk, enc, info });
    c.encryptions.forEach((e, seq) => {
      const { sequence, ct } = sender.sealWithSequence(hex(e.pt), hex(e.aad));
      assert.strictEqual(sequence, BigInt(seq), where);
      assert.deepStrictEqual(ct, hex(e.ct), `${where} seq ${seq}`);
      assert.deepStrictEqual(recipient.open(hex(e.ct), hex(e.aad)), hex(e.pt), `${where} seq ${seq}`);
      seals++;
    });
    assert.strictEqual(c.encryptions.length, 10, where);
    for (const x of c.exports) {
      assert.deepStrictEqual(sender.export(hex(x.exporter_context), x.L), hex(x.exported_value), where);
      assert.deepStrictEqual(recipient.export(hex(x.exporter_context), x.L), hex(x.exported_value), where);
      exports++;
    }
    assert.strictEqual(c.exports.length, 5, where);
    sender.close();
    recipient.close();
    perKem.set(c.kem_id, (perKem.get(c.kem_id) || 0) + 1);
    passed++;
  }
  console.log(`vectors hpke/hpke-pq.json: ${cases.length} cases: ${passed} passed (${seals} encryptions, ` +
    `${exports} exports), ${refusedTurboshake} refused (TurboSHAKE), ${refusedMlkem} refused ` +
    `(no ML-KEM in ${L.libraryVersion()})`);
  assert.strictEqual(cases.length, 13);
  assert.strictEqual(refusedTurboshake, 3);
  assert.strictEqual(passed, PQ ? 10 : 2);
  assert.strictEqual(refusedMlkem, PQ ? 0 : 8);
  if (PQ) {
    for (const kem of PQ_KEMS) {
      assert.strictEqual(perKem.get(kem), kem === KemId.MlKem768P256 || kem === KemId.XWing ? 2 : 1, `KEM ${kem}`);
    }
  }
});

test('PQ KEMs: sizes; without ML-KEM in libcrypto every call refused', () => {
  PQ_KEMS.forEach((kem, i) => {
    const suite = new CipherSuite({ kem, kdf: KdfId.Shake256, aead: AeadId.Aes128Gcm });
    const k = suite.kem;
    assert.deepStrictEqual([k.encSize, k.publicKeySize, k.privateKeySize], PQ_SIZES[i], suite.toString());
    if (PQ) return;
    assert.throws(() => k.generateKeyPair(), unsupported);
    assert.throws(() => k.deriveKeyPair(Buffer.alloc(32)), unsupported);
    assert.throws(() => k.publicKeyOf(Buffer.alloc(k.privateKeySize)), unsupported);
    assert.throws(() => suite.createSenderContext({ recipientPublicKey: Buffer.alloc(k.publicKeySize) }), unsupported);
    assert.throws(() => suite.createRecipientContext({ recipientKey: Buffer.alloc(k.privateKeySize),
      enc: Buffer.alloc(k.encSize) }), unsupported);
    assert.throws(() => suite.seal({ recipientPublicKey: Buffer.alloc(k.publicKeySize) }, Buffer.from('x')), unsupported);
  });
});

function roundTrip(suite, mode) {
  const where = `${suite} mode ${mode}`;
  const kr = suite.kem.generateKeyPair();
  assert.strictEqual(kr.publicKey.length, suite.kem.publicKeySize, where);
  assert.strictEqual(kr.privateKey.length, suite.kem.privateKeySize, where);
  assert.deepStrictEqual(suite.kem.publicKeyOf(kr.privateKey), kr.publicKey, where);
  const ks = mode === Mode.Auth || mode === Mode.AuthPsk ? suite.kem.generateKeyPair() : null;
  const psk = mode === Mode.Psk || mode === Mode.AuthPsk ? { id: crypto.randomBytes(8), key: crypto.randomBytes(32) } : undefined;
  const info = crypto.randomBytes(crypto.randomInt(64));
  const sender = suite.createSenderContext({ recipientPublicKey: kr.publicKey, senderKey: ks?.privateKey, info, psk });
  assert.strictEqual(sender.enc.length, suite.kem.encSize, where);
  const rparams = { recipientKey: kr.privateKey, enc: sender.enc, senderPublicKey: ks?.publicKey, info, psk };
  const recipient = suite.createRecipientContext(rparams);
  const x = sender.export(Buffer.from('ctx'), 64);
  assert.deepStrictEqual(recipient.export(Buffer.from('ctx'), 64), x, where);
  assert.notDeepStrictEqual(recipient.export(Buffer.from('ctx2'), 64), x, where);
  if (suite.aead.id !== AeadId.ExportOnly) {
    for (const n of [0, 1, 17, 1000]) {
      const pt = crypto.randomBytes(n);
      const aad = crypto.randomBytes(crypto.randomInt(20));
      const ct = sender.seal(pt, aad);
      const bad = Buffer.from(ct);
      bad[crypto.randomInt(bad.length)] ^= 1 << crypto.randomInt(8);
      assert.throws(() => recipient.open(bad, aad), (e) => e.code === 'AEAD_ERR_AUTH', `${where} tampered`);
      assert.deepStrictEqual(recipient.open(ct, aad), pt, where);
    }
    const pt = crypto.randomBytes(50);
    const single = suite.seal({ recipientPublicKey: kr.publicKey, senderKey: ks?.privateKey, info, psk }, pt);
    assert.deepStrictEqual(suite.open({ ...rparams, enc: single.enc }, single.ct), pt, `${where} single-shot`);
  }
  sender.close();
  recipient.close();
}

test('round trips: the DHKEMs with SHAKE in every mode; each PQ KEM in base and psk mode, auth refused', () => {
  let setups = 0, refused = 0;
  for (const kem of DHKEMS) {
    for (const kdf of [KdfId.Shake128, KdfId.Shake256]) {
      for (const aead of Object.values(AeadId)) {
        for (const mode of Object.values(Mode)) { roundTrip(new CipherSuite({ kem, kdf, aead }), mode); setups++; }
      }
    }
  }
  for (const kem of PQ ? PQ_KEMS : []) {
    for (const kdf of [KdfId.HkdfSha256, KdfId.HkdfSha512, KdfId.Shake128, KdfId.Shake256]) {
      for (const aead of Object.values(AeadId)) {
        const suite = new CipherSuite({ kem, kdf, aead });
        for (const mode of Object.values(Mode)) {
          if (mode === Mode.Auth || mode === Mode.AuthPsk) {
            assert.throws(() => roundTrip(suite, mode), (e) => e.code === 'AEAD_ERR_ARG', `${suite} mode ${mode}`);
            refused++;
          } else {
            roundTrip(suite, mode);
            setups++;
          }
        }
      }
    }
  }
  // 5 DHKEMs x 2 SHAKE KDFs x 4 AEADs x 4 modes; with ML-KEM also 6 PQ KEMs x 4 KDFs x 4 AEADs x 2 modes.
  assert.strictEqual(setups, 160 + (PQ ? 192 : 0));
  assert.strictEqual(refused, PQ ? 192 : 0);
  console.log(`hpke-pq round trips: ${setups} setups (${PQ ? 'with' : 'without'} the PQ KEMs), ${refused} auth-mode setups refused`);
});

test('PQ KEMs: bad keys and encapsulations', () => {
  if (!PQ) return; // without ML-KEM every call is refused: the sizes test above
  for (const kem of PQ_KEMS) {
    const suite = new CipherSuite({ kem, kdf: KdfId.HkdfSha256, aead: AeadId.Aes128Gcm });
    const where = suite.toString();
    const { privateKey: sk, publicKey: pk } = suite.kem.generateKeyPair();
    const sender = suite.createSenderContext({ recipientPublicKey: pk });
    const enc = sender.enc;
    for (const d of [-1, 1]) {
      const resize = (b) => (d < 0 ? b.subarray(0, b.length - 1) : Buffer.concat([b, Buffer.alloc(1)]));
      assert.throws(() => suite.createSenderContext({ recipientPublicKey: resize(pk) }), badArg, where);
      assert.throws(() => suite.kem.publicKeyOf(resize(sk)), badArg, where);
      assert.throws(() => suite.createRecipientContext({ recipientKey: sk, enc: resize(enc) }), badArg, where);
      assert.throws(() => suite.createRecipientContext({ recipientKey: resize(sk), enc }), badArg, where);
    }
    // FIPS 203's modulus check: an encapsulation key whose first coefficients are 4095 (>= q).
    const badPk = Buffer.from(pk);
    badPk.fill(0xff, 0, 384);
    assert.throws(() => suite.createSenderContext({ recipientPublicKey: badPk }), (e) => e.code === 'AEAD_ERR_ARG', where);
    // Implicit rejection: a tampered ML-KEM ciphertext sets up, and the first open fails.
    const ct = sender.seal(Buffer.from('pq'));
    const tampered = Buffer.from(enc);
    tampered[0] ^= 1;
    const wrong = suite.createRecipientContext({ recipientKey: sk, enc: tampered });
    assert.throws(() => wrong.open(ct), (e) => e.code === 'AEAD_ERR_AUTH', where);
    const right = suite.createRecipientContext({ recipientKey: sk, enc });
    assert.deepStrictEqual(right.open(ct), Buffer.from('pq'), where);
    for (const c of [sender, wrong, right]) c.close();
  }
});
