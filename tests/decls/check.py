#!/usr/bin/env python3
"""Checks the bindings' declarations of the C ABI (hand-typed, or generated from it) against include/aead.h.

The header is parsed by clang (installed by tests/setup.sh): `clang -dM -E` names its macros and
`clang -Xclang -ast-dump=json` gives every function, enum value, struct and, through one enum per
macro, every #define's value as the compiler computes it. Then, per binding:

  rust    libaead::sys, which bindings/rust/build.rs generates from the header (its `mod sys_gen`, std
          only, is compiled here alone with rustc and run; the output is kept in
          bindings/rust/target/decls/sys.rs), with bindings/rust/src/sys.rs's own items: each extern "C"
          fn (name, argument names and types, return type), each `pub const` (value, and that its Rust
          type holds it), each #[repr(C)] struct's fields. Rust cannot name an argument or field `in`:
          `input` stands for it (and `r#final` for `final`).
  python  the cdef bindings/python/gen_cdef.py generates from the header (the built package's _cdef.py
          and its API-mode module's declarations), parsed by clang like the header, then compared
          exactly (argument names and types, return types, constants, struct fields); it must also
          carry every constant and struct of the header.
  java    every FunctionDescriptor passed with an "aead_*" name in bindings/java/src/main (argument
          count, each layout against the C type's size and kind: JAVA_INT, JAVA_LONG, ADDRESS), and
          the int constants whose name is a header constant's without AEAD_ (AEAD_ERR_ in the
          exception classes).
  node    bindings/node/src/addon.cc: each aead_* function it calls exists and gets its number of
          arguments; bindings/node/index.js: the codes, algorithm and policy ids it re-exports, and its
          HPKE ids (Mode, KemId, KdfId, AeadId: @hpke/core's names; the set of values must be the
          header's AEAD_HPKE_MODE_*, _KEM_*, _KDF_*, _AEAD_*, but for ids tests/decls/omitted.txt lists
          for node with the reason).

Every function the header declares must be declared (or called) by every binding, and every algorithm
id, policy and error code defined by Java and Node (Rust's and Python's declarations carry every
constant), unless tests/decls/omitted.txt lists it for that binding with the reason; a binding-only name
that looks like the header's (AEAD_*) must be listed in tests/decls/extra.txt. Stale entries in either file fail too.

The Go binding needs no check: cgo compiles the real header, so a wrong declaration cannot build.

Usage: tests/decls/check.py  (exit status 1 with one line per difference)
"""

import ast
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.join(REPO, "tests", "decls")
HEADER = os.path.join(REPO, "include", "aead.h")
BINDINGS = ("rust", "python", "java", "node")
# Header macros that are not constants of the ABI.
NOT_CONSTANTS = {"AEAD_H", "AEAD_API", "AEAD_NOEXCEPT"}

failures = []
# The members of each enum a text declares, by the enum's first constant: ENUMS[what][first] = [names].
ENUMS = {}
# The header's enums every binding must cover in full (or list what it leaves out in omitted.txt): the
# algorithm ids, the policies and the error codes, by their first constant.
COMPLETE_ENUMS = ("AEAD_AES_128_GCM", "AEAD_POLICY_NONE", "AEAD_ERR_AUTH")


def fail(binding, msg):
    failures.append("%s: %s" % (binding, msg))


_lines = {}


def line_of(path, name):
    """path:line of name's declaration in a file of the repository (its first definition-like use)."""
    if path not in _lines:
        _lines[path] = open(os.path.join(REPO, path)).read().splitlines()
    decl = r"\b(const|fn|struct|typedef|final|int|int64_t|uint32_t|size_t|void|char)\b[^;]*"
    pats = (r"#define\s+%s\b", r"^\s*%s\s*[=:]", decl + r"\b%s\s*[=:(;{,]", r"\b%s\b")
    for pat in (p % re.escape(name) for p in pats):
        for n, line in enumerate(_lines[path], 1):
            if re.search(pat, line):
                return "%s:%d" % (path, n)
    return path


# ---------------------------------------------------------------------------------------------- C


