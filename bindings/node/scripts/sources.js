'use strict';
// binding.gyp's lists of the core's sources: csrc/sources.txt (bindings/csrc.sh's copy of the repository's
// sources.txt, the one list every build compiles), each path under csrc/; with the argument `aegis`,
// libaegis's C files (csrc/shim/aegis/sources.txt, under csrc/aegis/src/).
const fs = require('fs');
const path = require('path');

const aegis = process.argv[2] === 'aegis';
const csrc = path.join(__dirname, '..', 'csrc');
const list = fs.readFileSync(path.join(csrc, aegis ? 'shim/aegis/sources.txt' : 'sources.txt'), 'utf8');
for (const line of list.split('\n')) {
  const p = line.replace(/#.*/, '').trim();
  if (p) console.log((aegis ? 'csrc/aegis/src/' : 'csrc/') + p);
}
