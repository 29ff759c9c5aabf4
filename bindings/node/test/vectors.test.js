'use strict';
// Known-answer tests on the conformance vectors of tests/vectors.py: Wycheproof (v1, AEGIS-128L and
// AEGIS-256 among them, and the legacy v0 AES-GCM file with "acceptable"), NIST CAVP GCMVS, and pyca's
// AES files (CCM, GCM-SIV, OCB3, SIV).
// Every case of every file is accounted for: checked (encrypt and decrypt), rejected (decrypt raised
// AuthenticationError and left the output zeroed) or refused by a documented library limit (a RangeError
// with the library's code); the counts per file are printed and must add up to the file's case count.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const { vectorsDir, lib, hex } = require('./helpers');

const L = lib();
const dir = vectorsDir();

function report(name, counts, expected) {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(`vectors ${name}: ${JSON.stringify(counts)} = ${total} of ${expected}`);
  assert.strictEqual(total, expected, `${name}: ${total} cases accounted for, the file has ${expected}`);
}

function refusal(fn, code) {
  assert.throws(fn, (e) => e instanceof RangeError && e.code === code, `expected RangeError ${code}`);
}

// Opens sealed (with the object's decryptInto when it has one) and checks the failure zeroed the output.
function rejects(obj, nonce, sealed, aad) {
  assert.throws(() => obj.decrypt(nonce, sealed, aad), L.AuthenticationError);
  if (typeof obj.decryptInto === 'function') {
    const buf = Buffer.alloc(Math.max(0, sealed.length - obj.tagLength), 0xaa);
    assert.throws(() => obj.decryptInto(nonce, sealed, aad, buf), L.AuthenticationError);
    assert.ok(buf.every((b) => b === 0), 'a failed open leaves its output zeroed');
  }
}

// Checks encrypt gives `expected` and decrypt (and an exact in-place decryptInto) gives `msg` back.
function roundTrip(obj, nonce, msg, aad, expected, where) {
  assert.deepStrictEqual(obj.encrypt(nonce, msg, aad), expected, where);
  assert.deepStrictEqual(obj.decrypt(nonce, expected, aad), msg, where);
  if (typeof obj.decryptInto === 'function') {
    const buf = Buffer.from(expected);
    assert.strictEqual(obj.decryptInto(nonce, buf, aad, buf), msg.length, where);
    assert.deepStrictEqual(buf.subarray(0, msg.length), msg, where);
  }
}

// One Wycheproof file. make(key, group) builds the object or throws RangeError for a documented refusal;
// limit(t, group) names the library limit under which a valid case is refused (else it must pass);
// expect, when given, is the exact counts the file must give.
function wycheproof(rel, make, { limit = () => null, siv = false, expect = null } = {}) {
  test(`wycheproof ${rel}`, () => {
    const doc = JSON.parse(fs.readFileSync(path.join(dir, 'wycheproof', rel), 'utf8'));
    const counts = { valid: 0, acceptable: 0, invalid: 0, refused: 0 };
    for (const g of doc.testGroups) {
      for (const t of g.tests) {
        const where = `tcId ${t.tcId} (${t.comment})`;
        const [key, iv, aad, msg, ct, tag] = [t.key, t.iv, t.aad, t.msg, t.ct, t.tag].map(hex);
        const sealed = siv ? Buffer.concat([tag, ct]) : Buffer.concat([ct, tag]);
        let obj;
        try {
          obj = make(key, g);
        } catch (e) {
          assert.ok(e instanceof RangeError && t.result === 'invalid', `${where}: construction refused: ${e}`);
          counts.refused++;
          continue;
        }
        const enc = siv ? (n, m, a) => obj.encryptWithNonce(n, m, a) : (n, m, a) => obj.encrypt(n, m, a);
        const dec = siv ? (n, m, a) => obj.decryptWithNonce(n, m, a) : (n, m, a) => obj.decrypt(n, m, a);
        const lim = limit(t, g);
        if (lim) {
          refusal(() => enc(iv, msg, aad), lim);
          refusal(() => dec(iv, sealed, aad), lim);
          counts.refused++;
        } else if (t.result === 'valid' || t.result === 'acceptable') {
          if (siv) {
            assert.deepStrictEqual(enc(iv, msg, aad), sealed, where);
            assert.deepStrictEqual(dec(iv, sealed, aad), msg, where);
          } else {
            roundTrip(obj, iv, msg, aad, sealed, where);
          }
          counts[t.result]++;
        } else {
          assert.strictEqual(t.result, 'invalid');
          if (siv) assert.throws(() => dec(iv, sealed, aad), L.AuthenticationError, where);
          else rejects(obj, iv, sealed, aad);
          counts.invalid++;
        }
        obj.close();
      }
    }
    report(`wycheproof/${rel}`, counts, doc.numberOfTests);
    assert.ok(counts.valid + counts.acceptable > 0 && counts.invalid > 0);
    if (expect) assert.deepStrictEqual(counts, expect, rel);
  });
}

