// Type declarations of the libaead package (CommonJS and ESM entry points export the same names).
import { Transform } from 'node:stream';

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
  /** Bytes added by encrypt: nonce + tag (28 for AES-GCM, 40 for XChaCha20-Poly1305; AEGIS 32 to 64). */
  readonly overhead: number;
  readonly tagLength: number;
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

/** AEGIS (RFC 10032): the caller's nonce, as many bytes as the key (16 or 32). tagLength 16 (default) or 32. */
declare abstract class AEGIS extends PlainAEAD {
  constructor(key: BufferSource, tagLength?: 16 | 32);
  /** A random key of the variant's size. */
  static generateKey(): Buffer;
}
/** AEGIS-128L: key and nonce 16 bytes. */
export class AEGIS128L extends AEGIS {}
/** AEGIS-256: key and nonce 32 bytes. */
export class AEGIS256 extends AEGIS {}
/** AEGIS-128X2 (two AEGIS-128L lanes, for VAES/AVX2): key and nonce 16 bytes. */
export class AEGIS128X2 extends AEGIS {}
/** AEGIS-128X4 (four lanes, for AVX-512): key and nonce 16 bytes. */
export class AEGIS128X4 extends AEGIS {}
/** AEGIS-256X2: key and nonce 32 bytes. */
export class AEGIS256X2 extends AEGIS {}
/** AEGIS-256X4: key and nonce 32 bytes. */
export class AEGIS256X4 extends AEGIS {}

/** AEGIS with the whole nonce drawn by the library: encrypt returns nonce || ciphertext || tag. The 16-byte
 *  nonces of AEGIS-128L/128X allow 2^48 encryptions per object (then NonceError, AEAD_ERR_NONCE_LIMIT); the
 *  32-byte ones of AEGIS-256/256X have no limit. tagLength 16 (default) or 32. */
declare abstract class AEGISRandomNonce extends RandomNonceAEAD {
  constructor(key: BufferSource, tagLength?: 16 | 32);
  static generateKey(): Buffer;
}
export class AEGIS128LRandomNonce extends AEGISRandomNonce {}
export class AEGIS256RandomNonce extends AEGISRandomNonce {}
export class AEGIS128X2RandomNonce extends AEGISRandomNonce {}
export class AEGIS128X4RandomNonce extends AEGISRandomNonce {}
export class AEGIS256X2RandomNonce extends AEGISRandomNonce {}
export class AEGIS256X4RandomNonce extends AEGISRandomNonce {}

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

// ---------------------------------------------------------------------------------------------------
// HPKE (RFC 9180; library 1.6): @hpke/core's shape, synchronous, keys as bytes (RFC 9180's serialisation:
// SEC1 uncompressed points and big-endian scalars for the NIST curves, raw for X25519 and X448; for ML-KEM
// FIPS 203's encapsulation key and the 64-byte seed, for a hybrid that key then the curve's, and a 32-byte seed).

/** RFC 9180's modes (section 5); the context calls pick the mode from their parameters. */
export declare const Mode: { readonly Base: 0; readonly Psk: 1; readonly Auth: 2; readonly AuthPsk: 3 };
/** RFC 9180's KEM ids (section 7.1) and draft-ietf-hpke-pq's, with @hpke/core's names. The post-quantum KEMs
 *  (ML-KEM and the hybrids) need ML-KEM in libcrypto (OpenSSL 3.5+, as the prebuilt addon has it; elsewhere
 *  UnsupportedAlgorithmError) and have the base and psk modes only. */
export declare const KemId: {
  readonly DhkemP256HkdfSha256: 0x0010; readonly DhkemP384HkdfSha384: 0x0011; readonly DhkemP521HkdfSha512: 0x0012;
  readonly DhkemX25519HkdfSha256: 0x0020; readonly DhkemX448HkdfSha512: 0x0021;
  readonly MlKem512: 0x0040; readonly MlKem768: 0x0041; readonly MlKem1024: 0x0042;
  readonly MlKem768P256: 0x0050; readonly MlKem1024P384: 0x0051; readonly XWing: 0x647a;
};
/** RFC 9180's HKDFs and draft-ietf-hpke-pq's one-stage KDFs (TurboSHAKE is in no OpenSSL release: its suites
 *  throw UnsupportedAlgorithmError at setup). */
