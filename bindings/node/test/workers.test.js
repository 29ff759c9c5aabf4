'use strict';
// worker_threads: each thread loads its own instance of the addon and makes its own contexts (an object
// cannot cross threads). Several workers seal concurrently with the same key and disjoint nonces; the
// main thread checks every record against node:crypto. Workers exit without closing some contexts
// (their finalizers run at the worker's teardown).
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('crypto');
const path = require('path');
const { Worker } = require('worker_threads');

const WORKERS = 4;
const PER_WORKER = 2000;

const workerSource = `
const { parentPort, workerData } = require('worker_threads');
const L = require(workerData.pkg);
const { key, id, count } = workerData;
const g = new L.AESGCM(Buffer.from(key));
const c = new L.ChaCha20Poly1305(Buffer.from(key)); // left open on purpose
const records = [];
for (let i = 0; i < count; i++) {
  const nonce = Buffer.alloc(12);
  nonce.writeUInt32BE(id, 0);
  nonce.writeUInt32BE(i, 8);
  const pt = Buffer.alloc(i % 97, id);
  const sealed = g.encrypt(nonce, pt, nonce);
  if (!g.decrypt(nonce, sealed, nonce).equals(pt)) throw new Error('round trip failed');
  c.encrypt(nonce, pt, null);
  if (i % 200 === 0) records.push([nonce, pt, sealed]);
}
g.close();
parentPort.postMessage(records);
`;

test(`${WORKERS} workers sealing concurrently, checked against node:crypto`, async () => {
  const pkg = process.env.LIBAEAD_NODE_PACKAGE || path.resolve(__dirname, '..');
  const key = crypto.randomBytes(32);
  const runs = Array.from({ length: WORKERS }, (_, id) => new Promise((resolve, reject) => {
    const w = new Worker(workerSource, { eval: true, workerData: { pkg, key, id, count: PER_WORKER } });
    let got = null;
    w.on('message', (m) => { got = m; });
    w.on('error', reject);
    w.on('exit', (code) => (code === 0 && got ? resolve(got) : reject(new Error(`worker ${id} exit ${code}`))));
  }));
  const results = await Promise.all(runs);
  let checked = 0;
  for (const records of results) {
    for (const [nonce, pt, sealed] of records) {
      const c = crypto.createCipheriv('aes-256-gcm', key, Buffer.from(nonce));
      c.setAAD(Buffer.from(nonce));
      const expected = Buffer.concat([c.update(Buffer.from(pt)), c.final(), c.getAuthTag()]);
      assert.deepStrictEqual(Buffer.from(sealed), expected);
      checked++;
    }
  }
  assert.strictEqual(checked, WORKERS * PER_WORKER / 200);
});
