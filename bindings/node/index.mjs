// ES module entry point: the same classes as the CommonJS entry (one native instance per thread).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const lib = require('./index.js');

export const {
  AESGCM, ChaCha20Poly1305, AESCCM, AESGCMSIV, AESOCB3, XChaCha20Poly1305, AESSIV,
  AESGCMForTLS12, AESGCMForTLS13, ChaCha20Poly1305ForTLS12, ChaCha20Poly1305ForTLS13,
  AESGCMRandomNonce, XChaCha20Poly1305RandomNonce, AESGCMForQUIC, ChaCha20Poly1305ForQUIC,
  AESGCMCounterNonce, AESGCMXORCounterNonce, AESGCMForSSH,
  AeadError, AuthenticationError, NonceError, KeyLimitError, UnsupportedAlgorithmError,
  CipherSuite, SenderContext, RecipientContext, ReplayError, Mode, KemId, KdfId, AeadId, HPKE_MAX_SEQUENCE,
  TinkEncryptStream, TinkDecryptStream, AgeEncryptStream, AgeDecryptStream, RFC8188EncryptStream, RFC8188DecryptStream,
  rfc8188,
  libraryVersion, libraryVersionNumber, strerror,
} = lib;
export default lib;
