'use strict';
// binding.gyp's list of the core's sources: csrc/sources.txt (bindings/csrc.sh's copy of the repository's
// sources.txt, the one list every build compiles), each path under csrc/.
const fs = require('fs');
const path = require('path');

const list = fs.readFileSync(path.join(__dirname, '..', 'csrc', 'sources.txt'), 'utf8');
for (const line of list.split('\n')) {
  const p = line.replace(/#.*/, '').trim();
  if (p) console.log('csrc/' + p);
}
