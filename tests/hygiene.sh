#!/usr/bin/env bash
# What a fresh clone must not carry: paths of one particular machine (a home or work folder: they mean
# nothing on a user's), references to the project's internal tracker ("issue 16": it is not public;
# public ones are named with their repository, "pyca/cryptography#14795"), and anything that reads a
# folder beside the checkout instead of fetching its data (tests/vectors.sh does that).
# Usage: bash tests/hygiene.sh   (from anywhere; reads the files git tracks)
set -euo pipefail
cd "$(dirname "$0")/.."

fail=0
check() {  # description, extended regex
    local hits
    # This script names the patterns it looks for, so it is the one file left out.
    hits=$(git ls-files -z | grep -zv '^tests/hygiene\.sh$' | xargs -0 grep -nIE "$2" -- 2>/dev/null || true)
    if [ -n "$hits" ]; then
        echo "hygiene: $1:" >&2
        echo "$hits" | cut -c1-200 | head -20 >&2
        fail=1
    else
        echo "hygiene: no $1 in $(git ls-files | wc -l) tracked files"
    fi
}
check "absolute path of a particular machine" '(^|[^A-Za-z0-9_.$}~-])/(work|root|home/[a-z_][a-z0-9_-]*|Users/[A-Za-z][A-Za-z0-9._-]*)/'
check "internal issue number" '\b[Ii]ssues? [0-9]+\b'
check "read of a folder beside the checkout" '\.\./shared\b|\.\.", "shared"|"\.\.", "shared"'

# No build output (an ELF, Mach-O or PE executable or object: a committed `go test -c` binary, a prebuild)
# and no file over 1 MiB unless tests/data-files.txt lists it as data, with its reason.
bins=$(git ls-files -z | python3 -c '
import os, sys
magics = (b"\x7fELF", b"\xfe\xed\xfa\xce", b"\xfe\xed\xfa\xcf", b"\xce\xfa\xed\xfe", b"\xcf\xfa\xed\xfe",
          b"\xca\xfe\xba\xbe", b"MZ")
data = {l.split()[0] for l in open("tests/data-files.txt") if l.strip() and not l.startswith("#")}
for p in sys.stdin.read().split("\0"):
    if not p or not os.path.isfile(p) or os.path.islink(p):
        continue
    with open(p, "rb") as f:
        head = f.read(4)
    if any(head.startswith(m) for m in magics):
        print(p + ": executable or object file")
    elif os.path.getsize(p) > 1 << 20 and p not in data:
        print(p + ": %d bytes, over 1 MiB and not listed in tests/data-files.txt" % os.path.getsize(p))
')
if [ -n "$bins" ]; then
    echo "hygiene: tracked build outputs or large files:" >&2
    echo "$bins" | head -20 >&2
    fail=1
else
    echo "hygiene: no executable, object or unlisted file over 1 MiB in $(git ls-files | wc -l) tracked files"
fi
python3 tests/decls/check.py || fail=1  # the bindings' declarations (typed or generated) against include/aead.h
# User documents say what the library does, not how the work on it went (tests/doc_words.py).
python3 tests/doc_words.py || fail=1
python3 tests/decls/choosing.py || fail=1  # every name in docs/choosing.md's table exists in its binding
python3 tests/decls/errors.py || fail=1  # every error-code list against include/aead.h and aead_strerror
python3 tests/decls/floors.py || fail=1  # each binding's oldest accepted libaead against what it calls
python3 tests/decls/abi_tables.py || fail=1  # every export of lib/libaead.map in docs/abi.md's release and thread-safety tables
# The Go binding's generated wrappers of sources.txt, build_config.h and bundled.go (the module zip's bundled build).
bash bindings/go/csrc.sh --check || fail=1
# Every code block of every tracked document: a language the snippet runners build and run (C, Python, Go,
# Rust, Java, JS, in their stages), no-run, data, or a command block marked illustrative or run-by=SCRIPT.
git ls-files -z '*.md' | xargs -0 python3 tests/snippets/extract.py --check || fail=1
python3 bench/tables.py --check || fail=1  # the documents' benchmark tables and quoted ratios against their JSON
python3 bench/figures.py || fail=1  # no performance figure in a document outside those generated blocks
exit $fail
