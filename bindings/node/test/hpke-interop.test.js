'use strict';
// HPKE interop with @hpke/core (an independent RFC 9180 implementation in TypeScript, on WebCrypto) and its
// extensions @hpke/chacha20poly1305 and @hpke/dhkem-x25519 / @hpke/dhkem-x448 (pure JavaScript X25519 /
// X448, picked at random against core's WebCrypto ones). Random cases in each direction: a random suite
// (every KEM, KDF and AEAD both have), a random mode (base, psk, auth, auth_psk), random info, psk, AAD
// and lengths, one to four messages in sequence. Each side's key pairs are its own, serialised and taken
// by the other. The sender seals, the other side opens; both export the same secrets; a tampered
// ciphertext is refused by the opening side. Some cases use the single-shot calls instead of contexts.
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('crypto');
const { lib } = require('./helpers');

const L = lib();
const H = require('@hpke/core');
const { Chacha20Poly1305 } = require('@hpke/chacha20poly1305');
const { DhkemX25519HkdfSha256: PureX25519 } = require('@hpke/dhkem-x25519');
const { DhkemX448HkdfSha512: PureX448 } = require('@hpke/dhkem-x448');

const CASES = Number(process.env.AEAD_NODE_HPKE_INTEROP || 1000);
const rnd = (n) => crypto.randomBytes(n);
const int = (lo, hi) => lo + crypto.randomInt(hi - lo + 1);
const pick = (a) => a[int(0, a.length - 1)];
const len = (max) => (int(0, 3) === 0 ? int(0, max) : pick([0, 1, 15, 16, 17, 64]));

const KEMS = {
  [L.KemId.DhkemP256HkdfSha256]: [() => new H.DhkemP256HkdfSha256()],
  [L.KemId.DhkemP384HkdfSha384]: [() => new H.DhkemP384HkdfSha384()],
  [L.KemId.DhkemP521HkdfSha512]: [() => new H.DhkemP521HkdfSha512()],
  [L.KemId.DhkemX25519HkdfSha256]: [() => new H.DhkemX25519HkdfSha256(), () => new PureX25519()],
  [L.KemId.DhkemX448HkdfSha512]: [() => new H.DhkemX448HkdfSha512(), () => new PureX448()],
};
const KDFS = { [L.KdfId.HkdfSha256]: H.HkdfSha256, [L.KdfId.HkdfSha384]: H.HkdfSha384, [L.KdfId.HkdfSha512]: H.HkdfSha512 };
const AEADS = { [L.AeadId.Aes128Gcm]: H.Aes128Gcm, [L.AeadId.Aes256Gcm]: H.Aes256Gcm, [L.AeadId.Chacha20Poly1305]: Chacha20Poly1305, [L.AeadId.ExportOnly]: H.ExportOnly };

const buf = (ab) => Buffer.from(ab instanceof ArrayBuffer ? new Uint8Array(ab) : ab);

// One random case: the suites on both sides, the mode's inputs, the messages.
function randomCase() {
  const ids = { kem: Number(pick(Object.keys(KEMS))), kdf: Number(pick(Object.keys(KDFS))), aead: Number(pick(Object.keys(AEADS))) };
  const mode = pick(Object.values(L.Mode));
  const ours = new L.CipherSuite(ids);
  const theirs = new H.CipherSuite({ kem: pick(KEMS[ids.kem])(), kdf: new KDFS[ids.kdf](), aead: new AEADS[ids.aead]() });
  const psk = mode === L.Mode.Psk || mode === L.Mode.AuthPsk ? { id: rnd(int(1, 32)), key: rnd(int(32, 64)) } : undefined;
  const auth = mode === L.Mode.Auth || mode === L.Mode.AuthPsk;
  const messages = Array.from({ length: int(1, 4) }, () => ({ pt: rnd(len(1024)), aad: rnd(len(64)) }));
  const exports = Array.from({ length: int(1, 3) }, () => ({ ctx: rnd(len(100)), n: int(1, 128) }));
  return { ids, mode, ours, theirs, psk, auth, info: rnd(len(128)), messages, exports, single: int(0, 4) === 0 };
}

function tamper(ct) {
  const bad = Buffer.from(ct);
  bad[int(0, bad.length - 1)] ^= 1 << int(0, 7);
  return bad;
}

const counts = () => ({ cases: 0, single: 0, messages: 0, exports: 0, tamperedRefused: 0, modes: [0, 0, 0, 0], kems: {} });
function tally(c, k) {
  c.cases++;
  c.modes[k.mode]++;
  const name = Object.keys(L.KemId).find((n) => L.KemId[n] === k.ids.kem);
  c.kems[name] = (c.kems[name] || 0) + 1;
}