class Type(str):
    """A type in a canonical, Rust-like spelling ('*const u8'), equal by that spelling; `spelled` is how
    the source writes it, for messages."""

    def __new__(cls, canon, spelled):
        t = super().__new__(cls, canon)
        t.spelled = re.sub(r"\s+", " ", spelled.strip())
        return t

    def __str__(self):
        return self.spelled if self.spelled == str.__str__(self) else "%s (%s)" % (self.spelled, str.__str__(self))


def canon_c(qual):
    """A C type as clang spells it, in a Rust-like canonical form: 'const uint8_t *' -> '*const u8'."""
    base = {"int": "i32", "int32_t": "i32", "unsigned int": "u32", "uint32_t": "u32", "int64_t": "i64",
            "long": "i64", "uint64_t": "u64", "unsigned long": "u64", "size_t": "usize", "uint8_t": "u8",
            "unsigned char": "u8", "char": "char", "void": "void"}
    qual = qual.strip()
    if qual.endswith("*"):
        inner = qual[:-1].rstrip()
        # The const of the pointee: 'const T *' or 'T const *'; the pointer's own const does not matter.
        const = False
        if inner.startswith("const "):
            const, inner = True, inner[len("const "):]
        elif inner.endswith(" const") and not inner.endswith("*const"):
            const, inner = True, inner[: -len(" const")]
        if inner.endswith("*const"):
            inner = inner[: -len("const")]
        return ("*const " if const else "*mut ") + canon_c(inner)
    qual = re.sub(r"^(const|struct) ", "", qual)
    return base.get(qual, qual)


def c_type(qual):
    return Type(canon_c(qual), qual)


def constant_value(node):
    """The value clang computed for the first constant expression under node."""
    if node.get("kind") == "ConstantExpr" and "value" in node:
        return int(node["value"])
    for child in node.get("inner", []):
        value = constant_value(child)
        if value is not None:
            return value
    return None


def clang_decls(text, what):
    """Functions, constants and structs that a C text declares (only aead_* / AEAD_* names)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "decls.c")
        with open(src, "w") as f:
            f.write(text)
        try:
            macros = subprocess.run(["clang", "-dM", "-E", "-x", "c", src], capture_output=True, text=True)
        except FileNotFoundError:
            sys.exit("decls: clang not found (tests/setup.sh installs it)")
        if macros.returncode != 0:
            sys.exit("decls: clang cannot preprocess %s:\n%s" % (what, macros.stderr))
        names = []
        for line in macros.stdout.splitlines():
            m = re.match(r"#define (AEAD_\w+) (\S.*)$", line)  # object-like, with a value
            if m and m.group(1) not in NOT_CONSTANTS:
                names.append(m.group(1))
        # One enum per macro: the compiler computes each value (unsigned and 64-bit ones included).
        with open(src, "a") as f:
            f.write("\n" + "".join("enum { aead_decls_macro_%s = (%s) };\n" % (n, n) for n in names))
        dump = subprocess.run(["clang", "-fsyntax-only", "-Wno-everything", "-x", "c", "-Xclang",
                               "-ast-dump=json", src], capture_output=True, text=True)
        if dump.returncode != 0:
            sys.exit("decls: clang cannot parse %s:\n%s" % (what, dump.stderr))
    functions, constants, structs = {}, {}, {}
    last = -1
    for node in json.loads(dump.stdout).get("inner", []):
        name = node.get("name", "")
        if node["kind"] == "FunctionDecl" and name.startswith("aead_"):
            ret = node["type"]["qualType"].split("(")[0]
            params = [(p.get("name", ""), c_type(p["type"]["qualType"]))
                      for p in node.get("inner", []) if p["kind"] == "ParmVarDecl"]
            functions[name] = (c_type(ret), params)
        elif node["kind"] == "EnumDecl":
            last = -1
            members = []
            for c in node.get("inner", []):
                if c["kind"] != "EnumConstantDecl":
                    continue
                # The initializer's value (under any implicit cast); none: one more than the previous.
                value = constant_value(c) if c.get("inner") else last + 1
                last = value
                cname = c["name"].replace("aead_decls_macro_", "")
                if cname.startswith("AEAD_"):
                    constants[cname] = value
                    if not c["name"].startswith("aead_decls_macro_"):
                        members.append(cname)
            if members:  # one of the text's own enums (not one made above for a macro): by its first name
                ENUMS.setdefault(what, {})[members[0]] = members
        elif node["kind"] == "RecordDecl" and name.startswith("aead_"):
            fields = [(c["name"], c_type(c["type"]["qualType"]))
                      for c in node.get("inner", []) if c["kind"] == "FieldDecl"]
            if node.get("completeDefinition") or name not in structs:
                structs[name] = fields if node.get("completeDefinition") else None
    return functions, constants, structs


# ------------------------------------------------------------------------------------ comparisons


def compare_function(binding, name, want, got, path, names=True):
    """want/got: (return type, [(arg name, canonical type)])."""
    (wret, wparams), (gret, gparams) = want, got
    here, there = "%s: %s" % (binding, line_of(path, name)), line_of("include/aead.h", name)
    if len(wparams) != len(gparams):
        fail(here, "%s takes %d arguments here (%s), %d in %s (%s)" % (
            name, len(gparams), ", ".join(n for n, _ in gparams), len(wparams), there,
            ", ".join(n for n, _ in wparams)))
        return
    for i, ((wn, wt), (gn, gt)) in enumerate(zip(wparams, gparams), 1):
        if names and wn != gn:
            fail(here, "%s argument %d is named %s here, %s in %s" % (name, i, gn, wn, there))
        if wt != gt:
            fail(here, "%s argument %d (%s) has type %s here, %s in %s" % (name, i, wn, gt, wt, there))
    if wret != gret:
        fail(here, "%s returns %s here, %s in %s" % (name, gret, wret, there))


def compare_constant(binding, name, value, constants, path, local=None):
    """local: the binding's own name for the constant, where it differs."""
    if name not in constants:
        return False
    if constants[name] != value:
        fail(binding, "%s: %s is %d here, %d in %s" % (
            line_of(path, local or name), name if local is None else "%s (%s)" % (local, name), value,
            constants[name], line_of("include/aead.h", name)))
    return True


