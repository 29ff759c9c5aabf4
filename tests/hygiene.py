#!/usr/bin/env python3
"""What a fresh clone must not carry: paths of one particular machine (a home or work folder: they mean
nothing on a user's), references to the project's internal tracker ("issue 16": it is not public; public
ones are named with their repository, "pyca/cryptography#14795"), anything that reads a folder beside the
checkout instead of fetching its data (tests/vectors.py does that), build outputs, and large files that are
not listed as data. Then the checks of declarations, documents and benchmark tables against their sources.

Usage: python3 tests/hygiene.py   (from anywhere; reads the files git tracks)
"""
import os
import re
import subprocess
import sys

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
tracked = [f for f in subprocess.run(["git", "ls-files", "-z"], stdout=subprocess.PIPE, text=True,
                                     check=True).stdout.split("\0") if f]
files = [f for f in tracked if os.path.isfile(f) and not os.path.islink(f)]
fail = False
# This script names the patterns it looks for, so it is the one file left out.
texts = {}
for f in tracked:
    if f != "tests/hygiene.py" and os.path.isfile(f):
        with open(f, "rb") as fh:
            data = fh.read()
        if b"\0" not in data[:8000]:  # text files only, as grep -I
            texts[f] = data.decode("utf-8", errors="replace").splitlines()
for what, pattern in (
        ("absolute path of a particular machine",
         r"(^|[^A-Za-z0-9_.$}~-])/(work|root|home/[a-z_][a-z0-9_-]*|Users/[A-Za-z][A-Za-z0-9._-]*)/"),
        ("internal issue number", r"\b[Ii]ssues? [0-9]+\b"),
        ("read of a folder beside the checkout", r"\.\./shared\b|\.\.\", \"shared\"|\"\.\.\", \"shared\"")):
    rx = re.compile(pattern)
    hits = [f"{f}:{n}:{line}"[:200] for f, lines in texts.items() for n, line in enumerate(lines, 1) if rx.search(line)]
    if hits:
        print(f"hygiene: {what}:", *hits[:20], sep="\n", file=sys.stderr)
        fail = True
    else:
        print(f"hygiene: no {what} in {len(tracked)} tracked files")

# No build output (an ELF, Mach-O or PE executable or object: a committed `go test -c` binary, a prebuild)
# and no file over 1 MiB unless tests/data-files.txt lists it as data, with its reason.
magics = (b"\x7fELF", b"\xfe\xed\xfa\xce", b"\xfe\xed\xfa\xcf", b"\xce\xfa\xed\xfe", b"\xcf\xfa\xed\xfe",
          b"\xca\xfe\xba\xbe", b"MZ")
data = {line.split()[0] for line in open("tests/data-files.txt") if line.strip() and not line.startswith("#")}
bins = []
for f in files:
    with open(f, "rb") as fh:
        head = fh.read(4)
    if head.startswith(magics):
        bins.append(f + ": executable or object file")
    elif os.path.getsize(f) > 1 << 20 and f not in data:
        bins.append(f"{f}: {os.path.getsize(f)} bytes, over 1 MiB and not listed in tests/data-files.txt")
if bins:
    print("hygiene: tracked build outputs or large files:", *bins[:20], sep="\n", file=sys.stderr)
    fail = True
else:
    print(f"hygiene: no executable, object or unlisted file over 1 MiB in {len(tracked)} tracked files")

docs = [f for f in tracked if f.endswith(".md")]
for check in (
        ["python3", "tests/decls/check.py"],  # the bindings' declarations (typed or generated) against include/aead.h
        ["python3", "tests/doc_words.py"],  # user documents say what the library does, not how the work went
        ["python3", "tests/decls/choosing.py"],  # every name in docs/choosing.md's table exists in its binding
        ["python3", "tests/decls/errors.py"],  # every error-code list against include/aead.h and aead_strerror
        ["python3", "tests/decls/floors.py"],  # each binding's oldest accepted libaead against what it calls
        ["python3", "tests/decls/abi_tables.py"],  # every export of lib/libaead.map in docs/abi.md's tables
        # The Go binding's generated wrappers of sources.txt, build_config.h and bundled.go (the module zip's build).
        ["bash", "bindings/go/csrc.sh", "--check"],
        # Every code block of every tracked document: a language the snippet runners build and run (C, Python,
        # Go, Rust, Java, JS, in their stages), no-run, data, or a command block illustrative or run-by=SCRIPT.
        ["python3", "tests/snippets/extract.py", "--check", *docs],
        ["python3", "bench/tables.py", "--check"],  # the documents' benchmark tables and quoted ratios against their JSON
        ["python3", "bench/figures.py"]):  # no performance figure in a document outside those generated blocks
    fail |= subprocess.run(check).returncode != 0
sys.exit(1 if fail else 0)
