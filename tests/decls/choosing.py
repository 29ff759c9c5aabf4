#!/usr/bin/env python3
"""Checks that every name in docs/choosing.md's table exists in the API its column names.

Each backticked span in a column's cells must be a name (or a path of names: `quic.PacketProtector`,
`dtls::RecordKey::dtls12`), and each part of it must be declared where that column says:

  C       include/aead.h, parsed by clang as tests/decls/check.py does (a function or a constant)
  Go      bindings/go/*.go (not tests): `func Name(`, `func (o Options) Name(`, `type Name`, `var Name`
  Python  bindings/python/src/libaead: `class Name`, `def Name`, or a module Name.py
  Rust    bindings/rust/src: `pub fn|struct|enum|type|mod name`, or a line starting `Name,` (an enum
          variant, or a type that a macro invocation declares)
  Java    bindings/java/src/main: `class Name`, or a method `Name(` declared static or public
  Node    bindings/node/index.js: a key of `module.exports = { ... }`

Plain text in a cell (and "—", no such API) is not checked. Usage: tests/decls/choosing.py
"""

import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check import HEADER, REPO, clang_decls, strip_comments, verdict  # noqa: E402

DOC = "docs/choosing.md"
COLUMNS = ("C", "Go", "Python", "Rust", "Java", "Node")


def read(paths):
    return "\n".join(strip_comments(open(p).read()) for p in sorted(paths))


def sources():
    """column -> (source text, predicate(text, name) -> bool)."""
    hfuncs, hconsts, _ = clang_decls('#include "%s"\n' % HEADER, "include/aead.h")
    go = read(p for p in glob.glob(os.path.join(REPO, "bindings/go/*.go")) if not p.endswith("_test.go"))
    py_dir = os.path.join(REPO, "bindings/python/src/libaead")
    py = read(glob.glob(os.path.join(py_dir, "*.py")))
    py_modules = {os.path.basename(p)[:-3] for p in glob.glob(os.path.join(py_dir, "*.py"))}
    rust = read(glob.glob(os.path.join(REPO, "bindings/rust/src/**/*.rs"), recursive=True))
    java = read(glob.glob(os.path.join(REPO, "bindings/java/src/main/**/*.java"), recursive=True))
    node = strip_comments(open(os.path.join(REPO, "bindings/node/index.js")).read())
    m = re.search(r"^module\.exports\s*=\s*\{(.*?)^\};", node, re.S | re.M)
    exports = set(re.findall(r"(?:^|[,{\s])([A-Za-z_$][\w$]*)\s*(?=[,:}\n])", m.group(1))) if m else set()

    def has(text, *patterns):
        return lambda name: any(re.search(p % re.escape(name), text, re.M) for p in patterns)

    return {
        "C": lambda n: n in hfuncs or n in hconsts,
        "Go": has(go, r"^func %s\(", r"^func \(\w+ \*?\w+\) %s\(", r"^type %s\b", r"^var %s\b"),
        "Python": lambda n: n in py_modules or has(py, r"^\s*class %s\b", r"^\s*def %s\(")(n),
        "Rust": has(rust, r"\bpub(?:\([\w:]+\))? (?:fn|struct|enum|type|mod|trait|const) %s\b", r"^\s*%s\s*,"),
        "Java": has(java, r"\b(?:class|interface|record|enum) %s\b",
                    r"^\s*(?:public|static)\b[^;=()]*\b%s\s*\("),
        "Node": lambda n: n in exports,
    }


def table(text):
    """(line number, {column: cell}) for each data row of the document's first table with our columns."""
    rows, header = [], None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.startswith("|"):
            if header and rows:
                break
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if header is None:
            if all(c in cells for c in COLUMNS):
                header = cells
            continue
        if set("".join(cells)) <= set("-: "):
            continue
        rows.append((n, dict(zip(header, cells))))
    return header, rows


def main():
    text = open(os.path.join(REPO, DOC)).read()
    header, rows = table(text)
    if header is None or not rows:
        sys.exit("choosing: %s has no table with the columns %s" % (DOC, ", ".join(COLUMNS)))
    have = sources()
    failures, checked = [], 0
    for n, row in rows:
        for col in COLUMNS:
            for span in re.findall(r"`([^`]*)`", row.get(col, "")):
                if not re.fullmatch(r"[A-Za-z_]\w*(?:(?:\.|::)[A-Za-z_]\w*)*", span):
                    # Quoted values (a property query such as "fips=yes") are text, not names.
                    if not re.fullmatch(r'"[^"]*"', span):
                        failures.append('%s:%d: %s: `%s` is not a name (write a name, or put it outside backticks)'
                                        % (DOC, n, col, span))
                    continue
                for part in re.split(r"\.|::", span):
                    checked += 1
                    if not have[col](part):
                        failures.append("%s:%d: %s: `%s`: no %s in the %s API" % (DOC, n, col, span, part, col))
    print("choosing: %d rows, %d names checked in %s" % (len(rows), checked, DOC))
    return verdict("choosing", failures, "every name in the table exists in its binding")


if __name__ == "__main__":
    sys.exit(main())
