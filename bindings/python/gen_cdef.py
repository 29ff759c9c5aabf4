"""Generates the cffi cdef of libaead from include/aead.h (standard library only).

cffi cannot read the header as it is: its parser takes no preprocessor conditionals, no export macros
and no constant expressions, and ABI mode (``ffi.dlopen``, which never sees the header) needs every
#define as a literal. setup.py writes this module's output into the built package as libaead/_cdef.py
(CDEF, read by _loader.py in ABI mode), ffi_build.py gives the same text to API mode, and
tests/decls/check.py compares it with the header through clang.

The header is a restricted subset of C; anything outside it is an error, never skipped in silence:
  #define AEAD_X <integer constant expression>  -> #define AEAD_X <decimal literal>
  enum { AEAD_X = <expression>, ... };          -> the same, each value a literal
  typedef struct name name;                     -> the same (opaque)
  typedef struct name { <fields> } name;        -> the same
  AEAD_API <type> aead_x(<params>) AEAD_NOEXCEPT; -> <type> aead_x(<params>);
and comments, #include, the include guard, and conditional blocks that hold only the definitions of
AEAD_API / AEAD_NOEXCEPT or C++'s extern "C" braces.

    python3 gen_cdef.py HEADER [OUT]   # the cdef on stdout, or the _cdef.py module into OUT
"""

import ast
import re
import sys
from typing import Dict, List, Optional, Tuple

# Functions of the header that the Python package does not bind: it has no DTLS API (the same entries,
# with the reason, are in the repository's tests/decls/omitted.txt, which check.py holds this list to).
OMITTED = frozenset(("aead_ctx_new_dtls", "aead_dtls13_protect", "aead_dtls13_unprotect"))
# Macros that are not constants of the ABI: the include guard and the declarations' decorations.
NOT_CONSTANTS = frozenset(("AEAD_H", "AEAD_API", "AEAD_NOEXCEPT"))
# <stdint.h> names a constant expression may use.
_STDINT = {"UINT32_MAX": 2**32 - 1, "UINT64_MAX": 2**64 - 1, "INT32_MAX": 2**31 - 1, "INT64_MAX": 2**63 - 1}
_PLAIN_LITERAL = re.compile(r"-?(?:0[xX][0-9a-fA-F]+|[1-9][0-9]*|0)$")


class HeaderError(ValueError):
    """The header has a construct this generator does not translate."""


def _value(expr: str, known: Dict[str, int], where: str) -> int:
    """An integer constant expression of the header: literals with C suffixes, UINTn_C(), <stdint.h>
    limits, earlier constants, + - * / << >> | & and parentheses."""
    text = re.sub(r"\b[U]?INT(?:8|16|32|64)_C\s*\(([^()]*)\)", r"(\1)", expr)
    text = re.sub(r"\b(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]+\b", r"\1", text)
    ops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.Div: lambda a, b: a // b, ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b,
           ast.BitOr: lambda a, b: a | b, ast.BitAnd: lambda a, b: a & b}

    def ev(node: ast.AST) -> int:
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name) and (node.id in known or node.id in _STDINT):
            return known.get(node.id, _STDINT.get(node.id, 0))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = ev(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp) and type(node.op) in ops:
            left, right = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Div) and (left < 0 or right <= 0):
                raise HeaderError("%s: division of negative numbers or by zero in %r" % (where, expr))
            return ops[type(node.op)](left, right)
        raise HeaderError("%s: cannot compute %r (not an integer constant expression of known names)"
                          % (where, expr))

    try:
        value = ev(ast.parse(text.strip(), mode="eval").body)
    except SyntaxError:
        raise HeaderError("%s: cannot compute %r" % (where, expr)) from None
    if not -2**63 <= value < 2**64:
        raise HeaderError("%s: %r is %d, outside 64 bits" % (where, expr, value))
    return value


