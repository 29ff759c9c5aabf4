// Type declarations of the libaead package (CommonJS and ESM entry points export the same names).

/** Bytes the package reads or writes: a Buffer, any TypedArray, a DataView or an ArrayBuffer. */
export type BufferSource = ArrayBufferView | ArrayBuffer;

/** Any failure reported by libaead. */
export class AeadError extends Error {
  /** The library's name for the failure, e.g. "AEAD_ERR_AUTH". */
  readonly code: string;
  /** The library's (negative, stable) return code. */
  readonly aeadCode: number;
  /** Batches: the index of the record that failed. */
  index?: number;
}
/** Decryption: the tag did not verify. */
export class AuthenticationError extends AeadError {}
/** A nonce policy refused an encryption (sequence reused or lower, exhausted, prefix changed; random-nonce
 *  limit; a TLS/QUIC/counter/SSH context used in a forked child). Nothing was written. */
export class NonceError extends AeadError {}
/** QUIC: the key's confidentiality or integrity limit is reached. */
export class KeyLimitError extends AeadError {}
/** The algorithm is not offered by the libcrypto in use. */
export class UnsupportedAlgorithmError extends AeadError {}

declare abstract class Closable {
  /** Frees the native context now (the library cleanses its key material); later calls throw. */
  close(): void;
  [Symbol.dispose](): void;
}

/** encrypt(nonce, data, aad) returns ciphertext || tag; decrypt reverses it (pyca/cryptography's shape). */
declare abstract class NonceAEAD extends Closable {
  readonly tagLength: number;
  encrypt(nonce: BufferSource, data: BufferSource, associatedData?: BufferSource | null): Buffer;
  decrypt(nonce: BufferSource, data: BufferSource, associatedData?: BufferSource | null): Buffer;
  /** Writes into out at offset; returns the number of bytes written. out may be exactly data (in place). */
  encryptInto(nonce: BufferSource, data: BufferSource, associatedData: BufferSource | null | undefined,
    out: BufferSource, offset?: number): number;
  decryptInto(nonce: BufferSource, data: BufferSource, associatedData: BufferSource | null | undefined,
    out: BufferSource, offset?: number): number;
  /** Many independent records in one native call (aead_seal_open_many). */
  encryptMany(nonces: BufferSource[], datas: BufferSource[], associatedDatas?: (BufferSource | null)[] | null): Buffer[];
  decryptMany(nonces: BufferSource[], datas: BufferSource[], associatedDatas?: (BufferSource | null)[] | null): Buffer[];
}

/** The classes without a nonce policy: also encryptAsync / decryptAsync in libuv's thread pool
 *  (inputs copied; see the README's measurement before using them). */
declare abstract class PlainAEAD extends NonceAEAD {
  encryptAsync(nonce: BufferSource, data: BufferSource, associatedData?: BufferSource | null): Promise<Buffer>;
  decryptAsync(nonce: BufferSource, data: BufferSource, associatedData?: BufferSource | null): Promise<Buffer>;
}

export class AESGCM extends PlainAEAD {
  /** key: 16, 24 or 32 bytes; tagLength 16 (default), 4, 8 or 12..15. Nonce 1..128 bytes. */
  constructor(key: BufferSource, tagLength?: number);
  static generateKey(bitLength: 128 | 192 | 256): Buffer;
}
export class ChaCha20Poly1305 extends PlainAEAD {
  constructor(key: BufferSource);
  static generateKey(): Buffer;
}
export class AESCCM extends PlainAEAD {
  /** tagLength 4, 6, 8, 10, 12, 14 or 16 (default). Nonce 7..13 bytes. */
  constructor(key: BufferSource, tagLength?: number);
  static generateKey(bitLength: 128 | 192 | 256): Buffer;
}
export class AESGCMSIV extends PlainAEAD {
  constructor(key: BufferSource);
  static generateKey(bitLength: 128 | 192 | 256): Buffer;
}
export class AESOCB3 extends PlainAEAD {
  constructor(key: BufferSource);
  static generateKey(bitLength: 128 | 192 | 256): Buffer;
}
export class XChaCha20Poly1305 extends PlainAEAD {
  constructor(key: BufferSource);
  static generateKey(): Buffer;
}