def compare_struct(binding, name, want, got, path):
    here, there = "%s: %s" % (binding, line_of(path, name)), line_of("include/aead.h", name)
    if want is None or got is None:
        if (want is None) != (got is None):
            fail(here, "struct %s is %s here, %s in %s" % (
                name, "opaque" if got is None else "defined", "opaque" if want is None else "defined", there))
        return
    wnames, gnames = [n for n, _ in want], [n for n, _ in got]
    if wnames != gnames:
        fail(here, "struct %s has fields (%s) here, (%s) in %s" % (name, ", ".join(gnames), ", ".join(wnames), there))
        return
    for (n, wt), (_, gt) in zip(want, got):
        if wt != gt:
            fail(here, "struct %s field %s has type %s here, %s in %s" % (name, n, gt, wt, there))


# ------------------------------------------------------------------------------------------- Rust

RUST_RANGES = {"i32": (-2**31, 2**31 - 1), "u32": (0, 2**32 - 1), "i64": (-2**63, 2**63 - 1),
               "u64": (0, 2**64 - 1), "usize": (0, 2**64 - 1), "u8": (0, 255)}


def canon_rust(t):
    t = re.sub(r"\s+", " ", t.strip())
    m = re.match(r"^\*(const|mut) (.*)$", t)
    if m:
        return "*%s %s" % (m.group(1), canon_rust(m.group(2)))
    t = t.split("::")[-1]
    return {"c_int": "i32", "c_uint": "u32", "c_char": "char", "c_void": "void", "()": "void"}.get(t, t)


def rust_int(expr):
    """Value of a Rust integer constant expression (literals, u64::MAX and u32::MAX, + - * << >> |,
    parentheses)."""
    expr = expr.replace("u64::MAX", str(2**64 - 1)).replace("u32::MAX", str(2**32 - 1))
    expr = re.sub(r"(?<=\d)_(?=\d)", "", expr)
    expr = re.sub(r"\b(\d+|0x[0-9a-fA-F]+)(u8|u16|u32|u64|u128|usize|i8|i16|i32|i64|i128|isize)\b", r"\1", expr)

    def ev(n):
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        if isinstance(n, ast.BinOp):
            ops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
                   ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b, ast.BitOr: lambda a, b: a | b}
            if type(n.op) in ops:
                return ops[type(n.op)](ev(n.left), ev(n.right))
        raise ValueError(expr)
    return ev(ast.parse(expr, mode="eval"))


