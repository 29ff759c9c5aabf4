'use strict';
// libaead for Node.js: keyed AEAD objects whose encrypt and decrypt are each one native call into
// libaead's aead_seal_open on the caller's views (Buffer, any TypedArray, DataView, ArrayBuffer).
const crypto = require('crypto');
const { Transform } = require('stream');
const native = require('node-gyp-build')(__dirname);

const SEAL = 1;
const OPEN = 2;
const TAG = 16;

const ALG = {
  AES_128_GCM: 1, AES_192_GCM: 2, AES_256_GCM: 3, CHACHA20_POLY1305: 4,
  AES_128_CCM: 5, AES_192_CCM: 6, AES_256_CCM: 7,
  AES_128_GCM_SIV: 8, AES_192_GCM_SIV: 9, AES_256_GCM_SIV: 10,
  AES_128_OCB: 11, AES_192_OCB: 12, AES_256_OCB: 13,
  XCHACHA20_POLY1305: 14, AES_128_SIV: 15, AES_192_SIV: 16, AES_256_SIV: 17,
  AEGIS_128L: 18, AEGIS_256: 19, AEGIS_128X2: 20, AEGIS_128X4: 21, AEGIS_256X2: 22, AEGIS_256X4: 23,
};
const POLICY = { NONE: 0, TLS12: 1, TLS13: 2, RANDOM_NONCE: 3, QUIC: 4, COUNTER: 7, XOR_COUNTER: 8, SSH: 9 };

const CODE_NAMES = {
  [-1]: 'AEAD_ERR_AUTH', [-2]: 'AEAD_ERR_ARG', [-3]: 'AEAD_ERR_KEY_SIZE', [-4]: 'AEAD_ERR_NONCE_SIZE',
  [-5]: 'AEAD_ERR_TAG_SIZE', [-6]: 'AEAD_ERR_AAD_SIZE', [-7]: 'AEAD_ERR_TOO_LONG',
  [-8]: 'AEAD_ERR_BUFFER_TOO_SMALL', [-9]: 'AEAD_ERR_OVERLAP', [-10]: 'AEAD_ERR_NONCE_ORDER',
  [-11]: 'AEAD_ERR_NONCE_EXHAUSTED', [-12]: 'AEAD_ERR_NONCE_PREFIX', [-13]: 'AEAD_ERR_UNSUPPORTED',
  [-14]: 'AEAD_ERR_NOMEM', [-15]: 'AEAD_ERR_CRYPTO', [-16]: 'AEAD_ERR_NONCE_LIMIT', [-17]: 'AEAD_ERR_FORKED',
  [-18]: 'AEAD_ERR_KEY_LIMIT', [-19]: 'AEAD_ERR_REPLAY', [-20]: 'AEAD_ERR_AAD_MISMATCH', [-21]: 'AEAD_ERR_STREAM_FINISHED',
};

/** Any failure reported by libaead: `code` is the library's name for it, `aeadCode` its number. */
class AeadError extends Error {
  constructor(message, aeadCode) {
    super(message);
    this.name = new.target.name;
    this.aeadCode = aeadCode;
    this.code = CODE_NAMES[aeadCode] || 'AEAD_ERR_UNKNOWN';
  }
}
/** decrypt: the tag did not verify (wrong key, nonce, associated data, or a modified message). */
class AuthenticationError extends AeadError {}
/** A nonce policy refused a seal (TLS/QUIC/counter/SSH sequence reused, exhausted, prefix changed;
 *  random-nonce limit reached; a sequenced context used in a forked child): nothing was written, no
 *  sequence consumed. */
class NonceError extends AeadError {}
/** QUIC: the key's confidentiality or integrity limit (RFC 9001 section 6.6) is reached. */
class KeyLimitError extends AeadError {}
/** The algorithm is not available from the libcrypto this package runs on. */
class UnsupportedAlgorithmError extends AeadError {}

function error(rc, what) {
  const msg = `${what}: ${native.strerror(rc)}`;
  switch (rc) {
    case -1: return new AuthenticationError(msg, rc);
    case -10: case -11: case -12: case -16: case -17: return new NonceError(msg, rc);
    case -18: return new KeyLimitError(msg, rc);
    case -13: return new UnsupportedAlgorithmError(msg, rc);
    case -2: { const e = new TypeError(msg); e.code = CODE_NAMES[rc]; e.aeadCode = rc; return e; }
    case -3: case -4: case -5: case -6: case -7: case -8: case -9: {
      const e = new RangeError(msg); e.code = CODE_NAMES[rc]; e.aeadCode = rc; return e;
    }
    default: return new AeadError(msg, rc);
  }
}

function byteLength(v, name) {
  if (ArrayBuffer.isView(v)) {
    const b = v.buffer;
    if (b.resizable === true || b.growable === true) {
      throw new TypeError(`${name}: views on resizable or growable buffers are not accepted`);
    }
    return v.byteLength;
  }
  if (v instanceof ArrayBuffer) {
    if (v.resizable === true) throw new TypeError(`${name}: resizable ArrayBuffers are not accepted`);
    return v.byteLength;
  }
  throw new TypeError(`${name} must be a Buffer, TypedArray, DataView or ArrayBuffer`);
}

function checkOptional(v, name) {
  if (v !== null && v !== undefined) byteLength(v, name);
}

function checkOffset(out, offset) {
  const n = byteLength(out, 'output');
  if (!Number.isSafeInteger(offset) || offset < 0 || offset > n) {
    throw new RangeError(`offset must be an integer from 0 to ${n}; got ${offset}`);
  }
  return n - offset;
}

function copyKey(key) {
  byteLength(key, 'key');
  return key;
}

// The native handles of one kind (contexts, HPKE contexts, streams) and the JS objects that own them:
// release() frees one now (close); a FinalizationRegistry frees those whose owner was collected without
// it (the native handle's own finalizer is the backstop at a worker's or the process's teardown, where
// FinalizationRegistry callbacks do not run).
class Handles {
  #free;
  #registry;
  constructor(free) {
    this.#free = free;
    this.#registry = new FinalizationRegistry(free);
  }
  /** Ties handle h to owner, to be freed when owner is collected; returns h. */
  own(owner, h) {
    this.#registry.register(owner, h, owner);
    return h;
  }
  /** Frees owner's handle h now (nothing when it is null); returns null, the owner's handle from then on. */
  release(owner, h) {
    if (h !== null) {
      this.#registry.unregister(owner);
      this.#free(h);
    }
    return null;
  }
}

const contexts = new Handles((handle) => native.free(handle));

