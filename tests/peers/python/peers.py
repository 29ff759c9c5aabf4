"""Helpers of tests/peers/run.py (standard library only; run by any python3).

  fetch <index project> <file name> <sha256> <dest>
      the file from the package index's simple page (PIP_INDEX_URL, else PyPI: the page pip reads),
      checked against the sha256 given; a cached dest is checked again and kept if it matches
  swap <test_aead.py> <out>
      the mechanical rewrite: pyca's one import of the six AEAD classes becomes an import from libaead
  compare <differences.txt> <control.json> <backend>=<libaead.json> ...
      each libaead run's outcome of every test against the control's (the outcomes come from
      libaead_peers_check.py); prints the per-backend summaries and the totals line, exit 1 on an
      unlisted difference or a listed one that did not occur
"""

import hashlib
import json
import os
import re
import sys
import urllib.parse
import urllib.request

SUITE = "cryptography"  # the first field of this suite's lines in differences.txt
SWAPPED = ("AESCCM", "AESGCM", "AESGCMSIV", "AESOCB3", "AESSIV", "ChaCha20Poly1305")


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def fetch(project, name, want, dest):
    if os.path.exists(dest):
        if sha256_of(dest) == want:
            return 0
        os.unlink(dest)  # a damaged or outdated copy: fetch it again
    index = (os.environ.get("PIP_INDEX_URL") or "https://pypi.org/simple").rstrip("/") + "/%s/" % project
    page = urllib.request.urlopen(index, timeout=120).read().decode()
    links = [u.replace("&amp;", "&") for u in re.findall(r'href="([^"]+)"', page)]
    links = [u for u in links if urllib.parse.urlsplit(u).path.endswith("/" + name)]
    if not links:
        sys.exit("peers python: %s is not on the index page %s" % (name, index))
    data = urllib.request.urlopen(urllib.parse.urljoin(index, links[0]), timeout=600).read()
    got = hashlib.sha256(data).hexdigest()
    if got != want:
        sys.exit("peers python: %s has sha256 %s, pinned %s" % (name, got, want))
    with open(dest + ".part", "wb") as f:
        f.write(data)
    os.replace(dest + ".part", dest)
    return 0


IMPORT = re.compile(r"^from cryptography\.hazmat\.primitives\.ciphers\.aead import \(([^)]*)\)", re.M)


def swap(src, out):
    with open(src) as f:
        text = f.read()
    found = IMPORT.findall(text)
    if len(found) != 1 or sorted(n.strip() for n in found[0].split(",") if n.strip()) != sorted(SWAPPED):
        sys.exit("peers python: %s does not import exactly %s in one statement from "
                 "cryptography.hazmat.primitives.ciphers.aead: the rewrite needs updating" % (src, SWAPPED))
    text = IMPORT.sub(lambda m: "from libaead import (%s)" % m.group(1), text)
    if "ciphers.aead" in text or "ciphers import aead" in text:
        sys.exit("peers python: %s reaches pyca's AEAD module another way too" % src)
    with open(out, "w") as f:
        f.write(text)
    return 0


def listed(path):
    """{test id: reason} of the ``## python`` section."""
    section, out = None, {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("## "):
                section = line[3:].strip()
            elif section == "python" and line.strip() and not line.startswith("#"):
                suite, test, reason = (line.split(None, 2) + ["", ""])[:3]
                if suite != SUITE or not reason:
                    sys.exit("peers python: differences.txt: not '%s <test id> <reason>': %s" % (SUITE, line))
                out[test] = reason
    return out


def counts(outcomes):
    c = {}
    for o in outcomes.values():
        c[o] = c.get(o, 0) + 1
    return c


def show(c):
    keys = ["passed", "skipped"] + sorted(k for k in c if k not in ("passed", "skipped"))
    return " / ".join("%d %s" % (c.get(k, 0), k) for k in keys)


def compare(diffs_path, control_path, runs):
    diffs = listed(diffs_path)
    with open(control_path) as f:
        control = json.load(f)["outcomes"]
    status, total_passed, total_failed = 0, 0, 0
    shown = {}  # (test id, control outcome, libaead outcome) -> the backends where this listed difference occurred
    if not control:
        print("peers python: the control ran no test", file=sys.stderr)
        status = 1
    for run in runs:
        backend, path = run.split("=", 1)
        with open(path) as f:
            lib = json.load(f)["outcomes"]
        differ = {t for t in set(control) | set(lib) if control.get(t, "not run") != lib.get(t, "not run")}
        for t in sorted(differ - set(diffs)):
            print("FAIL: peers python: %s: %s: pyca %s, libaead %s (not listed in differences.txt)"
                  % (backend, t, control.get(t, "not run"), lib.get(t, "not run")), file=sys.stderr)
            status = 1
        for t in sorted(set(diffs) - differ):
            print("FAIL: peers python: %s: %s is listed in differences.txt but both give %s"
                  % (backend, t, control.get(t, "not run")), file=sys.stderr)
            status = 1
        lc = counts(lib)
        print("peers python: %s: control %s; libaead %s; listed differences %d"
              % (backend, show(counts(control)), show(lc), len(differ & set(diffs))))
        for t in differ & set(diffs):
            shown.setdefault((t, control.get(t, "not run"), lib.get(t, "not run")), []).append(backend)
        total_passed += lc.get("passed", 0)
        total_failed += lc.get("failed", 0) + lc.get("error", 0)
    for (t, c, lo), backends in sorted(shown.items()):
        print("  listed: %s: pyca %s, libaead %s (%s)" % (t, c, lo, ", ".join(backends)))
    print("%d passed, %d failed" % (total_passed, total_failed))
    return status


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "fetch" and len(argv) == 6:
        return fetch(*argv[2:])
    if cmd == "swap" and len(argv) == 4:
        return swap(*argv[2:])
    if cmd == "compare" and len(argv) >= 5:
        return compare(argv[2], argv[3], argv[4:])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
