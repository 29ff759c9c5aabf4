'use strict';
// Shared by the tests: the vectors directory (AEAD_VECTORS_DIR, else tests/vectors.py's last stdout
// line; missing vectors fail the suite, never skip it) and the package under test (LIBAEAD_NODE_PACKAGE
// names an installed copy; default: this checkout's bindings/node).
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const crypto = require('crypto');
const { Readable } = require('stream');
const { pipeline } = require('stream/promises');

function vectorsDir() {
  let dir = process.env.AEAD_VECTORS_DIR;
  if (!dir) {
    const script = path.resolve(__dirname, '..', '..', '..', 'tests', 'vectors.py');
    const out = execFileSync('python3', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    dir = out.trim().split('\n').pop();
    process.env.AEAD_VECTORS_DIR = dir;
  }
  if (!fs.existsSync(path.join(dir, 'wycheproof', 'aes_gcm_test.json'))) {
    throw new Error(`test vectors missing: ${dir} has no wycheproof/aes_gcm_test.json (run tests/vectors.py)`);
  }
  return dir;
}

function lib() {
  return require(process.env.LIBAEAD_NODE_PACKAGE || path.resolve(__dirname, '..'));
}

const hex = (s) => Buffer.from(s || '', 'hex');

// Streams: buf in random pieces (1 byte to a few hundred KiB), as a file or socket delivers it, through
// the transforms with stream.pipeline: { out, error }, the bytes that came out and the rejection (or null).
function pieces(buf) {
  const out = [];
  for (let off = 0; off < buf.length;) {
    const r = crypto.randomInt(4);
    const n = Math.min(buf.length - off, r === 0 ? 1 : 1 + crypto.randomInt([64, 5000, 200000][r - 1]));
    out.push(buf.subarray(off, off + n));
    off += n;
  }
  return out;
}
async function run(buf, ...transforms) {
  const got = [];
  let error = null;
  try {
    await pipeline(Readable.from(pieces(buf)), ...transforms, async (src) => { for await (const c of src) got.push(c); });
  } catch (e) {
    error = e;
  }
  return { out: Buffer.concat(got), error };
}
// The same, throwing the rejection.
async function through(buf, ...transforms) {
  const r = await run(buf, ...transforms);
  if (r.error !== null) throw r.error;
  return r.out;
}

module.exports = { vectorsDir, lib, hex, run, through };