const gcmLimit = (t, g) => (g.ivSize === 0 ? 'AEAD_ERR_NONCE_SIZE' // no nonce: refused (invalid anyway)
  : g.ivSize > 128 * 8 ? 'AEAD_ERR_NONCE_SIZE' : null);               // over 128 bytes: OpenSSL 3's limit
const fixedNonce = (bits) => (t, g) => (g.ivSize !== bits ? 'AEAD_ERR_NONCE_SIZE' : null);

wycheproof('aes_gcm_test.json', (k) => new L.AESGCM(k), { limit: gcmLimit });
wycheproof('legacy/aes_gcm_test.json', (k) => new L.AESGCM(k), { limit: gcmLimit });
wycheproof('chacha20_poly1305_test.json', (k) => new L.ChaCha20Poly1305(k), { limit: fixedNonce(96) });
wycheproof('xchacha20_poly1305_test.json', (k) => new L.XChaCha20Poly1305(k), { limit: fixedNonce(192) });
wycheproof('aes_ccm_test.json', (k, g) => new L.AESCCM(k, g.tagSize / 8),
  { limit: (t, g) => (g.ivSize < 56 || g.ivSize > 104 ? 'AEAD_ERR_NONCE_SIZE' : null) });
wycheproof('aes_gcm_siv_test.json', (k) => new L.AESGCMSIV(k));
wycheproof('aead_aes_siv_cmac_test.json', (k) => new L.AESSIV(k), { siv: true });
// AEGIS: 16-byte tags, nonce = key size (Wycheproof has AEGIS-128L and AEGIS-256 only).
wycheproof('aegis128L_test.json', (k) => new L.AEGIS128L(k, 16),
  { expect: { valid: 367, acceptable: 0, invalid: 112, refused: 0 } });
wycheproof('aegis256_test.json', (k) => new L.AEGIS256(k, 16),
  { expect: { valid: 360, acceptable: 0, invalid: 112, refused: 0 } });

// ---- NIST CAVP GCMVS (every tag length is offered by AESGCM's tagLength) ----
function rsp(file) {
  const section = {};
  const cases = [];
  let c = null;
  for (const raw of fs.readFileSync(file, 'utf8').split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('[')) {
      for (const part of line.slice(1, -1).split(',')) {
        const [k, v] = part.split('=').map((s) => s.trim());
        section[k] = Number(v);
      }
      c = null; // Key and Nonce lines after a section header belong to the section
      continue;
    }
    if (line === 'FAIL') { c.FAIL = true; continue; }
    const i = line.indexOf('=');
    const k = line.slice(0, i).trim();
    const v = line.slice(i + 1).trim();
    if (k === 'Count' || k === 'COUNT') {
      c = { ...section, Count: Number(v) };
      cases.push(c);
    } else if (c === null) {
      section[k] = /^[0-9]+$/.test(v) && k.endsWith('len') ? Number(v) : v;
    } else {
      c[k] = v;
    }
  }
  return cases;
}

for (const bits of [128, 192, 256]) {
  test(`nist-cavp gcmEncryptExtIV${bits}`, () => {
    const cases = rsp(path.join(dir, 'nist-cavp', `gcmEncryptExtIV${bits}.rsp`));
    const counts = { checked: 0 };
    for (const c of cases) {
      const obj = new L.AESGCM(hex(c.Key), c.Taglen / 8);
      roundTrip(obj, hex(c.IV), hex(c.PT), hex(c.AAD), Buffer.concat([hex(c.CT), hex(c.Tag)]), `Count ${c.Count}`);
      obj.close();
      counts.checked++;
    }
    report(`nist-cavp/gcmEncryptExtIV${bits}.rsp`, counts, 7875);
  });
  test(`nist-cavp gcmDecrypt${bits}`, () => {
    const cases = rsp(path.join(dir, 'nist-cavp', `gcmDecrypt${bits}.rsp`));
    const counts = { opened: 0, rejected: 0 };
    for (const c of cases) {
      const obj = new L.AESGCM(hex(c.Key), c.Taglen / 8);
      const sealed = Buffer.concat([hex(c.CT), hex(c.Tag)]);
      if (c.FAIL) {
        rejects(obj, hex(c.IV), sealed, hex(c.AAD));
        counts.rejected++;
      } else {
        assert.deepStrictEqual(obj.decrypt(hex(c.IV), sealed, hex(c.AAD)), hex(c.PT), `Count ${c.Count}`);
        counts.opened++;
      }
      obj.close();
    }
    report(`nist-cavp/gcmDecrypt${bits}.rsp`, counts, 7875);
    assert.ok(counts.rejected > 0 && counts.opened > 0);
  });
}