def _logical_lines(text: str) -> List[Tuple[int, str]]:
    """(line number, line) with comments blanked (newlines kept) and backslash continuations joined."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: " " + "\n" * m.group(0).count("\n"), text, flags=re.S)
    out: List[Tuple[int, str]] = []
    pending: Optional[Tuple[int, str]] = None
    for n, line in enumerate(text.split("\n"), 1):
        if pending is not None:
            n, line = pending[0], pending[1] + " " + line
            pending = None
        if line.endswith("\\"):
            pending = (n, line[:-1])
            continue
        out.append((n, line))
    return out


def _split_top(text: str, sep: str) -> List[str]:
    """text cut at each sep outside braces and parentheses."""
    parts: List[str] = []
    depth, cur = 0, ""
    for c in text:
        depth += (c in "({") - (c in ")}")
        if c == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    return parts


def _declaration(decl: str, constants: Dict[str, int], where: str) -> Optional[str]:
    """One top-level declaration (without its ';', whitespace collapsed) as cdef text, or None if left out."""
    m = re.fullmatch(r"typedef struct (\w+) (\w+)", decl)
    if m and m.group(1) == m.group(2):
        return "typedef struct %s %s;" % (m.group(1), m.group(1))
    m = re.fullmatch(r"typedef struct (\w+) ?\{(.*)\} ?(\w+)", decl)
    if m and m.group(1) == m.group(3):
        fields = [" ".join(f.split()) for f in m.group(2).split(";") if f.strip()]
        for f in fields:
            if not re.fullmatch(r"(const )?\w+( ?\*+ ?| )\w+(, ?\w+)*", f):
                raise HeaderError("%s: struct %s: unsupported field %r" % (where, m.group(1), f))
        return "typedef struct %s {\n%s} %s;" % (m.group(1), "".join("    %s;\n" % f for f in fields), m.group(1))
    m = re.fullmatch(r"enum ?\{(.*)\}", decl)
    if m:
        entries: List[str] = []
        last = -1
        for item in (i.strip() for i in m.group(1).split(",")):
            if not item:
                continue  # a trailing comma
            e = re.fullmatch(r"(AEAD_\w+)(?: ?= ?(.+))?", item)
            if not e:
                raise HeaderError("%s: unsupported enumerator %r" % (where, item))
            name, expr = e.group(1), e.group(2)
            last = _value(expr, constants, where) if expr is not None else last + 1
            constants[name] = last
            entries.append("    %s = %s" % (name, expr if expr and _PLAIN_LITERAL.match(expr) else last))
        return "enum {\n%s\n};" % ",\n".join(entries)
    m = re.fullmatch(r"AEAD_API ((?:const )?\w+ ?\**) ?(aead_\w+) ?\((.*)\) ?AEAD_NOEXCEPT", decl)
    if m:
        ret, name, params = m.group(1).strip(), m.group(2), m.group(3)
        for p in params.split(","):
            if not re.fullmatch(r" ?((const )?\w+( ?\*+ ?| )\w+|void) ?", p):
                raise HeaderError("%s: %s: unsupported parameter %r" % (where, name, p))
        if name in OMITTED:
            return None
        args = ", ".join(p.strip() for p in params.split(","))
        return "%s%s%s(%s);" % (ret, "" if ret.endswith("*") else " ", name, args)
    raise HeaderError("%s: unsupported declaration %r" % (where, decl[:120]))


def cdef_from_header(text: str, name: str = "aead.h") -> str:
    """The cdef for cffi of the header text (name: for error messages)."""
    out: List[str] = []
    constants: Dict[str, int] = {}
    # One entry per open conditional: True for the include guard, whose body is the header itself.
    conditionals: List[bool] = []
    code, code_line = "", 0
    for n, line in _logical_lines(text):
        where = "%s:%d" % (name, n)
        s = " ".join(line.split())
        inside = not all(conditionals)  # in a block other than the include guard: left out
        if s.startswith("#"):
            directive = s[1:].strip()
            word = directive.split(" ", 1)[0]
            if word in ("if", "ifdef", "ifndef"):
                conditionals.append(word == "ifndef" and directive.split()[1:] == ["AEAD_H"] and not conditionals)
            elif word in ("elif", "else"):
                pass
            elif word == "endif":
                if not conditionals:
                    raise HeaderError("%s: #endif without #if" % where)
                conditionals.pop()
            elif word == "include":
                pass  # <stddef.h> and <stdint.h>: cffi knows their types
            elif word == "define":
                m = re.fullmatch(r"define (\w+)(?: (.*))?", directive)
                if not m:
                    raise HeaderError("%s: unsupported #define %r" % (where, s))
                if m.group(1) in NOT_CONSTANTS:
                    continue
                if inside or m.group(2) is None:
                    raise HeaderError("%s: #define %s is not a constant at the top level" % (where, m.group(1)))
                value = _value(m.group(2), constants, where)
                constants[m.group(1)] = value
                out.append("#define %s %d" % (m.group(1), value))
            else:
                raise HeaderError("%s: unsupported directive %r" % (where, s))
            continue
        if inside:
            if s not in ("", 'extern "C" {', "}"):
                raise HeaderError("%s: a declaration inside a conditional block: %r" % (where, s))
            continue
        if s:
            if not code.strip():
                code_line = n
            code += " " + s
        parts = _split_top(code, ";")
        for decl in parts[:-1]:
            decl = " ".join(decl.split())
            decl = re.sub(r" ?([(){},]) ?", lambda m: m.group(1) + (" " if m.group(1) == "," else ""), decl)
            decl = re.sub(r"(\w)\{", r"\1 {", decl)
            cdef = _declaration(decl, constants, "%s:%d" % (name, code_line))
            if cdef is not None:
                out.append(cdef)
            code_line = n
        code = parts[-1]
    if code.strip() or conditionals:
        raise HeaderError("%s: ends inside a declaration or a conditional block" % name)
    return "\n".join(out) + "\n"


def cdef_from_file(path: str) -> str:
    with open(path) as f:
        return cdef_from_header(f.read(), path)


def module_text(cdef: str) -> str:
    """libaead/_cdef.py: the cdef as the module CDEF that _loader.py imports."""
    if "\\" in cdef or '"""' in cdef:
        raise HeaderError("the cdef cannot be written as a plain triple-quoted string")
    return ('"""libaead\'s C declarations for cffi, generated from include/aead.h when the package was '
            'built (gen_cdef.py); do not edit."""\n\nCDEF = """\n%s"""\n' % cdef)


def main(argv: List[str]) -> int:
    if len(argv) not in (2, 3):
        sys.stderr.write("usage: gen_cdef.py HEADER [OUT]\n")
        return 2
    cdef = cdef_from_file(argv[1])
    if len(argv) == 3:
        with open(argv[2], "w") as f:
            f.write(module_text(cdef))
    else:
        sys.stdout.write(cdef)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
