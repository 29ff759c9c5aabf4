#!/usr/bin/env python3
"""Checks every list of libaead's error codes against include/aead.h and the library's aead_strerror.

The codes (AEAD_ERR_* and their values) come from the header through clang, as tests/decls/check.py
reads it; each code's text comes from aead_strerror in the built library (build/libaead.so.1, or
$AEAD_BUILD_DIR; built here with meson when missing or out of date). Then:

  docs/abi.md   the table between <!-- errors:begin --> and <!-- errors:end --> must be the one this
                script generates (code, name, release, the header's comment, aead_strerror's text);
                `tests/decls/errors.py --write` regenerates it.
  documents     every AEAD_ERR_* named in a tracked Markdown file or a binding's source must exist, and a
                value written next to one (`AEAD_ERR_FORKED` -17, `_LIMIT` -16) must be its value.
  rust          src/error.rs: one Error variant per code, from_code and code() mapping each code to the
                variant its doc comment names, both ways; README.md's error table: every code, and each
                variant with its code.
  node          index.js: CODE_NAMES maps every code to its name with its value; each `case -N` is a code.
  java          the AEAD_ERR_* constants of the exception classes name the code their comment names, with
                its value; each `case -N` / `code == -N` is a code.
  python        src/libaead/_errors.py: EXCEPTIONS maps every code (by name) to the exception type a call of
                an AEAD class raises; README.md's Errors table (| exception | codes | ... |) lists every
                code once, in a row that names that type.
  go            aead.go: sentinels maps every code (C.AEAD_ERR_*) to the sentinel errors an *Error of it
                matches (errors.Is); README.md's table (| codes | `errors.Is` matches |) lists every code
                once, in a row naming exactly those sentinels.

A binding list that leaves a code out on purpose is named in NOT_LISTED below with the reason; a stale
entry fails. Usage: tests/decls/errors.py [--write]   (exit status 1 with one line per difference)
"""

import ctypes
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check import HEADER, REPO, clang_decls, strip_comments, verdict  # noqa: E402

DOC = "docs/abi.md"
BEGIN, END = "<!-- errors:begin -->", "<!-- errors:end -->"
# (binding, code) -> why that binding's list does not carry the code.
NOT_LISTED: dict = {
    ("go", "AEAD_ERR_STREAM_FINISHED"): "aead.go builds against libaead 1.6's header (system.go's floor), "
    "which has no such code; an *Error of it matches no sentinel, as README.md's table says",
}
# Names a binding gives a code the library does not have (a newer library's unknown code).
OWN_NAMES = {"AEAD_ERR_UNKNOWN": "bindings/node/index.js"}

failures = []


def fail(where, msg):
    failures.append("%s: %s" % (where, msg))


def rel(path):
    return os.path.relpath(path, REPO)


def line_no(text, pos):
    return text.count("\n", 0, pos) + 1


# ------------------------------------------------------------------------------- the library's texts


def library():
    """The built libaead, compiled first (meson is quick when nothing changed) so that its texts are the
    sources' and not an older build's."""
    build = os.environ.get("AEAD_BUILD_DIR", os.path.join(REPO, "build"))
    try:
        if not os.path.exists(os.path.join(build, "build.ninja")):
            subprocess.run(["meson", "setup", build], cwd=REPO, check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["meson", "compile", "-C", build, "aead"], cwd=REPO, check=True, stdout=subprocess.DEVNULL)
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit("errors: cannot build libaead in %s (%s): aead_strerror's texts are needed" % (build, e))
    path = os.path.join(build, "libaead.so.1")
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        sys.exit("errors: cannot load %s: %s" % (path, e))
    lib.aead_strerror.argtypes = [ctypes.c_int64]
    lib.aead_strerror.restype = ctypes.c_char_p
    return lambda code: lib.aead_strerror(code).decode("utf-8")


# ------------------------------------------------------------------------------------- the header


