'use strict';
// The values the Node.js blocks of the documents use without making them: a 32-byte key, a 12-byte
// nonce and IV, an SSH payload and its 4-byte packet-length field. The block runs in a block scope of its
// own, so that it may declare the same names itself.
const { key, nonce, iv, payload, lengthField } = (() => {
  const { randomBytes } = require('node:crypto');
  const iv = randomBytes(12);
  const payload = Buffer.concat([Buffer.from([4]), Buffer.from('payload'), Buffer.alloc(4)]);
  const lengthField = Buffer.alloc(4);
  lengthField.writeUInt32BE(payload.length);
  return { key: randomBytes(32), nonce: randomBytes(12), iv, payload, lengthField };
})();
{
  // BODY
}