def rust_type(t):
    return Type(canon_rust(t), t)


def rust_fields(body):
    return [(n, rust_type(t)) for n, t in re.findall(r"(?:pub\s+)?(\w+)\s*:\s*([^,]+?)\s*(?:,|$)", body)]


RUST_GENERATOR_MAIN = """
fn main() {
    let header = std::fs::read_to_string(std::env::args().nth(1).expect("the header's path")).expect("read the header");
    match sys_gen::generate(&header) {
        Ok(text) => print!("{text}"),
        Err(err) => {
            eprintln!("{err}");
            std::process::exit(1);
        }
    }
}
"""


def rust_generated():
    """The declarations bindings/rust/build.rs writes for src/sys.rs to include: its `mod sys_gen` (std
    only) compiled alone and run on the header, as the crate's build does; the output is written to
    bindings/rust/target/decls/sys.rs (for the messages' line numbers). None after a failure."""
    build_rs = open(os.path.join(REPO, "bindings/rust/build.rs")).read()
    module = re.search(r"^mod sys_gen \{\n.*?^\}\n", build_rs, re.M | re.S)
    if not module:
        fail("rust", "bindings/rust/build.rs has no `mod sys_gen {` ... `}` (at column 0) to compile")
        return None
    rustc = shutil.which("rustc")
    if not rustc:
        fail("rust", "rustc not found: it compiles bindings/rust/build.rs's generator of libaead::sys")
        return None
    work = os.path.join(REPO, "bindings", "rust", "target", "decls")
    os.makedirs(work, exist_ok=True)
    src, exe = os.path.join(work, "sys_gen.rs"), os.path.join(work, "sys_gen")
    with open(src, "w") as f:
        f.write(module.group(0) + RUST_GENERATOR_MAIN)
    # Warnings are cargo's to report (the crate's tests build build.rs with -D warnings).
    built = subprocess.run([rustc, "--edition", "2021", "-A", "warnings", "-o", exe, src], capture_output=True, text=True)
    if built.returncode != 0:
        fail("rust", "bindings/rust/build.rs's mod sys_gen does not compile alone:\n" + built.stderr)
        return None
    ran = subprocess.run([exe, HEADER], capture_output=True, text=True)
    if ran.returncode != 0:
        fail("rust", "bindings/rust/build.rs's generator refuses include/aead.h: " + ran.stderr.strip())
        return None
    with open(os.path.join(work, "sys.rs"), "w") as f:
        f.write(ran.stdout)
    return ran.stdout


def check_rust(header):
    hconsts = header[1]
    path = "bindings/rust/target/decls/sys.rs"
    own = open(os.path.join(REPO, "bindings/rust/src/sys.rs")).read()
    if not re.search(r'^include!\(concat!\(env!\("OUT_DIR"\), "/sys\.rs"\)\);$', own, re.M):
        fail("rust", "bindings/rust/src/sys.rs does not include!(concat!(env!(\"OUT_DIR\"), \"/sys.rs\")), build.rs's output")
    generated = rust_generated()
    if generated is None:
        return {}, {}, {}, path
    # The generated declarations, then src/sys.rs's own (the binding's extras, tests/decls/extra.txt).
    src = re.sub(r"//[^\n]*", "", generated + "\n" + own)
    src = re.sub(r"#\[[^\]]*\]", "", src)
    rename = {"input": "in", "r#final": "final"}  # `in` is a Rust keyword; `final` a reserved one, written raw
    consts = {}
    for name, rtype, expr in re.findall(r"pub const (\w+)\s*:\s*([\w:]+)\s*=\s*([^;]+);", src):
        try:
            consts[name] = (rust_int(expr), canon_rust(rtype))
        except (ValueError, SyntaxError):
            fail("rust", "%s: cannot read the value %r" % (name, expr))
    for name, (value, rtype) in consts.items():
        lo, hi = RUST_RANGES.get(rtype, (None, None))
        if lo is not None and not lo <= hconsts.get(name, value) <= hi:
            fail("rust", "%s: %s has Rust type %s, which cannot hold its value %d (%s)" % (
                line_of(path, name), name, rtype, hconsts[name], line_of("include/aead.h", name)))
    structs = {n: rust_fields(b) for n, b in re.findall(r"pub struct (\w+)\s*\{([^}]*)\}", src)}
    for n, fields in structs.items():
        if fields and all(f.startswith("_") for f, _ in fields):
            structs[n] = None  # opaque: only private marker fields
        else:
            structs[n] = [(rename.get(f, f), t) for f, t in fields]
    funcs = {}
    for block in re.findall(r'extern\s+"C"\s*\{(.*?)\n\}', src, re.S):
        for name, args, ret in re.findall(r"pub (?:unsafe |safe )?fn (\w+)\s*\(([^)]*)\)\s*(?:->\s*([^;]+))?;", block):
            params = [(rename.get(a.split(":")[0].strip(), a.split(":")[0].strip()), rust_type(a.split(":", 1)[1]))
                      for a in args.split(",") if a.strip()]
            funcs[name] = (rust_type(ret or "()"), params)
    return funcs, {n: v for n, (v, _) in consts.items()}, structs, path