def header_codes():
    """{name: value} of AEAD_ERR_*, and {name: (release, comment)} from the header's enum comments."""
    _, hconsts, _ = clang_decls('#include "%s"\n' % HEADER, "include/aead.h")
    codes = {n: v for n, v in hconsts.items() if n.startswith("AEAD_ERR_")}
    text = open(HEADER).read()
    notes = {}
    for m in re.finditer(r"\b(AEAD_ERR_\w+)\s*=\s*-?\d+\s*,?\s*/\*(.*?)\*/", text, re.S):
        comment = re.sub(r"\s+", " ", m.group(2)).strip()
        since = re.match(r"since (\d+\.\d+);\s*", comment)
        notes[m.group(1)] = (since.group(1), comment[since.end():]) if since else ("", comment)
    for name in codes:
        if name not in notes:
            fail("include/aead.h", "%s has no comment of the form /* since 1.N; meaning */" % name)
    return codes, notes


def cell(text):
    return text.replace("|", "\\|")


def generated_table(codes, notes, strerror):
    out = ["| code | name | since | meaning (include/aead.h) | `aead_strerror` |", "|---:|---|---|---|---|"]
    for name, value in sorted(codes.items(), key=lambda kv: -kv[1]):
        since, meaning = notes.get(name, ("", ""))
        out.append("| %d | `%s` | %s | %s | %s |" % (value, name, since, cell(meaning), cell(strerror(value))))
    return "\n".join(out)


def check_doc_table(table, write):
    path = os.path.join(REPO, DOC)
    text = open(path).read()
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        fail(DOC, "needs one %s ... %s pair around the error table" % (BEGIN, END))
        return
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    want = "\n" + table + "\n"
    if text[start:end] == want:
        return
    if write:
        with open(path, "w") as f:
            f.write(text[:start] + want + text[end:])
        print("errors: wrote the table of %s" % DOC)
        return
    have = text[start:end].strip("\n").splitlines()
    wanted = want.strip("\n").splitlines()
    first = line_no(text, start) + 1
    for i in range(max(len(have), len(wanted))):
        h = have[i] if i < len(have) else "(nothing)"
        w = wanted[i] if i < len(wanted) else "(nothing)"
        if h != w:
            fail("%s:%d" % (DOC, first + i), "the error table says\n    %s\n  the header and library give\n    %s\n"
                 "  (tests/decls/errors.py --write regenerates it)" % (h, w))


# ------------------------------------------------------------------------------ names and values


NAME = re.compile(r"\bAEAD_ERR_[A-Z0-9_]*[A-Z0-9]\b")
# A full name, or a `_SUFFIX` shorthand after one, then a value written next to it (not a range "-3 .. -9").
PAIR = re.compile(r"(AEAD_ERR_[A-Z0-9_]*[A-Z0-9]|`_[A-Z0-9_]*[A-Z0-9]`)`?\s*(?:[/,(:=]|->)?\s*(-\d+)\b(?!\s*\.\.)")


def resolve(short, last, codes):
    """`_LIMIT` after AEAD_ERR_NONCE_ORDER: AEAD_ERR_NONCE_LIMIT (the longest prefix of the last full
    name that makes a code)."""
    parts = last.split("_")
    for i in range(len(parts) - 1, 1, -1):
        name = "_".join(parts[:i]) + short
        if name in codes:
            return name
    return None


def check_names(codes, path, text, pairs):
    for m in NAME.finditer(text):
        name = m.group(0)
        if name not in codes and OWN_NAMES.get(name) != rel(path):
            fail("%s:%d" % (rel(path), line_no(text, m.start())), "%s: include/aead.h has no such code" % name)
    if not pairs:
        return
    for line_index, line in enumerate(text.splitlines(), 1):
        last = None
        for m in PAIR.finditer(line):
            token, value = m.group(1), int(m.group(2))
            if token.startswith("AEAD_ERR_"):
                name, last = token, token
            else:
                name = resolve(token.strip("`"), last, codes) if last else None
                if name is None:
                    continue
            if name in codes and codes[name] != value:
                fail("%s:%d" % (rel(path), line_index), "%s is written as %d; include/aead.h has %d" % (
                    token.strip("`"), value, codes[name]))