/** TLS record protection: encrypt's nonces must follow the policy (NonceError otherwise). */
export class AESGCMForTLS12 extends NonceAEAD {
  /** iv: null (learned from the first record), the 4-byte salt, or salt || 8-byte mask. */
  constructor(key: BufferSource, iv?: BufferSource | null);
}
export class AESGCMForTLS13 extends NonceAEAD {
  /** iv: the 12-byte static IV, or null (the first record is sequence 0 and reveals it). */
  constructor(key: BufferSource, iv?: BufferSource | null);
}
export class ChaCha20Poly1305ForTLS12 extends NonceAEAD {
  constructor(key: BufferSource, iv?: BufferSource | null);
}
export class ChaCha20Poly1305ForTLS13 extends NonceAEAD {
  constructor(key: BufferSource, iv?: BufferSource | null);
}

/** Counter nonces and SSH: encrypt's nonces must follow the policy (NonceError otherwise); decrypt checks no
 *  order. iv: null or omitted (learned from the first encryption), or the 12 bytes each class names. */
declare abstract class CounterNonceAEAD extends NonceAEAD {
  constructor(key: BufferSource, iv?: BufferSource | null);
}
/** Counter nonces for any protocol (Go's NewGCMWithCounterNonce): nonce = fixed(4) || BE64(start + n), n
 *  strictly increasing from 0 (gaps allowed), never back to the start. Key 16, 24 or 32 bytes; iv
 *  fixed || BE64(start). Any AAD. */
export class AESGCMCounterNonce extends CounterNonceAEAD {}
/** XOR-counter nonces (Go's NewGCMWithXORCounterNonce): nonce = fixed(4) || BE64(mask XOR n), n from 0
 *  strictly increasing. Key 16, 24 or 32 bytes; iv fixed || mask (learned: the first encryption is n = 0). */
export class AESGCMXORCounterNonce extends CounterNonceAEAD {}
/** AES-GCM in SSH (RFC 5647; Go's NewGCMForSSH): AESGCMCounterNonce's rules, AAD exactly 4 bytes (the
 *  packet length). Key 16 or 32 bytes; iv the key exchange's initial IV. */
export class AESGCMForSSH extends CounterNonceAEAD {}

/** The library draws each nonce: encrypt returns nonce || ciphertext || tag. */
declare abstract class RandomNonceAEAD extends Closable {
  /** Bytes added by encrypt: nonce + tag (28 for AES-GCM, 40 for XChaCha20-Poly1305). */
  readonly overhead: number;
  encrypt(data: BufferSource, associatedData?: BufferSource | null): Buffer;
  decrypt(data: BufferSource, associatedData?: BufferSource | null): Buffer;
  encryptInto(data: BufferSource, associatedData: BufferSource | null | undefined, out: BufferSource, offset?: number): number;
  decryptInto(data: BufferSource, associatedData: BufferSource | null | undefined, out: BufferSource, offset?: number): number;
}
export class AESGCMRandomNonce extends RandomNonceAEAD {
  constructor(key: BufferSource);
}
export class XChaCha20Poly1305RandomNonce extends RandomNonceAEAD {
  constructor(key: BufferSource);
}

/** QUIC packet protection (RFC 9001): nonce = iv XOR packet number, increasing on encrypt. */
declare abstract class QuicAEAD extends Closable {
  encrypt(data: BufferSource, associatedData: BufferSource | null, packetNumber: number | bigint): Buffer;
  decrypt(data: BufferSource, associatedData: BufferSource | null, packetNumber: number | bigint): Buffer;
}
export class AESGCMForQUIC extends QuicAEAD {
  constructor(key: BufferSource, iv: BufferSource);
}
export class ChaCha20Poly1305ForQUIC extends QuicAEAD {
  constructor(key: BufferSource, iv: BufferSource);
}

/** AES-SIV (RFC 5297): output SIV(16) || ciphertext. */
export class AESSIV extends Closable {
  /** key: 32, 48 or 64 bytes. */
  constructor(key: BufferSource);
  /** Deterministic SIV over the associated-data components (pyca's AESSIV). */
  encrypt(data: BufferSource, associatedData?: BufferSource[] | null): Buffer;
  decrypt(data: BufferSource, associatedData?: BufferSource[] | null): Buffer;
  /** RFC 5297 section 6's AEAD form: S2V over [associatedData, nonce]. */
  encryptWithNonce(nonce: BufferSource | null, data: BufferSource, associatedData?: BufferSource | null): Buffer;
  decryptWithNonce(nonce: BufferSource | null, data: BufferSource, associatedData?: BufferSource | null): Buffer;
  static generateKey(bitLength: 256 | 384 | 512): Buffer;
}

/** "libaead X.Y.Z (OpenSSL ...)": the library and the libcrypto it runs on. */
export function libraryVersion(): string;
export function libraryVersionNumber(): number;
/** The library's text for a return code. */
export function strerror(code: number): string;
