'use strict';
// Shared by the tests: the vectors directory (AEAD_VECTORS_DIR, else tests/vectors.sh's last stdout
// line; missing vectors fail the suite, never skip it) and the package under test (LIBAEAD_NODE_PACKAGE
// names an installed copy; default: this checkout's bindings/node).
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

function vectorsDir() {
  let dir = process.env.AEAD_VECTORS_DIR;
  if (!dir) {
    const script = path.resolve(__dirname, '..', '..', '..', 'tests', 'vectors.sh');
    const out = execFileSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    dir = out.trim().split('\n').pop();
    process.env.AEAD_VECTORS_DIR = dir;
  }
  if (!fs.existsSync(path.join(dir, 'wycheproof', 'aes_gcm_test.json'))) {
    throw new Error(`test vectors missing: ${dir} has no wycheproof/aes_gcm_test.json (run tests/vectors.sh)`);
  }
  return dir;
}

function lib() {
  return require(process.env.LIBAEAD_NODE_PACKAGE || path.resolve(__dirname, '..'));
}

const hex = (s) => Buffer.from(s || '', 'hex');

module.exports = { vectorsDir, lib, hex };