# ----------------------------------------------------------------------------------------- Python


def check_python(header):
    # The generator itself, run on the header: a bug in it (a value computed wrong, a declaration
    # mangled or dropped) fails here, not only in a build.
    path = "bindings/python/gen_cdef.py"
    gen = runpy.run_path(os.path.join(REPO, path), run_name="gen_cdef")
    try:
        cdef = gen["cdef_from_file"](HEADER)
    except gen["HeaderError"] as e:
        sys.exit("decls: python: %s cannot translate include/aead.h: %s" % (path, e))
    funcs, consts, structs = clang_decls("#include <stddef.h>\n#include <stdint.h>\n" + cdef, path + "'s cdef")
    _, hconsts, hstructs = header
    for name in sorted(set(hconsts) - set(consts)):
        fail("python", "%s's cdef lacks the constant %s (%s)" % (path, name, line_of("include/aead.h", name)))
    for name in sorted(set(hstructs) - set(structs)):
        fail("python", "%s's cdef lacks struct %s (%s)" % (path, name, line_of("include/aead.h", name)))
    return funcs, consts, structs, path


# ------------------------------------------------------------------------------------------- Java

JAVA_LAYOUT = {"i32": "JAVA_INT", "u32": "JAVA_INT", "i64": "JAVA_LONG", "u64": "JAVA_LONG",
               "usize": "JAVA_LONG", "u8": "JAVA_BYTE", "char": "JAVA_BYTE", "void": "void"}


def layout_of(ctype):
    return "ADDRESS" if ctype.startswith("*") else JAVA_LAYOUT.get(ctype, "?" + ctype)


def strip_comments(text):
    """C-family comments removed, their newlines kept (so that line numbers stay right)."""
    return re.sub(r"//[^\n]*|/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)


def paren_args(text, start):
    """The comma-separated arguments of the call whose '(' is at text[start]."""
    depth, args, cur = 0, [], ""
    for i in range(start, len(text)):
        c = text[i]
        if c == "(":
            depth += 1
            if depth == 1:
                continue
        elif c == ")":
            depth -= 1
            if depth == 0:
                args.append(cur.strip())
                return [a for a in args if a], i
        if depth == 1 and c == ",":
            args.append(cur.strip())
            cur = ""
        else:
            cur += c
    raise ValueError("unbalanced parentheses")


def java_descriptor(expr):
    """(return layout, [argument layouts]) of a FunctionDescriptor.of / ofVoid expression."""
    m = re.match(r"FunctionDescriptor\.(of|ofVoid)\s*\(", expr)
    if not m:
        return None
    args, _ = paren_args(expr, m.end() - 1)
    args = [a.split(".")[-1] for a in args]
    return ("void", args) if m.group(1) == "ofVoid" else (args[0], args[1:])


def check_java(header):
    hconsts = header[1]
    root = "bindings/java/src/main/java"
    funcs, consts = {}, {}
    for dirpath, _, files in os.walk(os.path.join(REPO, root)):
        for fn in sorted(files):
            if not fn.endswith(".java"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, fn), REPO)
            text = strip_comments(open(os.path.join(dirpath, fn)).read())
            named = {}
            for m in re.finditer(r"FunctionDescriptor\s+(\w+)\s*=\s*", text):
                _, end = paren_args(text, text.index("(", m.end()))
                named[m.group(1)] = text[m.end():end + 1]
            for m in re.finditer(r'"(aead_\w+)"\s*,\s*', text):
                rest = text[m.end():]
                ident = re.match(r"(\w+)\s*[,)]", rest)
                expr = named.get(ident.group(1)) if ident and ident.group(1) in named else rest
                desc = java_descriptor(expr)
                if desc is None:
                    fail("java", "%s: no FunctionDescriptor found after \"%s\"" % (rel, m.group(1)))
                    continue
                where = "%s:%d" % (rel, text.count("\n", 0, m.start()) + 1)
                if m.group(1) in funcs and funcs[m.group(1)][:2] != desc:
                    fail("java", "%s: a second, different descriptor for %s" % (where, m.group(1)))
                funcs[m.group(1)] = desc + (where,)
            prefix = "AEAD_ERR_" if fn.endswith("Exception.java") else "AEAD_"
            for decl in re.findall(r"static\s+final\s+(?:int|long)\s+([^;]+);", text):
                for name, value in re.findall(r"(\w+)\s*=\s*(-?\d+)L?\b", decl):
                    if prefix + name in hconsts:
                        consts[prefix + name] = (int(value), rel, name)
    return funcs, consts