// ---- pyca's files ----
const pyca = (...p) => path.join(dir, 'pyca', 'ciphers', 'AES', ...p);

for (const f of fs.readdirSync(pyca('CCM')).filter((n) => /\.(rsp|txt)$/.test(n) && n !== 'Readme.txt').sort()) {
  test(`pyca CCM/${f}`, () => {
    const cases = rsp(pyca('CCM', f));
    const counts = { checked: 0, rejected: 0 };
    let key = null;
    let nonce = null;
    for (const c of cases) {
      // Key and Nonce may be given once per section, before the cases that use them.
      key = c.Key ?? key;
      nonce = c.Nonce ?? nonce;
      const obj = new L.AESCCM(hex(c.Key ?? key), c.Tlen);
      const n = hex(c.Nonce ?? nonce);
      const aad = hex(c.Adata).subarray(0, c.Alen);
      const sealed = hex(c.CT);
      const result = c.Result === undefined ? 'Pass' : c.Result.split(' ')[0]; // .txt: "Fail (2 - CT changed)"
      if (result === 'Fail') {
        rejects(obj, n, sealed, aad);
        counts.rejected++;
      } else {
        assert.strictEqual(result, 'Pass');
        roundTrip(obj, n, hex(c.Payload).subarray(0, c.Plen), aad, sealed, `${f} Count ${c.Count}`);
        counts.checked++;
      }
      obj.close();
    }
    report(`pyca/ciphers/AES/CCM/${f}`, counts, cases.length);
    assert.ok(cases.length >= 70);
  });
}

// COUNT blocks of "Name = hex" lines (comments and cipher headers are '#' lines).
const blocks = rsp;

for (const f of fs.readdirSync(pyca('OCB3')).sort()) {
  test(`pyca OCB3/${f}`, () => {
    const cases = blocks(pyca('OCB3', f));
    for (const c of cases) {
      const obj = new L.AESOCB3(hex(c.Key));
      roundTrip(obj, hex(c.Nonce), hex(c.Plaintext), hex(c.AAD), hex(c.Ciphertext), `${f} COUNT ${c.Count}`);
      obj.close();
    }
    report(`pyca/ciphers/AES/OCB3/${f}`, { checked: cases.length }, cases.length);
    assert.ok(cases.length >= 7);
  });
}

for (const f of fs.readdirSync(pyca('GCM-SIV')).sort()) {
  test(`pyca GCM-SIV/${f}`, () => {
    const cases = blocks(pyca('GCM-SIV', f));
    for (const c of cases) {
      const obj = new L.AESGCMSIV(hex(c.Key));
      roundTrip(obj, hex(c.IV), hex(c.Plaintext), hex(c.AAD), Buffer.concat([hex(c.Ciphertext), hex(c.Tag)]),
        `${f} COUNT ${c.Count}`);
      obj.close();
    }
    report(`pyca/ciphers/AES/GCM-SIV/${f}`, { checked: cases.length }, cases.length);
    assert.ok(cases.length >= 40);
  });
}

test('pyca SIV/openssl.txt (components)', () => {
  const cases = blocks(pyca('SIV', 'openssl.txt'));
  for (const c of cases) {
    const obj = new L.AESSIV(hex(c.Key));
    const ad = [c.AAD, c.AAD2, c.AAD3].filter((x) => x !== undefined).map(hex);
    const sealed = Buffer.concat([hex(c.Tag), hex(c.Ciphertext)]);
    assert.deepStrictEqual(obj.encrypt(hex(c.Plaintext), ad), sealed);
    assert.deepStrictEqual(obj.decrypt(sealed, ad), hex(c.Plaintext));
    sealed[0] ^= 1;
    assert.throws(() => obj.decrypt(sealed, ad), L.AuthenticationError);
    obj.close();
  }
  report('pyca/ciphers/AES/SIV/openssl.txt', { checked: cases.length }, cases.length);
  assert.strictEqual(cases.length, 4);
});
