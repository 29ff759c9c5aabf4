'use strict';
// age interop with age-encryption (the TypeScript implementation of age by age's author, on the noble
// libraries): whole age files each way, with a passphrase (scrypt) recipient whose stanza and header MAC
// are built and checked here on node:crypto as age-encryption.org/v1 specifies them; the payload is
// AgeEncryptStream's / AgeDecryptStream's, through stream.pipeline in random pieces. Random sizes around
// the 64 KiB chunk boundaries and up to 2 MiB; a bit flipped in the payload is refused by both.
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('crypto');
const { lib, through } = require('./helpers');

const L = lib();
const CASES = Number(process.env.AEAD_NODE_AGE_INTEROP || 40);
const LOG_N = 4;  // a low scrypt work factor: the payload is what is tested
const int = (lo, hi) => lo + crypto.randomInt(hi - lo + 1);
const pick = (a) => a[int(0, a.length - 1)];
const b64 = (b) => Buffer.from(b).toString('base64').replace(/=+$/, '');
const unb64 = (s) => Buffer.from(s, 'base64');
const LABEL = 'age-encryption.org/v1/scrypt';

const wrapKey = (passphrase, salt, logN) =>
  crypto.scryptSync(passphrase, Buffer.concat([Buffer.from(LABEL), salt]), 32, { N: 2 ** logN, r: 8, p: 1 });
const headerMac = (fileKey, header) =>
  crypto.createHmac('sha256', Buffer.from(crypto.hkdfSync('sha256', fileKey, Buffer.alloc(0), 'header', 32))).update(header).digest();

function chacha(key, data, open) {
  const nonce = Buffer.alloc(12);
  if (open) {
    const d = crypto.createDecipheriv('chacha20-poly1305', key, nonce, { authTagLength: 16 });
    d.setAuthTag(data.subarray(data.length - 16));
    return Buffer.concat([d.update(data.subarray(0, data.length - 16)), d.final()]);
  }
  const c = crypto.createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: 16 });
  return Buffer.concat([c.update(data), c.final(), c.getAuthTag()]);
}

// An age file: header (one scrypt stanza wrapping fileKey, then the MAC) and the payload.
function ageHeader(fileKey, passphrase) {
  const salt = crypto.randomBytes(16);
  const body = chacha(wrapKey(passphrase, salt, LOG_N), fileKey, false);
  const head = `age-encryption.org/v1\n-> scrypt ${b64(salt)} ${LOG_N}\n${b64(body)}\n---`;
  return Buffer.from(`${head} ${b64(headerMac(fileKey, head))}\n`);
}

// The file key and the payload of an age file with one scrypt stanza; the header MAC checked.
function parseAge(file, passphrase) {
  const end = file.indexOf('\n---');
  const nl = file.indexOf(10, end + 4);
  const lines = file.subarray(0, end).toString('latin1').split('\n');
  assert.strictEqual(lines[0], 'age-encryption.org/v1');
  const args = lines[1].split(' ');
  assert.deepStrictEqual([args[0], args[1]], ['->', 'scrypt']);
  const fileKey = chacha(wrapKey(passphrase, unb64(args[2]), Number(args[3])), unb64(lines.slice(2).join('')), true);
  const head = file.subarray(0, end + 4).toString('latin1');
  assert.ok(headerMac(fileKey, head).equals(unb64(file.subarray(end + 5, nl).toString('latin1'))), 'header MAC');
  return { fileKey, payload: file.subarray(nl + 1) };
}

const size = () => pick([0, 1, 65535, 65536, 65537, 2 * 65536, int(0, 300000), int(0, 2 << 20)]);

test(`age files, libaead's payload -> age-encryption, and age-encryption -> libaead: ${CASES} each`, async () => {
  const age = await import('age-encryption');
  let disagreements = 0, bytes = 0;
  for (let i = 0; i < CASES; i++) {
    const passphrase = crypto.randomBytes(12).toString('hex');
    const pt = crypto.randomBytes(size());
    bytes += pt.length;
    // libaead -> age-encryption
    const fileKey = crypto.randomBytes(16);
    const file = Buffer.concat([ageHeader(fileKey, passphrase), await through(pt, new L.AgeEncryptStream(fileKey))]);
    const d = new age.Decrypter();
    d.addPassphrase(passphrase);
    const theirs = Buffer.from(await d.decrypt(file));
    if (!theirs.equals(pt)) disagreements++;
    // age-encryption -> libaead
    const e = new age.Encrypter();
    e.setPassphrase(passphrase);
    e.setScryptWorkFactor(LOG_N);
    const sealed = Buffer.from(await e.encrypt(pt));
    const { fileKey: k, payload } = parseAge(sealed, passphrase);
    const ours = await through(payload, new L.AgeDecryptStream(k));
    if (!ours.equals(pt)) disagreements++;
    // A bit flipped in the payload: refused by both.
    if (i % 4 === 0) {
      const f = Buffer.from(sealed);
      const pos = sealed.length - payload.length + int(0, payload.length - 1);
      f[pos] ^= 1 << int(0, 7);
      await assert.rejects(through(f.subarray(sealed.length - payload.length), new L.AgeDecryptStream(k)), L.AuthenticationError);
      const d2 = new age.Decrypter();
      d2.addPassphrase(passphrase);
      await assert.rejects(d2.decrypt(f));
    }
  }
  console.log(`age interop: ${CASES} files each way (${bytes} bytes of plaintext), ${disagreements} disagreements`);
  assert.strictEqual(disagreements, 0);
});