def compare_java(header, funcs, consts, omitted, ids):
    hfuncs, hconsts, _ = header
    for name, (ret, args, where) in sorted(funcs.items()):
        here = "java: " + where
        if name not in hfuncs:
            fail(here, "binds %s, which include/aead.h does not declare" % name)
            continue
        wret, wparams = hfuncs[name]
        want = [layout_of(t) for _, t in wparams]
        if len(want) != len(args):
            fail(here, "%s: the descriptor has %d arguments, %s %d (%s)" % (
                name, len(args), line_of("include/aead.h", name), len(want), ", ".join(n for n, _ in wparams)))
        else:
            for i, (w, g, (pn, pt)) in enumerate(zip(want, args, wparams), 1):
                if w != g:
                    fail(here, "%s argument %d (%s, C type %s) is %s in the descriptor; it needs %s" % (
                        name, i, pn, pt, g, w))
        if layout_of(wret) != ret:
            fail(here, "%s returns %s in the descriptor; C type %s needs %s" % (name, ret, wret, layout_of(wret)))
    for name, (value, rel, local) in sorted(consts.items()):
        compare_constant("java", name, value, hconsts, rel, local)
    completeness("java", hfuncs, funcs, omitted, ids)
    return len(funcs), len(consts)


# ------------------------------------------------------------------------------------------- Node