def documents_and_sources(codes):
    files = subprocess.run(["git", "-C", REPO, "ls-files", "-z", "--", "*.md", "bindings"],
                           capture_output=True, text=True, check=True).stdout.split("\0")
    count = 0
    for f in files:
        if not f or not os.path.isfile(os.path.join(REPO, f)):
            continue
        is_doc = f.endswith(".md")
        if not is_doc and not re.search(r"\.(go|py|rs|java|js|c|cc|h|ts)$", f):
            continue
        if f.startswith("bindings/go/csrc_") or "/vendor/" in f:
            continue  # copies of lib/ made by csrc.sh: not a binding's own list
        try:
            text = open(os.path.join(REPO, f), encoding="utf-8").read()
        except UnicodeDecodeError:
            continue
        count += 1
        check_names(codes, os.path.join(REPO, f), text, pairs=is_doc)
    return count


# ---------------------------------------------------------------------------------------- bindings


def listed(binding, names, codes, where):
    """Every code is in names, or NOT_LISTED says why not."""
    for name in sorted(codes, key=lambda n: -codes[n]):
        skip = (binding, name) in NOT_LISTED
        if name not in names and not skip:
            fail(where, "has no entry for %s (%d)" % (name, codes[name]))
        elif name in names and skip:
            fail(where, "has %s, which tests/decls/errors.py NOT_LISTED says it leaves out: remove that entry" % name)


def table_rows(path, header):
    """The rows (lists of cells) of the table of path whose header line matches the regex header."""
    m = re.search(r"^" + header + r".*?\n((?:\|.*\n)+)", open(os.path.join(REPO, path)).read(), re.M)
    if not m:
        fail(path, "no table whose header matches %s" % header)
        return []
    rows = []
    for row in m.group(1).splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", row.strip().strip("|"))]
        if cells and not set(cells[0]) <= set("-: "):
            rows.append(cells)
    return rows


def cell_codes(cell, codes):
    """The codes a table cell names in backquotes: `AEAD_ERR_X`, or `_Y` after one (AEAD_ERR_Y)."""
    names, last = [], None
    for token in re.findall(r"`(\w+)`", cell):
        if token.startswith("AEAD_ERR_"):
            names.append(token)
            last = token
        elif token.startswith("_") and last:
            names.append(resolve(token, last, codes) or token)
    return names


def table_codes(readme, header, col, codes):
    """{code: its row (cells)} of the error table of readme whose column col lists codes: every code, once."""
    where = {}
    for cells in table_rows(readme, header):
        for name in cell_codes(cells[col] if col < len(cells) else "", codes):
            if name in where:
                fail(readme, "the error table lists %s twice" % name)
            where[name] = cells
    listed("readme", where, codes, readme + " error table")
    return where


def binding_map(binding, path, text, name, block, entry, codes):
    """{code: value} of the entries (regex entry: code, value) of the binding's list of the codes, the
    variable name in path's text (regex block, group 1: its body): every code, once, or NOT_LISTED
    says why not."""
    m = re.search(block, text, re.S | re.M)
    if not m:
        fail(path, "no %s = { ... }" % name)
        return {}
    found = {}
    for code, value in re.findall(entry, m.group(1)):
        if code in found:
            fail(path, "%s names %s twice" % (name, code))
        found[code] = value
    listed(binding, found, codes, path + " " + name)
    return found


