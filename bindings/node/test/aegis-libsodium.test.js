'use strict';
// AEGIS-128L and AEGIS-256 against libsodium (libsodium-wrappers, its WebAssembly build: an independent
// implementation whose crypto_aead_aegis128l_* / _aegis256_* use 32-byte tags), on random keys, nonces,
// AAD and plaintexts of 0 to 64 KiB (most small, some large). Each case is sealed by both sides (the bytes
// must be equal), each side's output opened by the other, and a flipped bit refused by libaead (and by
// libsodium). A missing or too old libsodium-wrappers fails the test (package.json pins it).
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('crypto');
const { lib } = require('./helpers');

const L = lib();
const CASES = 10000;
const MAX = 64 * 1024;

function loadSodium() {
  try {
    return require('libsodium-wrappers');
  } catch (e) {
    throw new Error(`libsodium-wrappers is required for the AEGIS differential test (npm ci in bindings/node): ${e.message}`);
  }
}

// Mostly small lengths, some up to 64 KiB, and the bounds themselves now and then.
function length() {
  const r = crypto.randomInt(100);
  if (r < 2) return [0, 1, 31, 32, 33, 63, 64, 65, MAX - 1, MAX][crypto.randomInt(10)];
  if (r < 70) return crypto.randomInt(257);
  if (r < 90) return crypto.randomInt(4097);
  if (r < 98) return crypto.randomInt(16385);
  return crypto.randomInt(MAX + 1);
}
function aadLength() {
  const r = crypto.randomInt(10);
  if (r < 3) return 0;
  if (r < 8) return crypto.randomInt(65);
  return crypto.randomInt(4097);
}

const bytesEqual = (a, b) => a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), b) === 0;

// libsodium's open: the plaintext, or null when it refuses.
function sodiumOpen(open, sealed, aad, nonce, key) {
  try {
    return open(null, sealed, aad, nonce, key);
  } catch {
    return null;
  }
}

function differential(sodium, Cls, prefix, size) {
  const seal = sodium[`crypto_aead_${prefix}_encrypt`];
  const open = sodium[`crypto_aead_${prefix}_decrypt`];
  assert.strictEqual(typeof seal, 'function', `libsodium-wrappers has no crypto_aead_${prefix}_encrypt`);
  assert.strictEqual(sodium[`crypto_aead_${prefix}_ABYTES`], 32, `${prefix}: libsodium's tag is 32 bytes`);
  assert.strictEqual(sodium[`crypto_aead_${prefix}_KEYBYTES`], size);
  assert.strictEqual(sodium[`crypto_aead_${prefix}_NPUBBYTES`], size);
  const stats = { cases: 0, bytes: 0, large: 0, disagreements: 0, first: [] };
  const disagree = (what) => {
    stats.disagreements++;
    if (stats.first.length < 5) stats.first.push(what);
  };
  for (let i = 0; i < CASES; i++) {
    const key = crypto.randomBytes(size);
    const nonce = crypto.randomBytes(size);
    const pt = crypto.randomBytes(length());
    const aad = crypto.randomBytes(aadLength());
    const what = `${Cls.name} case ${i}: pt ${pt.length}, aad ${aad.length}`;
    const a = new Cls(key, 32);
    // libaead seals; libsodium seals; equal bytes.
    const ours = a.encrypt(nonce, pt, aad.length || i % 2 ? aad : null);
    const theirs = seal(pt, aad.length ? aad : null, null, nonce, key);
    if (!bytesEqual(theirs, ours)) disagree(`${what}: the sealed messages differ`);
    // Each opens the other's.
    const back = sodiumOpen(open, ours, aad.length ? aad : null, nonce, key);
    if (back === null || !bytesEqual(back, pt)) disagree(`${what}: libsodium does not open libaead's message`);
    let mine = null;
    try {
      mine = a.decrypt(nonce, theirs, aad);
    } catch (e) {
      disagree(`${what}: libaead does not open libsodium's message (${e.code})`);
    }
    if (mine !== null && !mine.equals(pt)) disagree(`${what}: libaead opens libsodium's message to other bytes`);
    // One flipped bit (ciphertext or tag): refused by both.
    const bad = Buffer.from(ours);
    bad[crypto.randomInt(bad.length)] ^= 1 << crypto.randomInt(8);
    try {
      a.decrypt(nonce, bad, aad);
      disagree(`${what}: libaead opened a message with a flipped bit`);
    } catch (e) {
      if (!(e instanceof L.AuthenticationError)) disagree(`${what}: libaead refused a flipped bit with ${e.name} ${e.code}`);
    }
    if (sodiumOpen(open, bad, aad, nonce, key) !== null) disagree(`${what}: libsodium opened a message with a flipped bit`);
    a.close();
    stats.cases++;
    stats.bytes += pt.length;
    if (pt.length > 16384) stats.large++;
  }
  // The random-nonce class: nonce || ciphertext || tag, opened by libsodium with the drawn nonce.
  const key = crypto.randomBytes(size);
  const r = new L[`${Cls.name}RandomNonce`](key, 32);
  let randomCases = 0;
  for (let i = 0; i < 500; i++) {
    const pt = crypto.randomBytes(length() % 4097);
    const aad = crypto.randomBytes(aadLength());
    const out = r.encrypt(pt, aad);
    const back = sodiumOpen(open, out.subarray(size), aad, out.subarray(0, size), key);
    if (back === null || !bytesEqual(back, pt)) disagree(`${Cls.name}RandomNonce case ${i}: libsodium does not open it`);
    const theirNonce = crypto.randomBytes(size);
    const theirs = Buffer.concat([theirNonce, seal(pt, aad, null, theirNonce, key)]);
    if (!r.decrypt(theirs, aad).equals(pt)) disagree(`${Cls.name}RandomNonce case ${i}: libsodium's message opens to other bytes`);
    randomCases++;
  }
  r.close();
  console.log(`${Cls.name} vs libsodium ${sodium.SODIUM_VERSION_STRING} (32-byte tags): ${stats.cases} cases ` +
    `(${(stats.bytes / 1048576).toFixed(1)} MiB of plaintext, ${stats.large} above 16 KiB), ` +
    `${randomCases} random-nonce cases, ${stats.disagreements} disagreements`);
  assert.strictEqual(stats.disagreements, 0, stats.first.join('\n'));
  assert.strictEqual(stats.cases, CASES);
}

test('AEGIS-128L and AEGIS-256 vs libsodium: sealed alike, each opens the other, a flipped bit refused', async () => {
  const sodium = loadSodium();
  await sodium.ready;
  const [major, minor, patch] = sodium.SODIUM_VERSION_STRING.split('.').map(Number);
  assert.ok(major > 1 || (major === 1 && (minor > 0 || patch >= 19)),
    `libsodium ${sodium.SODIUM_VERSION_STRING}: AEGIS needs 1.0.19 or later`);
  differential(sodium, L.AEGIS128L, 'aegis128l', 16);
  differential(sodium, L.AEGIS256, 'aegis256', 32);
});