def check_node(header, omitted):
    hfuncs, hconsts, _ = header
    addon = "bindings/node/src/addon.cc"
    text = strip_comments(open(os.path.join(REPO, addon)).read())
    text = re.sub(r'"(\\.|[^"\\])*"', '""', text)
    called = {}
    for m in re.finditer(r"\b(aead_\w+)\s*\(", text):
        name = m.group(1)
        args, _ = paren_args(text, m.end() - 1)
        line = text.count("\n", 0, m.start()) + 1
        if name not in hfuncs:
            fail("node", "%s:%d calls %s, which include/aead.h does not declare" % (addon, line, name))
        elif len(args) != len(hfuncs[name][1]):
            fail("node", "%s:%d calls %s with %d arguments; include/aead.h declares %d" % (
                addon, line, name, len(args), len(hfuncs[name][1])))
        called[name] = True
    index = "bindings/node/index.js"
    js = re.sub(r"//[^\n]*", "", open(os.path.join(REPO, index)).read())
    consts, names = 0, set()
    for name, value in re.findall(r"^const (\w+) = (-?\d+);", js, re.M):
        consts += compare_constant("node", "AEAD_" + name, int(value), hconsts, index, name)
        names.add("AEAD_" + name)
    for obj, prefix in (("ALG", "AEAD_"), ("POLICY", "AEAD_POLICY_")):
        m = re.search(r"^const %s = \{([^}]*)\}" % obj, js, re.M)
        if not m:
            fail("node", "%s: no `const %s = {...}` to check" % (index, obj))
            continue
        for key, value in re.findall(r"(\w+)\s*:\s*(-?\d+)", m.group(1)):
            if not compare_constant("node", prefix + key, int(value), hconsts, index, key):
                fail("node", "%s %s.%s: include/aead.h has no %s" % (index, obj, key, prefix + key))
            consts += 1
            names.add(prefix + key)
    for obj, prefix in (("Mode", "AEAD_HPKE_MODE_"), ("KemId", "AEAD_HPKE_KEM_"), ("KdfId", "AEAD_HPKE_KDF_"),
                        ("AeadId", "AEAD_HPKE_AEAD_")):
        m = re.search(r"^const %s = Object\.freeze\(\{([^}]*)\}" % obj, js, re.M)
        if not m:
            fail("node", "%s: no `const %s = Object.freeze({...})` to check" % (index, obj))
            continue
        got = {int(v, 0): k for k, v in re.findall(r"(\w+)\s*:\s*(0x[0-9a-fA-F]+|\d+)", m.group(1))}
        want = {v: n for n, v in hconsts.items() if n.startswith(prefix)}
        for v in sorted(set(got) ^ set(want)):
            if v in want and ("node", want[v]) in omitted:
                continue
            fail("node", "%s %s: %s" % (index, obj, "%s.%s = %#x is not in include/aead.h" % (obj, got[v], v)
                                        if v in got else "no id for %s (%#x)" % (want[v], v)))
        for v in sorted(set(got) & set(want)):
            if ("node", want[v]) in omitted:
                fail("node", "%s %s.%s: tests/decls/omitted.txt line %d says node leaves out %s" % (
                    index, obj, got[v], omitted[("node", want[v])], want[v]))
        consts += len(got)
    for value, name in re.findall(r"\[(-?\d+)\]\s*:\s*'(AEAD_\w+)'", js) + [
            (v, n) for n, v in re.findall(r"code:\s*'(AEAD_\w+)',\s*aeadCode:\s*(-?\d+)", js)]:
        if not compare_constant("node", name, int(value), hconsts, index) and name != "AEAD_ERR_UNKNOWN":
            fail("node", "%s names %s, which include/aead.h does not define" % (index, name))
        consts += 1
        names.add(name)
    return called, consts, names


# ------------------------------------------------------------------------------------ bookkeeping


def read_list(fname):
    entries = {}
    path = os.path.join(HERE, fname)
    for n, line in enumerate(open(path), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 2)
        if len(parts) < 3 or parts[0] not in BINDINGS:
            fail("decls", "tests/decls/%s:%d: expected `<%s> <name> <reason>`" % (fname, n, "|".join(BINDINGS)))
            continue
        entries[(parts[0], parts[1])] = n
    return entries


def complete_enums():
    """The header's constants of COMPLETE_ENUMS."""
    enums = ENUMS.get("include/aead.h", {})
    for first in COMPLETE_ENUMS:
        if first not in enums:
            fail("decls", "include/aead.h has no enum that starts with %s (tests/decls/check.py's COMPLETE_ENUMS)" % first)
    return [n for first in COMPLETE_ENUMS for n in enums.get(first, [])]


def ids_complete(binding, ids, have, omitted):
    """Each algorithm id, policy and error code of the header (ids) is one the binding defines (have: names),
    or tests/decls/omitted.txt lists it for the binding with the reason. Returns how many it defines."""
    required(binding, ids, have, omitted, "the constant ", "define")
    return sum(name in have for name in ids)


def required(binding, names, have, omitted, kind, verb):
    """Each of names is in have or listed in omitted.txt for the binding, never both (kind, verb: the
    failure's words, e.g. "the constant ", "define")."""
    for name in sorted(names):
        listed = (binding, name) in omitted
        if name not in have and not listed:
            fail(binding, "lacks %s%s (%s): %s it, or list it in tests/decls/omitted.txt with the reason" % (
                kind, name, line_of("include/aead.h", name), verb))
        elif name in have and listed:
            fail(binding, "%ss %s, which tests/decls/omitted.txt line %d says it leaves out" % (
                verb, name, omitted[(binding, name)]))


def completeness(binding, hfuncs, funcs, omitted, ids=()):
    """ids: the header's constants the binding may also list as left out (node's HPKE ids)."""
    required(binding, hfuncs, funcs, omitted, "", "declare")
    for (b, name), line in omitted.items():
        if b == binding and name not in hfuncs and name not in ids:
            fail(binding, "tests/decls/omitted.txt line %d lists %s, which include/aead.h does not declare" % (line, name))