def check_python(codes):
    path = "bindings/python/src/libaead/_errors.py"
    text = re.sub(r"#[^\n]*", "", open(os.path.join(REPO, path)).read())
    kinds = binding_map("python", path, text, "EXCEPTIONS", r"^EXCEPTIONS\b[^=]*=\s*\{(.*?)^\}",
                        r'"(AEAD_ERR_\w+)"\s*:\s*(\w+)\s*,', codes)
    readme = "bindings/python/README.md"
    for name, cells in sorted(table_codes(readme, r"\| exception \| codes \|", 1, codes).items()):
        kind = kinds.get(name)
        row = " | ".join(cells[:1] + cells[2:])
        if kind and not re.search(r"`(?:[\w.]+\.)?%s\b" % re.escape(kind), row):
            fail(readme, "the error table's row of %s names no %s (EXCEPTIONS maps it to %s)" % (name, kind, kind))


def check_go(codes):
    path = "bindings/go/aead.go"
    found = binding_map("go", path, strip_comments(open(os.path.join(REPO, path)).read()),
                        "sentinels", r"^var sentinels = map\[int\]\[\]error\{(.*?)^\}",
                        r"C\.(AEAD_ERR_\w+)\s*:\s*(nil|\{[^}]*\})\s*,", codes)
    # A code the map leaves out (NOT_LISTED) matches no sentinel either.
    matches = {name: set(re.findall(r"[\w.]+", value.strip("{}"))) - {"nil"} for name, value in found.items()}
    readme = "bindings/go/README.md"
    for name, cells in sorted(table_codes(readme, r"\| codes \| `errors\.Is` matches \|", 0, codes).items()):
        said = set(re.findall(r"`([\w.]*Err\w*)`", cells[1] if len(cells) > 1 else ""))
        if said != matches.get(name, set()):
            fail(readme, "the error table gives %s %s; aead.go's sentinels %s" % (
                name, ", ".join(sorted(said)) or "none", ", ".join(sorted(matches.get(name, ()))) or "none"))


def check_rust(codes):
    path = "bindings/rust/src/error.rs"
    text = strip_comments(re.sub(r"///[^\n]*", lambda m: m.group(0).replace("//", "@@"), open(os.path.join(REPO, path)).read()))
    enum = re.search(r"pub enum Error \{(.*?)\n\}", text, re.S)
    if not enum:
        fail(path, "no `pub enum Error { ... }`")
        return
    documented = {}  # variant -> code its doc comment names first
    doc = None
    for line in enum.group(1).splitlines():
        m = re.match(r"\s*@@/ `(AEAD_ERR_\w+)`", line)
        if m and doc is None:
            doc = m.group(1)
        v = re.match(r"\s*([A-Z]\w*)\s*[,(]", line)
        if v:
            if doc:
                documented[v.group(1)] = doc
            doc = None
    from_code = dict(re.findall(r"sys::(AEAD_ERR_\w+)\s*=>\s*Error::(\w+)", text))
    to_code = {v: c for v, c in re.findall(r"Error::(\w+)\s*=>\s*sys::(AEAD_ERR_\w+)", text)}
    listed("rust", set(documented.values()), codes, path + " enum Error")
    listed("rust", set(from_code), codes, path + " Error::from_code")
    listed("rust", set(to_code.values()), codes, path + " Error::code")
    for variant, code in sorted(documented.items()):
        if from_code.get(code) != variant:
            fail(path, "from_code maps %s to %s; the variant documented as %s is %s" % (
                code, from_code.get(code), code, variant))
        if to_code.get(variant) != code:
            fail(path, "Error::%s.code() is %s; its doc comment says %s" % (variant, to_code.get(variant), code))
    readme = "bindings/rust/README.md"
    rtext = open(os.path.join(REPO, readme)).read()
    m = re.search(r"^\| variant \| code \|.*?\n((?:\|.*\n)+)", rtext, re.M)
    if not m:
        fail(readme, "no error table (| variant | code | ...)")
        return
    in_table = set()
    for row in m.group(1).splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) < 2 or set(cells[0]) <= set("-: "):
            continue
        variants = re.findall(r"`(\w+)(?:\([^)]*\))?`", cells[0])
        names, last = [], None
        for token in re.findall(r"`(\w+)`", cells[1]):
            name = token if token.startswith("AEAD_ERR_") else resolve(token, last, codes) if last else None
            last = token if token.startswith("AEAD_ERR_") else last
            names.append(name or token)
        in_table.update(names)
        if names and len(names) != len(variants):
            fail(readme, "row %s: %d variants, %d codes" % (cells[0], len(variants), len(names)))
            continue
        for variant, name in zip(variants, names):
            if to_code.get(variant) != name:
                fail(readme, "the error table pairs %s with %s; src/error.rs with %s" % (variant, name, to_code.get(variant)))
    listed("rust", in_table, codes, readme + " error table")