class Base {
  #h;
  constructor(alg, policy, key, tagLength, iv, what) {
    copyKey(key);
    if (iv !== null && iv !== undefined) byteLength(iv, 'iv');
    const h = native.create(alg, policy, key, tagLength, iv === undefined ? null : iv, null);
    if (typeof h === 'number') throw error(h, what);
    this.#h = contexts.own(this, h);
  }
  /** Frees the native context now; the library cleanses its key material. Later calls throw. */
  close() {
    this.#h = contexts.release(this, this.#h);
  }
  [Symbol.dispose]() { this.close(); }
  get _h() {
    if (this.#h === null) throw new Error(`${this.constructor.name}: closed`);
    return this.#h;
  }
}

// nonce/aad/data -> one native call. Overhead is the tag (or nonce + tag for random nonces).
function seal(obj, nonce, data, aad, overhead, what) {
  const n = byteLength(data, 'data') + overhead;
  if (aad !== null && aad !== undefined) byteLength(aad, 'associated data');
  const out = Buffer.allocUnsafe(n);
  const r = native.sealOpen(obj._h, SEAL, nonce, aad, data, out, 0);
  if (r < 0) throw error(r, what);
  return r === n ? out : out.subarray(0, r);
}

function open(obj, nonce, data, aad, overhead, what) {
  const n = byteLength(data, 'data') - overhead;
  if (aad !== null && aad !== undefined) byteLength(aad, 'associated data');
  // Shorter than the overhead: the library's answer is AEAD_ERR_AUTH (after checking every argument).
  const out = Buffer.allocUnsafe(n < 0 ? 0 : n);
  const r = native.sealOpen(obj._h, OPEN, nonce, aad, data, out, 0);
  if (r < 0) throw error(r, what);
  return r === n ? out : out.subarray(0, r);
}

function into(obj, op, nonce, data, aad, out, offset, what) {
  byteLength(data, 'data');
  checkOptional(aad, 'associated data');
  checkOffset(out, offset);
  const r = native.sealOpen(obj._h, op, nonce, aad, data, out, offset);
  if (r < 0) throw error(r, what);
  return r;
}

function many(obj, op, nonces, datas, aads, overhead, what) {
  if (!Array.isArray(datas)) throw new TypeError('datas must be an array');
  const count = datas.length;
  if (nonces !== null && (!Array.isArray(nonces) || nonces.length !== count)) {
    throw new TypeError('nonces must be an array as long as datas');
  }
  if (aads !== null && aads !== undefined && (!Array.isArray(aads) || aads.length !== count)) {
    throw new TypeError('associated datas must be an array as long as datas, or null');
  }
  const outs = new Array(count);
  for (let i = 0; i < count; i++) {
    const n = byteLength(datas[i], `datas[${i}]`) + (op === SEAL ? overhead : -overhead);
    if (nonces !== null) byteLength(nonces[i], `nonces[${i}]`);
    if (aads) checkOptional(aads[i], `associated datas[${i}]`);
    outs[i] = Buffer.allocUnsafe(Math.max(n, 0));
  }
  const results = new Float64Array(count);
  const rc = native.sealOpenMany(obj._h, op, nonces, aads === undefined ? null : aads, datas, outs, results);
  if (rc < 0) throw error(rc, what);
  for (let i = 0; i < count; i++) {
    if (results[i] < 0) {
      const e = error(results[i], `${what}: record ${i}`);
      e.index = i;
      throw e;
    }
    if (results[i] !== outs[i].length) outs[i] = outs[i].subarray(0, results[i]);
  }
  return outs;
}

// A key length refused in JavaScript: the RangeError the library's AEAD_ERR_KEY_SIZE would give.
function keySizeError(message) {
  return Object.assign(new RangeError(message), { code: 'AEAD_ERR_KEY_SIZE', aeadCode: -3 });
}

function aesAlg(key, algs, what) {
  const n = byteLength(key, 'key');
  const i = [16, 24, 32].indexOf(n);
  if (i < 0) throw keySizeError(`${what}: key must be 16, 24 or 32 bytes; got ${n}`);
  return algs[i];
}

/** AES-128 or AES-256 only (QUIC, SSH): the algorithm for a 16- or 32-byte key. */
function aes128or256(key, algs, what) {
  const n = byteLength(key, 'key');
  if (n !== 16 && n !== 32) throw keySizeError(`${what}: key must be 16 or 32 bytes; got ${n}`);
  return n === 16 ? algs[0] : algs[1];
}

function generateAesKey(bits) {
  if (bits !== 128 && bits !== 192 && bits !== 256) throw new RangeError('bitLength must be 128, 192 or 256');
  return crypto.randomBytes(bits / 8);
}

/** Nonce-taking AEAD: encrypt(nonce, data, aad) / decrypt(nonce, data, aad), as pyca/cryptography. */
class NonceAEAD extends Base {
  #tag;
  constructor(alg, policy, key, tagLength, iv, what) {
    if (!Number.isInteger(tagLength)) throw new TypeError(`${what}: tagLength must be an integer`);
    super(alg, policy, key, tagLength, iv, what);
    this.#tag = tagLength === 0 ? TAG : tagLength;
  }
  get tagLength() { return this.#tag; }
  encrypt(nonce, data, associatedData) { return seal(this, nonce, data, associatedData, this.#tag, `${this.constructor.name}.encrypt`); }
  decrypt(nonce, data, associatedData) { return open(this, nonce, data, associatedData, this.#tag, `${this.constructor.name}.decrypt`); }
  encryptInto(nonce, data, associatedData, out, offset = 0) {
    return into(this, SEAL, nonce, data, associatedData, out, offset, `${this.constructor.name}.encryptInto`);
  }
  decryptInto(nonce, data, associatedData, out, offset = 0) {
    return into(this, OPEN, nonce, data, associatedData, out, offset, `${this.constructor.name}.decryptInto`);
  }
  encryptMany(nonces, datas, associatedDatas = null) {
    return many(this, SEAL, nonces, datas, associatedDatas, this.#tag, `${this.constructor.name}.encryptMany`);
  }
  decryptMany(nonces, datas, associatedDatas = null) {
    return many(this, OPEN, nonces, datas, associatedDatas, this.#tag, `${this.constructor.name}.decryptMany`);
  }
}

/** The nonce-taking classes without a nonce policy also run in libuv's thread pool: encryptAsync /
 *  decryptAsync copy the inputs (the caller may reuse them at once), seal or open off the main thread
 *  and resolve to a new Buffer. (The TLS and QUIC classes have none: their sequence checks depend on
 *  the order of the calls, which the thread pool does not keep.) */
class PlainAEAD extends NonceAEAD {
  async encryptAsync(nonce, data, associatedData) {
    return asyncCall(this, SEAL, nonce, data, associatedData, this.tagLength, `${this.constructor.name}.encryptAsync`);
  }
  async decryptAsync(nonce, data, associatedData) {
    return asyncCall(this, OPEN, nonce, data, associatedData, -this.tagLength, `${this.constructor.name}.decryptAsync`);
  }
}

async function asyncCall(obj, op, nonce, data, aad, delta, what) {
  const n = byteLength(data, 'data') + delta;
  checkOptional(aad, 'associated data');
  const out = Buffer.allocUnsafeSlow(n < 0 ? 0 : n);
  const r = await native.sealOpenAsync(obj._h, op, nonce, aad, data, out);
  if (r < 0) throw error(r, what);
  return r === out.length ? out : out.subarray(0, r);
}

/** AES-GCM; tagLength 16 by default (also 4, 8, 12..15, SP 800-38D); nonce 1..128 bytes. */
class AESGCM extends PlainAEAD {
  constructor(key, tagLength = 16) { super(aesAlg(key, [1, 2, 3], 'AESGCM'), POLICY.NONE, key, tagLength, null, 'AESGCM'); }
  static generateKey(bitLength) { return generateAesKey(bitLength); }
}
class ChaCha20Poly1305 extends PlainAEAD {
  constructor(key) { super(ALG.CHACHA20_POLY1305, POLICY.NONE, key, 16, null, 'ChaCha20Poly1305'); }
  static generateKey() { return crypto.randomBytes(32); }
}
/** AES-CCM; tagLength 4, 6, ..., 16 (default 16); nonce 7..13 bytes. */
class AESCCM extends PlainAEAD {
  constructor(key, tagLength = 16) { super(aesAlg(key, [5, 6, 7], 'AESCCM'), POLICY.NONE, key, tagLength, null, 'AESCCM'); }
  static generateKey(bitLength) { return generateAesKey(bitLength); }
}
class AESGCMSIV extends PlainAEAD {
  constructor(key) { super(aesAlg(key, [8, 9, 10], 'AESGCMSIV'), POLICY.NONE, key, 16, null, 'AESGCMSIV'); }
  static generateKey(bitLength) { return generateAesKey(bitLength); }
}
class AESOCB3 extends PlainAEAD {
  constructor(key) { super(aesAlg(key, [11, 12, 13], 'AESOCB3'), POLICY.NONE, key, 16, null, 'AESOCB3'); }
  static generateKey(bitLength) { return generateAesKey(bitLength); }
}
class XChaCha20Poly1305 extends PlainAEAD {
  constructor(key) { super(ALG.XCHACHA20_POLY1305, POLICY.NONE, key, 16, null, 'XChaCha20Poly1305'); }
  static generateKey() { return crypto.randomBytes(32); }
}

/** TLS record protection: encrypt's nonces are checked against the policy inside the library
 *  (a reused or lower sequence number is a NonceError); decrypt checks no order. */
class AESGCMForTLS12 extends NonceAEAD {
  constructor(key, iv = null) { super(aesAlg(key, [1, 2, 3], 'AESGCMForTLS12'), POLICY.TLS12, key, 16, iv, 'AESGCMForTLS12'); }
}
class AESGCMForTLS13 extends NonceAEAD {
  constructor(key, iv = null) { super(aesAlg(key, [1, 2, 3], 'AESGCMForTLS13'), POLICY.TLS13, key, 16, iv, 'AESGCMForTLS13'); }
}
class ChaCha20Poly1305ForTLS12 extends NonceAEAD {
  constructor(key, iv = null) { super(ALG.CHACHA20_POLY1305, POLICY.TLS12, key, 16, iv, 'ChaCha20Poly1305ForTLS12'); }
}
class ChaCha20Poly1305ForTLS13 extends NonceAEAD {
  constructor(key, iv = null) { super(ALG.CHACHA20_POLY1305, POLICY.TLS13, key, 16, iv, 'ChaCha20Poly1305ForTLS13'); }
}

/** Counter nonces for any protocol (Go's NewGCMWithCounterNonce): nonce = fixed(4) || BE64(start + n),
 *  n strictly increasing from 0 (gaps allowed), never back to the start. iv: null (learned from the
 *  first encryption) or fixed || BE64(start). Any AAD. */
class AESGCMCounterNonce extends NonceAEAD {
  constructor(key, iv = null) { super(aesAlg(key, [1, 2, 3], 'AESGCMCounterNonce'), POLICY.COUNTER, key, 16, iv, 'AESGCMCounterNonce'); }
}
/** XOR-counter nonces (Go's NewGCMWithXORCounterNonce): nonce = fixed(4) || BE64(mask XOR n), n from 0
 *  strictly increasing. iv: null (learned from the first encryption, n = 0) or fixed || mask. Any AAD. */
class AESGCMXORCounterNonce extends NonceAEAD {
  constructor(key, iv = null) { super(aesAlg(key, [1, 2, 3], 'AESGCMXORCounterNonce'), POLICY.XOR_COUNTER, key, 16, iv, 'AESGCMXORCounterNonce'); }
}
/** AES-GCM in SSH (RFC 5647; Go's NewGCMForSSH): the counter rules of AESGCMCounterNonce, AES-128 or
 *  AES-256, AAD exactly 4 bytes (the packet length). iv: the key exchange's 12-byte initial IV, or null. */
class AESGCMForSSH extends NonceAEAD {
  constructor(key, iv = null) { super(aes128or256(key, [ALG.AES_128_GCM, ALG.AES_256_GCM], 'AESGCMForSSH'), POLICY.SSH, key, 16, iv, 'AESGCMForSSH'); }
}

/** Random-nonce AEAD: the library draws each nonce; encrypt(data, aad) returns nonce || ciphertext || tag. */
class RandomNonceAEAD extends Base {
  #overhead;
  #tag;
  constructor(alg, key, nonceSize, what, tagLength = TAG) {
    if (!Number.isInteger(tagLength)) throw new TypeError(`${what}: tagLength must be an integer`);
    super(alg, POLICY.RANDOM_NONCE, key, tagLength, null, what);
    this.#tag = tagLength === 0 ? TAG : tagLength;
    this.#overhead = nonceSize + this.#tag;
  }
  get tagLength() { return this.#tag; }
  get overhead() { return this.#overhead; }
  encrypt(data, associatedData) { return seal(this, null, data, associatedData, this.#overhead, `${this.constructor.name}.encrypt`); }
  decrypt(data, associatedData) { return open(this, null, data, associatedData, this.#overhead, `${this.constructor.name}.decrypt`); }
  encryptInto(data, associatedData, out, offset = 0) {
    return into(this, SEAL, null, data, associatedData, out, offset, `${this.constructor.name}.encryptInto`);
  }
  decryptInto(data, associatedData, out, offset = 0) {
    return into(this, OPEN, null, data, associatedData, out, offset, `${this.constructor.name}.decryptInto`);
  }
}
class AESGCMRandomNonce extends RandomNonceAEAD {
  constructor(key) { super(aesAlg(key, [1, 2, 3], 'AESGCMRandomNonce'), key, 12, 'AESGCMRandomNonce'); }
}
class XChaCha20Poly1305RandomNonce extends RandomNonceAEAD {
  constructor(key) { super(ALG.XCHACHA20_POLY1305, key, 24, 'XChaCha20Poly1305RandomNonce'); }
}

/** AEGIS (RFC 10032; on libaegis inside libaead, not on libcrypto): per variant a class taking the caller's
 *  nonce (AEGIS128L, ...) and one drawing it (AEGIS128LRandomNonce, ...). Key and nonce are 16 bytes
 *  (AEGIS-128L, -128X2, -128X4) or 32 (AEGIS-256, -256X2, -256X4); tagLength 16 (default) or 32. */
function aegisClasses(name, alg, keySize) {
  const randomName = `${name}RandomNonce`;
  return {
    [name]: class extends PlainAEAD {
      constructor(key, tagLength = TAG) { super(alg, POLICY.NONE, key, tagLength, null, name); }
      static generateKey() { return crypto.randomBytes(keySize); }
    },
    [randomName]: class extends RandomNonceAEAD {
      constructor(key, tagLength = TAG) { super(alg, key, keySize, randomName, tagLength); }
      static generateKey() { return crypto.randomBytes(keySize); }
    },
  };
}
const { AEGIS128L, AEGIS128LRandomNonce } = aegisClasses('AEGIS128L', ALG.AEGIS_128L, 16);
const { AEGIS256, AEGIS256RandomNonce } = aegisClasses('AEGIS256', ALG.AEGIS_256, 32);
const { AEGIS128X2, AEGIS128X2RandomNonce } = aegisClasses('AEGIS128X2', ALG.AEGIS_128X2, 16);
const { AEGIS128X4, AEGIS128X4RandomNonce } = aegisClasses('AEGIS128X4', ALG.AEGIS_128X4, 16);
const { AEGIS256X2, AEGIS256X2RandomNonce } = aegisClasses('AEGIS256X2', ALG.AEGIS_256X2, 32);
const { AEGIS256X4, AEGIS256X4RandomNonce } = aegisClasses('AEGIS256X4', ALG.AEGIS_256X4, 32);

/** QUIC packet protection (RFC 9001): nonce = iv XOR packet number, checked to increase on encrypt. */
class QuicAEAD extends Base {
  #iv;
  #nonce = Buffer.alloc(12);
  constructor(alg, key, iv, what) {
    if (byteLength(iv, 'iv') !== 12) throw new RangeError(`${what}: iv must be 12 bytes`);
    super(alg, POLICY.QUIC, key, 16, iv, what);
    this.#iv = Buffer.from(iv instanceof ArrayBuffer ? new Uint8Array(iv) : new Uint8Array(iv.buffer, iv.byteOffset, iv.byteLength));
  }
  #nonceFor(packetNumber) {
    const pn = BigInt(packetNumber);
    if (pn < 0n || pn >= (1n << 62n)) throw new RangeError('packetNumber must be from 0 to 2^62-1');
    this.#iv.copy(this.#nonce);
    this.#nonce.writeBigUInt64BE(this.#nonce.readBigUInt64BE(4) ^ pn, 4);
    return this.#nonce;
  }
  encrypt(data, associatedData, packetNumber) {
    return seal(this, this.#nonceFor(packetNumber), data, associatedData, TAG, `${this.constructor.name}.encrypt`);
  }
  decrypt(data, associatedData, packetNumber) {
    return open(this, this.#nonceFor(packetNumber), data, associatedData, TAG, `${this.constructor.name}.decrypt`);
  }
}
class AESGCMForQUIC extends QuicAEAD {
  constructor(key, iv) { super(aes128or256(key, [ALG.AES_128_GCM, ALG.AES_256_GCM], 'AESGCMForQUIC'), key, iv, 'AESGCMForQUIC'); }
}
class ChaCha20Poly1305ForQUIC extends QuicAEAD {
  constructor(key, iv) { super(ALG.CHACHA20_POLY1305, key, iv, 'ChaCha20Poly1305ForQUIC'); }
}

/** AES-SIV (RFC 5297), pyca's shape: encrypt(data, associatedData: array of views | null) returns
 *  SIV(16) || ciphertext; deterministic (no nonce; pass one as the last component for nonce-based use). */
class AESSIV extends Base {
  constructor(key) {
    const n = byteLength(key, 'key');
    const i = [32, 48, 64].indexOf(n);
    if (i < 0) throw keySizeError(`AESSIV: key must be 32, 48 or 64 bytes; got ${n}`);
    super([15, 16, 17][i], POLICY.NONE, key, 16, null, 'AESSIV');
  }
  encrypt(data, associatedData = null) { return this.#call(SEAL, data, associatedData, 'AESSIV.encrypt'); }
  /** RFC 5297 section 6's AEAD form (AEAD_AES_SIV_CMAC_*): S2V over [associatedData, nonce]; output
   *  SIV(16) || ciphertext. An empty or null nonce is deterministic SIV over [associatedData]. */
  encryptWithNonce(nonce, data, associatedData) {
    return seal(this, nonce, data, associatedData, TAG, 'AESSIV.encryptWithNonce');
  }
  decryptWithNonce(nonce, data, associatedData) {
    return open(this, nonce, data, associatedData, TAG, 'AESSIV.decryptWithNonce');
  }
  decrypt(data, associatedData = null) { return this.#call(OPEN, data, associatedData, 'AESSIV.decrypt'); }
  #call(op, data, aad, what) {
    if (aad !== null && aad !== undefined) {
      if (!Array.isArray(aad)) throw new TypeError(`${what}: associatedData must be an array of views or null`);
      aad.forEach((c, i) => byteLength(c, `associatedData[${i}]`));
    }
    const n = byteLength(data, 'data') + (op === SEAL ? TAG : -TAG);
    const out = Buffer.allocUnsafe(n < 0 ? 0 : n);
    const r = native.sealOpenV(this._h, op, null, aad === undefined ? null : aad, data, out, 0);
    if (r < 0) throw error(r, what);
    return r === n ? out : out.subarray(0, r);
  }
  static generateKey(bitLength) {
    if (bitLength !== 256 && bitLength !== 384 && bitLength !== 512) throw new RangeError('bitLength must be 256, 384 or 512');
    return crypto.randomBytes(bitLength / 8);
  }
}

// ---------------------------------------------------------------------------------------------------
// HPKE (RFC 9180; library 1.6): @hpke/core's shape, synchronous, keys as bytes.

/** RFC 9180's identifiers (section 7) and draft-ietf-hpke-pq's post-quantum KEMs and one-stage KDFs, with
 *  @hpke/core's names (MlKem768P256 and MlKem1024P384, which @hpke/core does not have, named alike). */
const Mode = Object.freeze({ Base: 0, Psk: 1, Auth: 2, AuthPsk: 3 });
const KemId = Object.freeze({
  DhkemP256HkdfSha256: 0x0010, DhkemP384HkdfSha384: 0x0011, DhkemP521HkdfSha512: 0x0012,
  DhkemX25519HkdfSha256: 0x0020, DhkemX448HkdfSha512: 0x0021,
  MlKem512: 0x0040, MlKem768: 0x0041, MlKem1024: 0x0042, MlKem768P256: 0x0050, MlKem1024P384: 0x0051,
  XWing: 0x647a,
});
const KdfId = Object.freeze({
  HkdfSha256: 0x0001, HkdfSha384: 0x0002, HkdfSha512: 0x0003,
  Shake128: 0x0010, Shake256: 0x0011, TurboShake128: 0x0012, TurboShake256: 0x0013,
});
const AeadId = Object.freeze({ Aes128Gcm: 0x0001, Aes256Gcm: 0x0002, Chacha20Poly1305: 0x0003, ExportOnly: 0xffff });
const HPKE_MAX_SEQUENCE = (1n << 64n) - 2n;

/** HPKE openAt: the sequence number was already opened on this context, or is left of its replay window
 *  (AEAD_ERR_REPLAY). Nothing was decrypted. An AuthenticationError, so code that drops messages that
 *  do not open drops these too. */
class ReplayError extends AuthenticationError {}

function hpkeError(rc, what) {
  if (rc === -19) return new ReplayError(`${what}: ${native.strerror(rc)}`, rc);
  const e = error(rc, what);
  if (rc === -2) {
    e.message = `${what}: invalid argument (a key that is not one of the KEM's: a point off the curve or ` +
      'not uncompressed, a private key of 0 or not below the order, an all-zero X25519 / X448 shared secret, ' +
      'an ML-KEM key failing FIPS 203\'s modulus check; psk without psk id; an auth mode with a post-quantum KEM; ' +
      'or a call this context\'s suite or side does not have)';
  }
  return e;
}

const idNames = (ids) => new Map(Object.entries(ids).map(([k, v]) => [v, k]));
const KEM_NAMES = idNames(KemId);
const KDF_NAMES = idNames(KdfId);
const AEAD_NAMES = idNames(AeadId);

function optBytes(v, name) {
  if (v === null || v === undefined) return null;
  byteLength(v, name);
  return v;
}

/** A KEM of a suite (@hpke/core's suite.kem): sizes and key pairs, serialised as RFC 9180 does. */
class Kem {
  #id;
  constructor(id) {
    if (!KEM_NAMES.has(id)) throw new UnsupportedAlgorithmError(`CipherSuite: unknown KEM id ${id}`, -13);
    const [enc, pk, sk] = native.hpkeSizes(id);
    this.#id = id;
    this.encSize = enc;
    this.publicKeySize = pk;
    this.privateKeySize = sk;
    Object.freeze(this);
  }
  get id() { return this.#id; }
  #pair(call, what) {
    const privateKey = Buffer.alloc(this.privateKeySize);
    const publicKey = Buffer.alloc(this.publicKeySize);
    const rc = call(privateKey, publicKey);
    if (rc !== 0) throw hpkeError(rc, what);
    return { privateKey, publicKey };
  }
  /** A fresh key pair from libcrypto's DRBG: { privateKey, publicKey } as Buffers. */
  generateKeyPair() {
    return this.#pair((sk, pk) => native.hpkeKeys(0, this.#id, null, sk, pk), 'Kem.generateKeyPair');
  }
  /** DeriveKeyPair(ikm) (RFC 9180 section 7.1.3); ikm should be at least privateKeySize bytes. */
  deriveKeyPair(ikm) {
    byteLength(ikm, 'ikm');
    return this.#pair((sk, pk) => native.hpkeKeys(1, this.#id, ikm, sk, pk), 'Kem.deriveKeyPair');
  }
  /** The public key of a private key. */
  publicKeyOf(privateKey) {
    byteLength(privateKey, 'privateKey');
    const pk = Buffer.alloc(this.publicKeySize);
    const rc = native.hpkeKeys(2, this.#id, privateKey, null, pk);
    if (rc !== 0) throw hpkeError(rc, 'Kem.publicKeyOf');
    return pk;
  }
}

const hpkeContexts = new Handles((handle) => native.hpkeFree(handle));
const seqOut = new BigUint64Array(1);

/** What a sender's and a recipient's context share: export, share, close. */
class HpkeContext {
  #h;
  #suite;
  /** @internal */
  constructor(handle, suite) {
    this.#h = hpkeContexts.own(this, handle);
    this.#suite = suite;
  }
  get suite() { return this.#suite; }
  get _h() {
    if (this.#h === null) throw new Error(`${this.constructor.name}: closed`);
    return this.#h;
  }
  /** The secret export interface (RFC 9180 section 5.3): length bytes bound to this context and
   *  exporterContext (at most 960 bytes); the same on both sides. */
  export(exporterContext, length) {
    byteLength(exporterContext, 'exporterContext');
    if (!Number.isSafeInteger(length) || length < 0) throw new RangeError('length must be a non-negative integer');
    const out = Buffer.alloc(length);
    const rc = native.hpkeExport(this._h, exporterContext, out);
    if (rc !== 0) throw hpkeError(rc, `${this.constructor.name}.export`);
    return out;
  }
  /** A description of this context that another worker_threads Worker of this process turns into its own
   *  handle on the same native context (fromShared): post it to the Worker. Sealing from several threads
   *  gives each message its own sequence number. The context lives until every thread's handle is closed. */
  share() {
    const token = native.hpkeShare(this._h, crypto.randomBytes(16));
    const s = this.#suite;
    return { token: new Uint8Array(token), sender: this instanceof SenderContext, kem: s.kem.id, kdf: s.kdf.id, aead: s.aead.id };
  }
  /** The context described by share() in another thread of this process, as a SenderContext or a
   *  RecipientContext; throws if every handle on it was closed meanwhile. */
  static fromShared(shared) {
    if (shared === null || typeof shared !== 'object') throw new TypeError('fromShared: expected what share() returned');
    const h = native.hpkeAdopt(shared.token);
    if (h === null) throw new Error('fromShared: no such context (every handle on it was closed or collected)');
    const suite = new CipherSuite({ kem: shared.kem, kdf: shared.kdf, aead: shared.aead });
    const ctx = new (shared.sender ? SenderContext : RecipientContext)(h, suite);
    if (!(ctx instanceof this)) {
      ctx.close();
      throw new TypeError(`fromShared: a ${ctx.constructor.name}'s description`);
    }
    return ctx;
  }
  /** Releases this thread's handle now; the library frees the context and cleanses its secrets when no
   *  other thread holds it. Later calls throw. */
  close() {
    this.#h = hpkeContexts.release(this, this.#h);
  }
  [Symbol.dispose]() { this.close(); }
}

/** A sender's context (ContextS): seal, export. enc is the encapsulated key to send. */
class SenderContext extends HpkeContext {
  /** @internal */
  constructor(handle, suite, enc = null) {
    super(handle, suite);
    this.enc = enc;
  }
  /** ContextS.Seal under the context's next sequence number: ciphertext || tag (16 bytes longer). */
  seal(data, aad) { return this.#seal(data, aad, null, 'SenderContext.seal'); }
  /** seal, and the sequence number (a bigint) it used. */
  sealWithSequence(data, aad) {
    const ct = this.#seal(data, aad, seqOut, 'SenderContext.sealWithSequence');
    return { sequence: seqOut[0], ct };
  }
  #seal(data, aad, seq, what) {
    const out = Buffer.allocUnsafe(byteLength(data, 'data') + TAG);
    checkOptional(aad, 'aad');
    const r = native.hpkeSeal(this._h, aad, data, out, seq);
    if (r < 0) throw hpkeError(r, what);
    return out;
  }
}

/** A recipient's context (ContextR): open in order, openAt by number, export. */
class RecipientContext extends HpkeContext {
  /** ContextR.Open: the next message in order (sequence 0, 1, ...). A message out of order, modified or
   *  under other AAD throws AuthenticationError (the output is never returned). */
  open(data, aad) {
    return this.#open((out) => native.hpkeOpen(this._h, aad, data, out), data, aad, 'RecipientContext.open');
  }
  /** Opens the message sealed under sequence number seq (number or bigint), for protocols that carry
   *  it, through the context's replay window: a number already opened or left of it is a ReplayError. */
  openAt(seq, data, aad) {
    const s = BigInt(seq);
    if (s < 0n || s >= (1n << 64n)) throw new RangeError('seq must be from 0 to 2^64-1');
    return this.#open((out) => native.hpkeOpenAt(this._h, s, aad, data, out), data, aad, 'RecipientContext.openAt');
  }
  #open(call, data, aad, what) {
    const n = byteLength(data, 'data') - TAG;
    checkOptional(aad, 'aad');
    const out = Buffer.allocUnsafe(n < 0 ? 0 : n);
    const r = call(out);
    if (r < 0) throw hpkeError(r, what);
    return out;
  }
}

// psk: { id, key } as @hpke/core (both non-empty), or undefined.
function mode(params, authKey) {
  const psk = params.psk;
  if (psk !== undefined && psk !== null && (typeof psk !== 'object' || psk.id === undefined || psk.key === undefined)) {
    throw new TypeError('psk must be { id, key }');
  }
  const hasPsk = psk !== undefined && psk !== null;
  const auth = authKey !== undefined && authKey !== null;
  return hasPsk ? (auth ? Mode.AuthPsk : Mode.Psk) : (auth ? Mode.Auth : Mode.Base);
}

/** An HPKE cipher suite (@hpke/core's CipherSuite, synchronous): new CipherSuite({ kem, kdf, aead })
 *  with the ids of KemId, KdfId and AeadId. */
class CipherSuite {
  #kem;
  #kdf;
  #aead;
  constructor({ kem, kdf, aead } = {}) {
    if (!KDF_NAMES.has(kdf)) throw new UnsupportedAlgorithmError(`CipherSuite: unknown KDF id ${kdf}`, -13);
    if (!AEAD_NAMES.has(aead)) throw new UnsupportedAlgorithmError(`CipherSuite: unknown AEAD id ${aead}`, -13);
    this.#kem = new Kem(kem);
    this.#kdf = Object.freeze({ id: kdf });
    this.#aead = Object.freeze({ id: aead });
  }
  get kem() { return this.#kem; }
  get kdf() { return this.#kdf; }
  get aead() { return this.#aead; }
  toString() { return `CipherSuite(${KEM_NAMES.get(this.#kem.id)}, ${KDF_NAMES.get(this.#kdf.id)}, ${AEAD_NAMES.get(this.#aead.id)})`; }
  /** The key schedule's first eight addon arguments. */
  #params(params, authKey, last) {
    const psk = params.psk;
    const hasPsk = psk !== undefined && psk !== null;
    return [this.#kem.id, this.#kdf.id, this.#aead.id, mode(params, authKey), optBytes(params.info, 'info'),
      hasPsk ? optBytes(psk.key, 'psk.key') : null, hasPsk ? optBytes(psk.id, 'psk.id') : null, last];
  }
  #window(params) {
    const w = params.window === undefined ? 0 : params.window;
    if (!Number.isInteger(w) || w < 0 || w > 4096) throw new RangeError('window must be 0 (64) or a multiple of 64 up to 4096');
    return w;
  }
  /** SetupBaseS / SetupPSKS / SetupAuthS / SetupAuthPSKS, the mode from the parameters:
   *  { recipientPublicKey, senderKey?, info?, psk?: { id, key }, ekm? }. ekm: DeriveKeyPair input of the
   *  ephemeral key, for known-answer tests only (an ephemeral key used twice breaks HPKE's security). */
  createSenderContext(params) {
    const p = params || {};
    byteLength(p.recipientPublicKey, 'recipientPublicKey');
    const enc = Buffer.alloc(this.#kem.encSize);
    const h = native.hpkeSetupSender(...this.#params(p, p.senderKey, optBytes(p.ekm, 'ekm')),
      p.recipientPublicKey, optBytes(p.senderKey, 'senderKey'), enc);
    if (typeof h === 'number') throw hpkeError(h, 'CipherSuite.createSenderContext');
    return new SenderContext(h, this, enc);
  }
  /** SetupBaseR / ... : { recipientKey, enc, senderPublicKey?, info?, psk?, window? } (window: the replay
   *  window of openAt, in messages: 0 means 64, else a multiple of 64 up to 4096). */
  createRecipientContext(params) {
    const p = params || {};
    byteLength(p.enc, 'enc');
    byteLength(p.recipientKey, 'recipientKey');
    const h = native.hpkeSetupRecipient(...this.#params(p, p.senderPublicKey, this.#window(p)),
      p.enc, p.recipientKey, optBytes(p.senderPublicKey, 'senderPublicKey'));
    if (typeof h === 'number') throw hpkeError(h, 'CipherSuite.createRecipientContext');
    return new RecipientContext(h, this);
  }
  /** Single-shot seal (RFC 9180 section 6): the sender's parameters, one message: { enc, ct }. */
  seal(params, data, aad) {
    const p = params || {};
    byteLength(p.recipientPublicKey, 'recipientPublicKey');
    const n = byteLength(data, 'data') + TAG;
    const enc = Buffer.alloc(this.#kem.encSize);
    const ct = Buffer.allocUnsafe(n);
    const r = native.hpkeSealSingle(...this.#params(p, p.senderKey, optBytes(p.ekm, 'ekm')),
      p.recipientPublicKey, optBytes(p.senderKey, 'senderKey'), enc, optBytes(aad, 'aad'), data, ct);
    if (r < 0) throw hpkeError(r, 'CipherSuite.seal');
    return { enc, ct };
  }
  /** Single-shot open: the recipient's parameters, one message (sequence 0): the plaintext. */
  open(params, data, aad) {
    const p = params || {};
    byteLength(p.enc, 'enc');
    byteLength(p.recipientKey, 'recipientKey');
    const n = byteLength(data, 'data') - TAG;
    const out = Buffer.allocUnsafe(n < 0 ? 0 : n);
    const r = native.hpkeOpenSingle(...this.#params(p, p.senderPublicKey, 0), p.enc, p.recipientKey,
      optBytes(p.senderPublicKey, 'senderPublicKey'), optBytes(aad, 'aad'), data, out);
    if (r < 0) throw hpkeError(r, 'CipherSuite.open');
    return out;
  }
}

// ---------------------------------------------------------------------------------------------------
// Streaming AEAD (library 1.7): Transform streams for Tink's AES-GCM-HKDF streaming, age's payload and
// RFC 8188's aes128gcm. The library numbers the segments and marks the last; these classes cut the
// bytes into segments: a writer holds back the last full segment until the end so that the final
// segment carries data, a reader keeps one segment plus one byte so that it knows which is the last.

const STREAM = { TINK: 1, AGE: 2, RFC8188: 3 };
const HKDF_HASH = { SHA1: 1, SHA256: 2, SHA512: 3 };
const STREAM_MAX_HEADER = 276;
const streams = new Handles((handle) => native.streamFree(handle));

function u32(v, name, dflt) {
  if (v === undefined || v === null) return dflt;
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new RangeError(`${name} must be an integer from 0 to 2^32-1; got ${v}`);
  return v;
}

// The addon's first eight arguments for a format and the caller's options.
function streamParams(format, key, o, what) {
  byteLength(key, 'key');
  if (o !== undefined && o !== null && typeof o !== 'object') throw new TypeError(`${what}: options must be an object`);
  const opts = o || {};
  if (format === STREAM.TINK) {
    const keySize = opts.keySize === undefined ? 16 : opts.keySize;
    if (keySize !== 16 && keySize !== 32) throw keySizeError(`${what}: keySize must be 16 or 32; got ${keySize}`);
    const hash = HKDF_HASH[String(opts.hkdfHash === undefined ? 'SHA256' : opts.hkdfHash).toUpperCase().replace('-', '')];
    if (hash === undefined) throw new TypeError(`${what}: hkdfHash must be 'SHA1', 'SHA256' or 'SHA512'`);
    return [format, key, keySize, hash, u32(opts.segmentSize, 'segmentSize', 4096),
      u32(opts.firstSegmentOffset, 'firstSegmentOffset', 0), optBytes(opts.associatedData, 'associatedData'), null];
  }
  if (format === STREAM.AGE) return [format, key, 0, 0, 0, 0, null, null];
  let keyid = opts.keyid === undefined || opts.keyid === null ? null : opts.keyid;
  if (typeof keyid === 'string') keyid = Buffer.from(keyid, 'utf8');
  return [format, key, 0, 0, u32(opts.rs, 'rs', u32(opts.maxRecordSize, 'maxRecordSize', 0)), 0, null, optBytes(keyid, 'keyid')];
}

// Buffered bytes as a list of chunks: take(n) returns the first n as one Buffer (a view when it can).
class ByteQueue {
  #chunks = [];
  length = 0;
  push(b) {
    if (b.length === 0) return;
    this.#chunks.push(b);
    this.length += b.length;
  }
  take(n) {
    this.length -= n;
    const first = this.#chunks[0];
    if (first !== undefined && first.length >= n) {
      if (first.length === n) this.#chunks.shift();
      else this.#chunks[0] = first.subarray(n);
      return first.subarray(0, n);
    }
    const out = Buffer.allocUnsafe(n);
    let off = 0;
    while (off < n) {
      const c = this.#chunks[0];
      const k = Math.min(c.length, n - off);
      c.copy(out, off, 0, k);
      off += k;
      if (k === c.length) this.#chunks.shift();
      else this.#chunks[0] = c.subarray(k);
    }
    return out;
  }
  peek(n) {  // the first n bytes (n <= length) without taking them
    const first = this.#chunks[0];
    if (first !== undefined && first.length >= n) return first.subarray(0, n);
    return Buffer.concat(this.#chunks, n);
  }
}

// The segmenting both directions share: write(bytes) and end() return the output Buffers; a failure
// throws (AuthenticationError for a stream that does not open) and the native stream is freed.
class StreamCore {
  #h = null;
  #q = new ByteQueue();
  #index = 0;
  #overhead = 0;
  #what;
  header = null;
  constructor(what) { this.#what = what; }
  attach(handle, header) {
    this.#h = streams.own(this, handle);
    const [, overhead] = native.streamInfo(handle, 0);
    this.#overhead = overhead;
    this.header = header;
  }
  get attached() { return this.#h !== null; }
  get queue() { return this.#q; }
  get overhead() { return this.#overhead; }
  segmentSize() { return native.streamInfo(this.#h, this.#index)[0]; }
  fail(rc, what) {
    this.free();
    return error(rc, `${this.#what}${what ? `: ${what}` : ''}`);
  }
  seal(data, pad, final) {
    // An RFC 8188 record that is not the last is padded to rs.
    const n = data.length + pad + this.#overhead;
    const out = Buffer.allocUnsafe(final ? n : Math.max(n, this.segmentSize()));
    const r = native.streamSeal(this.#h, data, pad, final, out);
    if (r < 0) throw this.fail(r, `segment ${this.#index}`);
    this.#index++;
    return r === out.length ? out : out.subarray(0, r);
  }
  open(data, final) {
    // The library decrypts the whole record into out (RFC 8188: its delimiter and padding too).
    const out = Buffer.allocUnsafe(Math.max(data.length - TAG, 0));
    const r = native.streamOpen(this.#h, data, final, out);
    if (r < 0) throw this.fail(r, `segment ${this.#index}${final ? ' (the last)' : ''}`);
    this.#index++;
    return r === out.length ? out : out.subarray(0, r);
  }
  free() {
    this.#h = streams.release(this, this.#h);
  }
}

class StreamWriter extends StreamCore {
  #pad;
  #rs;
  #headerSent = false;
  constructor(format, key, opts, what) {
    super(what);
    const params = streamParams(format, key, opts, what);
    this.#pad = format === STREAM.RFC8188 ? u32((opts || {}).pad, 'pad', 0) : 0;
    const header = Buffer.allocUnsafe(STREAM_MAX_HEADER);
    const [rc, len, handle] = native.streamWriterNew(...params, header);
    if (rc !== 0) throw error(rc, what);
    this.attach(handle, header.subarray(0, len));
    this.#rs = this.segmentSize();
    if (this.#pad > this.#rs - this.overhead) {
      this.free();
      throw new RangeError(`${what}: pad must be at most rs - 17 (${this.#rs - this.overhead}); got ${this.#pad}`);
    }
  }
  write(data) {
    const out = [];
    if (!this.#headerSent) { out.push(this.header); this.#headerSent = true; }
    const q = this.queue;
    q.push(data);
    // Strictly more than a segment's plaintext buffered: that segment is not the last.
    for (let n = this.segmentSize() - this.overhead; q.length > n; n = this.segmentSize() - this.overhead) {
      out.push(this.seal(q.take(n), 0, false));
    }
    return out;
  }
  end() {
    const out = this.write(Buffer.alloc(0));
    const q = this.queue;
    const rest = q.take(q.length);
    // RFC 8188's padding goes into the final record; when it does not fit beside the data, the data
    // goes into a record of its own and the final record holds only the padding.
    if (this.#pad > 0 && rest.length + this.#pad + this.overhead > this.#rs) {
      out.push(this.seal(rest, 0, false));
      out.push(this.seal(Buffer.alloc(0), this.#pad, true));
    } else {
      out.push(this.seal(rest, this.#pad, true));
    }
    this.free();
    return out;
  }
}

class StreamReader extends StreamCore {
  #params;
  #need = 1;
  constructor(format, key, opts, what) {
    super(what);
    this.#params = streamParams(format, key, opts, what);
    // The parameters are checked now (no header yet: AEAD_ERR_BUFFER_TOO_SMALL when they are right).
    const [rc] = native.streamReaderNew(...this.#params, Buffer.alloc(0));
    if (rc !== -8) throw error(rc, what);
  }
  write(data) {
    const out = [];
    const q = this.queue;
    q.push(data);
    while (!this.attached) {
      if (q.length < this.#need) return out;
      const head = q.peek(Math.min(q.length, STREAM_MAX_HEADER));
      const [rc, len, handle] = native.streamReaderNew(...this.#params, head);
      if (rc === -8) {  // AEAD_ERR_BUFFER_TOO_SMALL: len says how many bytes to call again with
        this.#need = len;
        if (len <= head.length) throw this.fail(-1, 'header');
        continue;
      }
      if (rc !== 0) throw this.fail(rc, 'header');
      this.#params = null;
      this.attach(handle, Buffer.from(q.take(len)));
    }
    // One byte beyond a segment: that segment is not the last.
    for (let n = this.segmentSize(); q.length > n; n = this.segmentSize()) out.push(this.open(q.take(n), false));
    return out;
  }
  end() {
    const q = this.queue;
    if (!this.attached) throw this.fail(-1, `the stream ends inside its header (${q.length} bytes)`);
    const out = this.write(Buffer.alloc(0));
    out.push(this.open(q.take(q.length), true));
    this.free();
    return out;
  }
}

// Transform around a StreamWriter or StreamReader (made lazily: the constructor's failures throw from
// the constructor, later ones go to the stream's 'error' and reject pipeline()).
class AeadTransform extends Transform {
  #core;
  constructor(core, options) {
    super(options);
    this.#core = core;
  }
  /** The stream's header: the writer's as soon as it exists, the reader's once read (else null). */
  get header() { return this.#core.header; }
  _transform(chunk, encoding, callback) {
    let out;
    try {
      out = this.#core.write(chunk);
    } catch (e) {
      callback(e);
      return;
    }
    for (const b of out) this.push(b);
    callback();
  }
  _flush(callback) {
    let out;
    try {
      out = this.#core.end();
    } catch (e) {
      callback(e);
      return;
    }
    for (const b of out) this.push(b);
    callback();
  }
  _destroy(err, callback) {
    this.#core.free();
    callback(err);
  }
}

// The one Transform option taken beside the format's: highWaterMark.
function transformOptions(opts) {
  return opts && opts.highWaterMark !== undefined ? { highWaterMark: opts.highWaterMark } : {};
}

// A Transform class named name around a Core (StreamWriter or StreamReader) of a format; optionsOf picks
// the format's options from the caller's.
function streamClass(name, Core, format, optionsOf) {
  return {
    [name]: class extends AeadTransform {
      constructor(key, options) {
        super(new Core(format, key, optionsOf(options || {}), name), transformOptions(options));
      }
    },
  }[name];
}
const tinkOptions = (o) => o;
const ageOptions = () => null;
const rfc8188Writer = (o) => ({ rs: o.rs, keyid: o.keyid, pad: o.pad });
const rfc8188Reader = (o) => ({ maxRecordSize: o.maxRecordSize });

/** Tink's AesGcmHkdfStreaming, encrypting: key is the raw main key (at least keySize bytes); options
 *  { keySize: 16 | 32 (16), hkdfHash: 'SHA1' | 'SHA256' | 'SHA512' ('SHA256'), segmentSize (4096),
 *  firstSegmentOffset (0), associatedData }. */
const TinkEncryptStream = streamClass('TinkEncryptStream', StreamWriter, STREAM.TINK, tinkOptions);
/** Tink's AesGcmHkdfStreaming, decrypting: the encrypter's key and options. */
const TinkDecryptStream = streamClass('TinkDecryptStream', StreamReader, STREAM.TINK, tinkOptions);
/** age's payload (STREAM, 64 KiB chunks) under the 16-byte file key: the 16-byte nonce, then the chunks. */
const AgeEncryptStream = streamClass('AgeEncryptStream', StreamWriter, STREAM.AGE, ageOptions);
const AgeDecryptStream = streamClass('AgeDecryptStream', StreamReader, STREAM.AGE, ageOptions);
/** RFC 8188 aes128gcm, encrypting: key is the input keying material (16 bytes for Web Push); options
 *  { rs (4096, at least 18), keyid (bytes or a string, at most 255 bytes), pad (0: zero bytes of
 *  padding in the final record, at most rs - 17) }. */
const RFC8188EncryptStream = streamClass('RFC8188EncryptStream', StreamWriter, STREAM.RFC8188, rfc8188Writer);
/** RFC 8188 aes128gcm, decrypting: options { maxRecordSize (2^24) }: a header with a larger rs is
 *  refused (RangeError) before anything is allocated. The header's keyid is `header.subarray(21)`. */
const RFC8188DecryptStream = streamClass('RFC8188DecryptStream', StreamReader, STREAM.RFC8188, rfc8188Reader);

function oneCall(core, data) {
  byteLength(data, 'data');
  const view = ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data);
  const out = core.write(view);
  out.push(...core.end());
  return Buffer.concat(out);
}

/** RFC 8188 in one call, as http_ece's encrypt / decrypt: the whole body at once. */
const rfc8188 = Object.freeze({
  /** The aes128gcm body (header, then records) of data: options as RFC8188EncryptStream's. */
  encrypt(data, key, options) {
    return oneCall(new StreamWriter(STREAM.RFC8188, key, rfc8188Writer(options || {}), 'rfc8188.encrypt'), data);
  },
  /** The content of an aes128gcm body; AuthenticationError for one that does not open (truncated,
   *  reordered, extended or modified). options: { maxRecordSize }. */
  decrypt(data, key, options) {
    return oneCall(new StreamReader(STREAM.RFC8188, key, rfc8188Reader(options || {}), 'rfc8188.decrypt'), data);
  },
});

const libraryVersion = () => native.version();
const libraryVersionNumber = () => native.versionNumber();
const strerror = (code) => native.strerror(code);

// Names only (shorthand): index.mjs re-exports what Node's CommonJS lexer finds here, and the lexer stops
// at the first property that is not a plain name.
module.exports = {
  AESGCM, ChaCha20Poly1305, AESCCM, AESGCMSIV, AESOCB3, XChaCha20Poly1305, AESSIV,
  AESGCMForTLS12, AESGCMForTLS13, ChaCha20Poly1305ForTLS12, ChaCha20Poly1305ForTLS13,
  AESGCMRandomNonce, XChaCha20Poly1305RandomNonce, AESGCMForQUIC, ChaCha20Poly1305ForQUIC,
  AESGCMCounterNonce, AESGCMXORCounterNonce, AESGCMForSSH,
  AEGIS128L, AEGIS256, AEGIS128X2, AEGIS128X4, AEGIS256X2, AEGIS256X4,
  AEGIS128LRandomNonce, AEGIS256RandomNonce, AEGIS128X2RandomNonce, AEGIS128X4RandomNonce,
  AEGIS256X2RandomNonce, AEGIS256X4RandomNonce,
  AeadError, AuthenticationError, NonceError, KeyLimitError, UnsupportedAlgorithmError,
  CipherSuite, SenderContext, RecipientContext, ReplayError, Mode, KemId, KdfId, AeadId, HPKE_MAX_SEQUENCE,
  TinkEncryptStream, TinkDecryptStream, AgeEncryptStream, AgeDecryptStream, RFC8188EncryptStream, RFC8188DecryptStream,
  rfc8188,
  libraryVersion, libraryVersionNumber, strerror,
};