export declare const KdfId: {
  readonly HkdfSha256: 0x0001; readonly HkdfSha384: 0x0002; readonly HkdfSha512: 0x0003;
  readonly Shake128: 0x0010; readonly Shake256: 0x0011; readonly TurboShake128: 0x0012; readonly TurboShake256: 0x0013;
};
export declare const AeadId: {
  readonly Aes128Gcm: 0x0001; readonly Aes256Gcm: 0x0002; readonly Chacha20Poly1305: 0x0003; readonly ExportOnly: 0xffff;
};
export type Mode = typeof Mode[keyof typeof Mode];
export type KemId = typeof KemId[keyof typeof KemId];
export type KdfId = typeof KdfId[keyof typeof KdfId];
export type AeadId = typeof AeadId[keyof typeof AeadId];
/** The last sequence number a context seals or opens: 2^64 - 2. */
export declare const HPKE_MAX_SEQUENCE: bigint;

/** openAt: the sequence number was already opened, or is left of the replay window (AEAD_ERR_REPLAY). */
export class ReplayError extends AuthenticationError {}

export interface KeyPair {
  privateKey: Buffer;
  publicKey: Buffer;
}
/** The pre-shared key of the psk modes (@hpke/core's PreSharedKey): both non-empty. */
export interface PreSharedKey {
  id: BufferSource;
  key: BufferSource;
}
export interface KeyScheduleParams {
  info?: BufferSource | null;
  psk?: PreSharedKey;
}
export interface SenderContextParams extends KeyScheduleParams {
  recipientPublicKey: BufferSource;
  /** The sender's private key: the auth modes. */
  senderKey?: BufferSource | null;
  /** DeriveKeyPair input of the ephemeral key: known-answer tests only (reusing it breaks HPKE). */
  ekm?: BufferSource | null;
}
export interface RecipientContextParams extends KeyScheduleParams {
  recipientKey: BufferSource;
  enc: BufferSource;
  /** The sender's public key: the auth modes. */
  senderPublicKey?: BufferSource | null;
  /** openAt's replay window in messages: 0 (64) or a multiple of 64 up to 4096. */
  window?: number;
}
/** What share() returns: plain data, to post to a worker_threads Worker of the same process. */
export interface SharedContext {
  token: Uint8Array;
  sender: boolean;
  kem: KemId;
  kdf: KdfId;
  aead: AeadId;
}

/** A suite's KEM (suite.kem): sizes and key pairs. */
export interface Kem {
  readonly id: KemId;
  /** Nenc: the encapsulated key's length (a DHKEM's is Npk; a post-quantum KEM's differs). */
  readonly encSize: number;
  /** Npk. */
  readonly publicKeySize: number;
  readonly privateKeySize: number;
  generateKeyPair(): KeyPair;
  /** DeriveKeyPair(ikm) (RFC 9180 section 7.1.3). */
  deriveKeyPair(ikm: BufferSource): KeyPair;
  publicKeyOf(privateKey: BufferSource): Buffer;
}

declare abstract class HpkeContext {
  readonly suite: CipherSuite;
  /** The secret export interface: length bytes (at most 255 x the KDF's hash size; 65535 for SHAKE); exporterContext at
   *  most 960 bytes. */
  export(exporterContext: BufferSource, length: number): Buffer;
  /** A description another worker_threads Worker turns into its own handle on this context (fromShared). */
  share(): SharedContext;
  /** Releases this thread's handle; the context is freed (secrets cleansed) when no thread holds it. */
  close(): void;
  [Symbol.dispose](): void;
}
export class SenderContext extends HpkeContext {
  private constructor();
  /** This context in another worker_threads Worker: what share() returned there. */
  static fromShared(shared: SharedContext): SenderContext;
  /** The encapsulated key to send to the recipient. */
  readonly enc: Buffer;
  /** ciphertext || tag under the next sequence number. */
  seal(data: BufferSource, aad?: BufferSource | null): Buffer;
  sealWithSequence(data: BufferSource, aad?: BufferSource | null): { sequence: bigint; ct: Buffer };
}
export class RecipientContext extends HpkeContext {
  private constructor();
  static fromShared(shared: SharedContext): RecipientContext;
  /** The next message in order; AuthenticationError otherwise. */
  open(data: BufferSource, aad?: BufferSource | null): Buffer;
  /** The message of sequence number seq, through the replay window (ReplayError). */
  openAt(seq: number | bigint, data: BufferSource, aad?: BufferSource | null): Buffer;
}