// libaead seals, @hpke/core opens. The recipient's keys are @hpke's, the sender's (auth) libaead's.
async function libaeadToHpke(c) {
  const k = randomCase();
  tally(c, k);
  const kp = await k.theirs.kem.generateKeyPair();
  const pkR = buf(await k.theirs.kem.serializePublicKey(kp.publicKey));
  const ks = k.auth ? k.ours.kem.generateKeyPair() : null;
  const senderPublicKey = ks ? await k.theirs.kem.deserializePublicKey(ks.publicKey) : undefined;
  const exportOnly = k.ids.aead === L.AeadId.ExportOnly;
  if (k.single && !exportOnly) {
    const m = k.messages[0];
    const { enc, ct } = k.ours.seal({ recipientPublicKey: pkR, senderKey: ks?.privateKey, info: k.info, psk: k.psk }, m.pt, m.aad);
    const params = { recipientKey: kp, enc, senderPublicKey, info: k.info, psk: k.psk };
    assert.deepStrictEqual(buf(await k.theirs.open(params, ct, m.aad)), m.pt);
    await assert.rejects(k.theirs.open(params, tamper(ct), m.aad));
    c.single++;
    c.messages++;
    c.tamperedRefused++;
    return;
  }
  const tx = k.ours.createSenderContext({ recipientPublicKey: pkR, senderKey: ks?.privateKey, info: k.info, psk: k.psk });
  const rx = await k.theirs.createRecipientContext({ recipientKey: kp, enc: tx.enc, senderPublicKey, info: k.info, psk: k.psk });
  if (!exportOnly) {
    for (const m of k.messages) {
      const ct = tx.seal(m.pt, m.aad);
      await assert.rejects(rx.open(tamper(ct), m.aad));
      c.tamperedRefused++;
      assert.deepStrictEqual(buf(await rx.open(ct, m.aad)), m.pt);
      c.messages++;
    }
  }
  for (const x of k.exports) {
    assert.deepStrictEqual(buf(await rx.export(x.ctx, x.n)), tx.export(x.ctx, x.n));
    c.exports++;
  }
  tx.close();
}

// @hpke/core seals, libaead opens. The recipient's keys are libaead's, the sender's (auth) @hpke's.
async function hpkeToLibaead(c) {
  const k = randomCase();
  tally(c, k);
  const kr = k.ours.kem.generateKeyPair();
  const recipientPublicKey = await k.theirs.kem.deserializePublicKey(kr.publicKey);
  const ks = k.auth ? await k.theirs.kem.generateKeyPair() : null;
  const pkS = ks ? buf(await k.theirs.kem.serializePublicKey(ks.publicKey)) : undefined;
  const exportOnly = k.ids.aead === L.AeadId.ExportOnly;
  if (k.single && !exportOnly) {
    const m = k.messages[0];
    const { enc, ct } = await k.theirs.seal({ recipientPublicKey, senderKey: ks ?? undefined, info: k.info, psk: k.psk }, m.pt, m.aad);
    const params = { recipientKey: kr.privateKey, enc: buf(enc), senderPublicKey: pkS, info: k.info, psk: k.psk };
    assert.deepStrictEqual(k.ours.open(params, buf(ct), m.aad), m.pt);
    assert.throws(() => k.ours.open(params, tamper(buf(ct)), m.aad), L.AuthenticationError);
    c.single++;
    c.messages++;
    c.tamperedRefused++;
    return;
  }
  const tx = await k.theirs.createSenderContext({ recipientPublicKey, senderKey: ks ?? undefined, info: k.info, psk: k.psk });
  const rx = k.ours.createRecipientContext({ recipientKey: kr.privateKey, enc: buf(tx.enc), senderPublicKey: pkS, info: k.info, psk: k.psk });
  if (!exportOnly) {
    for (const m of k.messages) {
      const ct = buf(await tx.seal(m.pt, m.aad));
      assert.throws(() => rx.open(tamper(ct), m.aad), L.AuthenticationError);
      c.tamperedRefused++;
      assert.deepStrictEqual(rx.open(ct, m.aad), m.pt);
      c.messages++;
    }
  }
  for (const x of k.exports) {
    assert.deepStrictEqual(rx.export(x.ctx, x.n), buf(await tx.export(x.ctx, x.n)));
    c.exports++;
  }
  rx.close();
}

function report(name, c) {
  console.log(`hpke interop ${name}: ${c.cases} random cases (${c.single} single-shot), ${c.messages} messages opened, ` +
    `${c.exports} exports equal, ${c.tamperedRefused} tampered ciphertexts refused; modes base/psk/auth/auth_psk ` +
    `${c.modes.join('/')}; cases per KEM ${JSON.stringify(c.kems)}`);
  assert.strictEqual(c.cases, CASES);
  assert.ok(c.modes.every((n) => n > 0) && Object.keys(c.kems).length === 5, 'every mode and KEM was drawn');
}

test(`libaead seals, @hpke/core opens: ${CASES} random cases`, async () => {
  const c = counts();
  for (let i = 0; i < CASES; i++) await libaeadToHpke(c);
  report('libaead -> @hpke/core', c);
});

test(`@hpke/core seals, libaead opens: ${CASES} random cases`, async () => {
  const c = counts();
  for (let i = 0; i < CASES; i++) await hpkeToLibaead(c);
  report('@hpke/core -> libaead', c);
});