def check_node(codes):
    path = "bindings/node/index.js"
    text = strip_comments(open(os.path.join(REPO, path)).read())
    m = re.search(r"const CODE_NAMES = \{(.*?)\};", text, re.S)
    if not m:
        fail(path, "no `const CODE_NAMES = { ... }`")
        return
    names = {}
    for value, name in re.findall(r"\[(-?\d+)\]\s*:\s*'(\w+)'", m.group(1)):
        names[name] = int(value)
        if name in codes and codes[name] != int(value):
            fail(path, "CODE_NAMES maps %s to %s; include/aead.h has %d" % (value, name, codes[name]))
    listed("node", names, codes, path + " CODE_NAMES")
    check_literals(codes, path, text, r"\bcase\s+(-\d+)\s*:")


def check_literals(codes, path, text, pattern):
    values = set(codes.values())
    for m in re.finditer(pattern, text):
        if int(m.group(1)) not in values:
            fail("%s:%d" % (path, line_no(text, m.start())), "%s is not an AEAD_ERR_* value" % m.group(1))


def check_java(codes):
    for f in sorted(glob.glob(os.path.join(REPO, "bindings/java/src/main/java/**/*.java"), recursive=True)):
        raw = open(f).read()
        for m in re.finditer(r"/\*\*\s*(AEAD_ERR_\w+)\b[^*]*\*/\s*public static final int (\w+)\s*=\s*(-?\d+);", raw):
            where = "%s:%d" % (rel(f), line_no(raw, m.start()))
            code, const, value = m.group(1), m.group(2), int(m.group(3))
            if code != "AEAD_ERR_" + const:
                fail(where, "%s is documented as %s" % (const, code))
            if code in codes and codes[code] != value:
                fail(where, "%s = %d; include/aead.h has %s = %d" % (const, value, code, codes[code]))
        check_literals(codes, rel(f), strip_comments(raw), r"\b(?:case\s+|code\s*==\s*)(-\d+)\b")


def main():
    write = "--write" in sys.argv[1:]
    codes, notes = header_codes()
    if not codes:
        sys.exit("errors: found no AEAD_ERR_* codes in include/aead.h")
    strerror = library()
    unknown, seen = strerror(min(codes.values()) - 1000), {}
    for name, value in sorted(codes.items(), key=lambda kv: -kv[1]):
        text = strerror(value)
        if text == unknown:
            fail("lib/abi.cpp", "aead_strerror(%d) gives %s the unknown code's text %r" % (value, name, text))
        elif text in seen:
            fail("lib/abi.cpp", "aead_strerror gives %s and %s the same text %r" % (seen[text], name, text))
        seen[text] = name
    check_doc_table(generated_table(codes, notes, strerror), write)
    files = documents_and_sources(codes)
    check_rust(codes)
    check_node(codes)
    check_java(codes)
    check_python(codes)
    check_go(codes)
    print("errors: include/aead.h has %d codes (%d to %d); checked %s's table, %d documents and binding "
          "sources, the Rust, Node, Java, Python and Go lists" % (len(codes), max(codes.values()), min(codes.values()), DOC, files))
    return verdict("errors", failures, "every error list agrees with include/aead.h and aead_strerror")


if __name__ == "__main__":
    sys.exit(main())