def compare_c_like(binding, header, decl, omitted, extra, names=True):
    hfuncs, hconsts, hstructs = header
    funcs, consts, structs, path = decl
    for name, got in sorted(funcs.items()):
        if name in hfuncs:
            compare_function(binding, name, hfuncs[name], got, path, names)
        elif name.startswith("aead_") and (binding, name) not in extra:
            fail(binding, "%s declares %s, which include/aead.h does not" % (line_of(path, name), name))
    for name, value in sorted(consts.items()):
        known = compare_constant(binding, name, value, hconsts, path)
        if not known and name.startswith("AEAD_") and (binding, name) not in extra:
            fail(binding, "%s defines %s, which include/aead.h does not (a typo? else list it in "
                          "tests/decls/extra.txt)" % (line_of(path, name), name))
    for name, got in sorted(structs.items()):
        if name in hstructs:
            compare_struct(binding, name, hstructs[name], got, path)
        elif name.startswith("aead_") and (binding, name) not in extra:
            fail(binding, "%s declares struct %s, which include/aead.h does not" % (line_of(path, name), name))
    for (b, name), line in extra.items():
        if b == binding and (name in hconsts or name in hfuncs or name in hstructs):
            fail(binding, "tests/decls/extra.txt line %d lists %s, which include/aead.h now has" % (line, name))
    completeness(binding, hfuncs, funcs, omitted)
    return len(funcs), len(consts), len(structs)


def verdict(tag, failures, ok, total=None):
    """Prints each failure on stderr (and `total`, if given, after them) or the `ok` line; the exit status."""
    for line in failures:
        print("%s: FAIL %s" % (tag, line), file=sys.stderr)
    if failures:
        if total:
            print("%s: %s" % (tag, total), file=sys.stderr)
        return 1
    print("%s: %s" % (tag, ok))
    return 0


def main():
    header = clang_decls('#include "%s"\n' % HEADER, "include/aead.h")
    hfuncs, hconsts, hstructs = header
    if not hfuncs or not hconsts:
        sys.exit("decls: found no declarations in include/aead.h")
    omitted, extra = read_list("omitted.txt"), read_list("extra.txt")
    summary = []
    for binding, reader in (("rust", check_rust), ("python", check_python)):
        f, c, s = compare_c_like(binding, header, reader(header), omitted, extra)
        summary.append("%s %d functions, %d constants, %d structs" % (binding, f, c, s))
    ids = complete_enums()
    # Java's Algs.aes and Node's aesAlg take an AES family's 192- and 256-bit ids as its 128-bit id + 1, + 2.
    for name in sorted(n for n in hconsts if n.startswith("AEAD_AES_128_")):
        for bits, step in (("192", 1), ("256", 2)):
            other = name.replace("_128_", "_%s_" % bits)
            if hconsts.get(other) != hconsts[name] + step:
                fail("decls", "include/aead.h: %s is not %s + %d, as the Java and Node bindings take it to be" % (
                    other, name, step))
    java_funcs, java_consts = check_java(header)
    jf, jc = compare_java(header, java_funcs, java_consts, omitted, ids)
    ji = ids_complete("java", ids, java_consts, omitted)
    summary.append("java %d descriptors, %d constants" % (jf, jc))
    called, nc, node_names = check_node(header, omitted)
    completeness("node", hfuncs, called, omitted,
                 ids + [n for n in hconsts if re.match(r"AEAD_HPKE_(MODE|KEM|KDF|AEAD)_", n)])
    ni = ids_complete("node", ids, node_names, omitted)
    summary.append("node %d functions called, %d constants" % (len(called), nc))
    summary.append("of the %d algorithm ids, policies and error codes java defines %d, node %d, the rest "
                   "listed" % (len(ids), ji, ni))
    print("decls: include/aead.h has %d functions, %d constants, %d structs; checked %s" % (
        len(hfuncs), len(hconsts), len(hstructs), "; ".join(summary)))
    return verdict("decls", failures, "every binding agrees with include/aead.h",
                   "%d difference(s) between include/aead.h and the bindings' declarations" % len(failures))


if __name__ == "__main__":
    sys.exit(main())
