'use strict';
// Where the thread pool pays: for each size, AES-128-GCM seal done synchronously and with encryptAsync
// (awaited one at a time, and 4 in flight), giving the time per message and the event loop's busy time
// main thread's CPU time per message (Linux /proc/<pid>/task/<pid>/stat: the work the event loop did
// itself, which another request could not use) and the wall time per message (which the machine's load
// inflates).
//   cd bindings/node/bench && nice node async.js [--ms T]
const crypto = require('crypto');
const os = require('os');
const fs = require('fs');
const { performance } = require('perf_hooks');
const L = require('..');

const args = process.argv.slice(2);
const MS = (() => { const i = args.indexOf('--ms'); return i >= 0 ? Number(args[i + 1]) : 1000; })();
const g = new L.AESGCM(crypto.randomBytes(16));
const nonce = crypto.randomBytes(12);

// The main thread's user + system CPU time in ns (clock ticks of 10 ms; runs last about a second).
function mainCpuNs() {
  const f = fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, 'utf8');
  const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 1e7;
}

async function run(kind, pt) {
  const start = performance.now();
  const cpu0 = mainCpuNs();
  let n = 0;
  while (performance.now() - start < MS) {
    if (kind === 'sync') {
      g.encrypt(nonce, pt, null);
      n++;
      if (n % 64 === 0) await new Promise(setImmediate); // let the loop turn, as a server would
    } else if (kind === 'async') {
      await g.encryptAsync(nonce, pt, null);
      n++;
    } else {
      await Promise.all([0, 1, 2, 3].map(() => g.encryptAsync(nonce, pt, null)));
      n += 4;
    }
  }
  const wall = performance.now() - start;
  return { perMsg: (wall * 1e6) / n, busy: (mainCpuNs() - cpu0) / n };
}

(async () => {
  console.log(`# ${L.libraryVersion()}; node ${process.version}; ${os.cpus().length} CPUs; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log('| bytes | sync: wall ns/msg (main-thread CPU ns/msg) | encryptAsync, 1 in flight: wall ns/msg (main-thread CPU ns/msg) | encryptAsync, 4 in flight: wall ns/msg (main-thread CPU ns/msg) |');
  console.log('|---:|---:|---:|---:|');
  for (const size of [1024, 16384, 65536, 262144, 1048576]) {
    const pt = crypto.randomBytes(size);
    const r = {};
    for (const k of ['sync', 'async', 'async4']) r[k] = await run(k, pt);
    const f = (x) => `${Math.round(x.perMsg).toLocaleString('en')} (${Math.round(x.busy).toLocaleString('en')})`;
    console.log(`| ${size} | ${f(r.sync)} | ${f(r.async)} | ${f(r.async4)} |`);
  }
  console.log(`# load average at end ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
})();
