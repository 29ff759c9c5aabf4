#!/usr/bin/env python3
"""feed.py IN OUT WAIT RESENDS: writes IN to stdout (openssl s_client's input) in 1000-byte chunks,
one at a time: each waits up to WAIT seconds for its echo to reach the file OUT (s_client's output);
when nothing at all came back, the chunk is written again (at most RESENDS times in all). DTLS does
not retransmit application data, so a burst larger than the socket buffers would be lost.
Then it waits until OUT has been still for 0.5 s and checks it: IN, each chunk once, except that a
resent chunk whose first echo was only slow may follow itself. Prints its line on stderr:
"client: N bytes: R resent (s_client, T echoed twice); back byte for byte, each once: yes|no".
"""
import os
import sys
import time

data = open(sys.argv[1], "rb").read()
wait, budget = float(sys.argv[3]), int(sys.argv[4])
size = lambda: os.path.getsize(sys.argv[2])
resent, resends = set(), 0
time.sleep(0.5)
for off in range(0, len(data), 1000):
    piece = data[off:off + 1000]
    while True:
        base = size()
        sys.stdout.buffer.write(piece)
        sys.stdout.flush()
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and size() < base + len(piece):
            time.sleep(0.0002)
        if size() > base or resends >= budget:
            break
        resent.add(off)  # nothing came back: written again
        resends += 1
last, still = size(), time.monotonic()
while time.monotonic() - still < 0.5:
    time.sleep(0.02)
    if size() != last:
        last, still = size(), time.monotonic()
out, pos, twice = open(sys.argv[2], "rb").read(), 0, 0
ok = True
for off in range(0, len(data), 1000):
    piece = data[off:off + 1000]
    ok = ok and out[pos:pos + len(piece)] == piece
    pos += len(piece)
    while off in resent and out[pos:pos + len(piece)] == piece:
        pos += len(piece)
        twice += 1
ok = ok and pos == len(out)
print("client: %d bytes: %d resent (s_client, %d echoed twice); back byte for byte, each once: %s"
      % (len(data), resends, twice, "yes" if ok else "no"), file=sys.stderr)