export class CipherSuite {
  constructor(params: { kem: KemId; kdf: KdfId; aead: AeadId });
  readonly kem: Kem;
  readonly kdf: { readonly id: KdfId };
  readonly aead: { readonly id: AeadId };
  createSenderContext(params: SenderContextParams): SenderContext;
  createRecipientContext(params: RecipientContextParams): RecipientContext;
  /** Single-shot seal (RFC 9180 section 6). */
  seal(params: SenderContextParams, data: BufferSource, aad?: BufferSource | null): { enc: Buffer; ct: Buffer };
  /** Single-shot open. */
  open(params: RecipientContextParams, data: BufferSource, aad?: BufferSource | null): Buffer;
}

/** Options of Tink's AES-GCM-HKDF streaming (both directions must agree). */
export interface TinkStreamOptions {
  /** The AES key HKDF derives: 16 (default) or 32 bytes. */
  keySize?: 16 | 32;
  /** HKDF's hash: 'SHA256' (default), 'SHA1' or 'SHA512'. */
  hkdfHash?: 'SHA1' | 'SHA256' | 'SHA512';
  /** Ciphertext bytes of a segment (default 4096). */
  segmentSize?: number;
  /** Bytes of the ciphertext before the header (default 0). */
  firstSegmentOffset?: number;
  /** The stream's associated data (at most 1024 bytes). */
  associatedData?: BufferSource | null;
  highWaterMark?: number;
}
export interface RFC8188EncryptOptions {
  /** The record size, at least 18 (default 4096). */
  rs?: number;
  /** The header's keyid, at most 255 bytes. */
  keyid?: BufferSource | string | null;
  /** Zero bytes after the final record's delimiter (default 0, at most rs - 17). */
  pad?: number;
  highWaterMark?: number;
}
export interface RFC8188DecryptOptions {
  /** The largest rs taken (default 2^24): a larger one is a RangeError (AEAD_ERR_TOO_LONG). */
  maxRecordSize?: number;
  highWaterMark?: number;
}
/** A streaming AEAD Transform: a stream that does not open fails with AuthenticationError. */
declare abstract class AeadTransform extends Transform {
  /** The stream's header: the writer's from the start, the reader's once read (else null). */
  readonly header: Buffer | null;
}
export class TinkEncryptStream extends AeadTransform {
  constructor(key: BufferSource, options?: TinkStreamOptions);
}
export class TinkDecryptStream extends AeadTransform {
  constructor(key: BufferSource, options?: TinkStreamOptions);
}
/** age's payload under its 16-byte file key: the 16-byte nonce, then 64 KiB chunks. */
export class AgeEncryptStream extends AeadTransform {
  constructor(fileKey: BufferSource, options?: { highWaterMark?: number });
}
export class AgeDecryptStream extends AeadTransform {
  constructor(fileKey: BufferSource, options?: { highWaterMark?: number });
}
export class RFC8188EncryptStream extends AeadTransform {
  constructor(key: BufferSource, options?: RFC8188EncryptOptions);
}
export class RFC8188DecryptStream extends AeadTransform {
  constructor(key: BufferSource, options?: RFC8188DecryptOptions);
}
/** RFC 8188 aes128gcm in one call (http_ece's shape). */
export const rfc8188: {
  encrypt(data: BufferSource, key: BufferSource, options?: RFC8188EncryptOptions): Buffer;
  decrypt(data: BufferSource, key: BufferSource, options?: RFC8188DecryptOptions): Buffer;
};

/** "libaead X.Y.Z (OpenSSL ...)": the library and the libcrypto it runs on. */
export function libraryVersion(): string;
export function libraryVersionNumber(): number;
/** The library's text for a return code. */
export function strerror(code: number): string;
