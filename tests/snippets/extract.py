#!/usr/bin/env python3
"""The code blocks of the user documents, as programs a binding's test runs.

A fenced block's info string is its language, then optional words:
  no-run          shows a signature or a fragment that is not meant to run (never extracted)
  whole           a complete program: written as it is, with no prelude
  prelude=NAME    wrapped in tests/snippets/prelude/<lang>-NAME.<ext> instead of <lang>.<ext>
  raises=NAME     the program must fail, and NAME must appear in what it prints
Blocks of a shell language are commands: each is `illustrative` (shown, not run) or `run-by=FILE`, and
then every command line of the block appears verbatim in FILE (checked by --check).

A prelude holds the variables the documents use without declaring them (key, nonce, aad, ...). It marks
where the block goes with a line holding only BODY (as a comment of its language) and where hoisted
imports go with IMPORTS (Go and Java `import` lines, C `#include` lines are hoisted; the others run
where they stand; a Go `import (` group is hoisted up to its `)`, and an import line the prelude already
has is not repeated).

Usage: extract.py --lang LANG --out DIR FILE...   writes DIR/<name>.<ext> (and <name>.raises), prints
                                                  one line per program: name <TAB> file:line <TAB> raises
       extract.py --check FILE...                 every block of FILE is runnable, no-run, illustrative,
                                                  run-by=FILE (verified), or of a data language
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
LANGS = {"c": "c", "python": "py", "go": "go", "rust": "rs", "java": "java", "js": "js"}
SHELLS = {"sh", "bash", "console", "shell"}
DATA = {"text", "toml", "xml", "json", "yaml", "ini", "diff", "csv"}
HOISTED = {"go": re.compile(r"^import\b"), "java": re.compile(r"^import\b"), "c": re.compile(r"^#include\b")}
COMMENT = {"c": "//", "go": "//", "rust": "//", "java": "//", "js": "//", "python": "#"}


def blocks(path):
    """(line of the opening fence, info words, body lines) of each fenced block of path."""
    out, cur = [], None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            m = re.match(r"^(\s*)```(.*)$", line)
            if cur is None and m:
                cur = (n, m.group(2).split(), [], len(m.group(1)))
            elif cur is not None and m and not m.group(2).strip():
                out.append(cur[:3])
                cur = None
            elif cur is not None:
                cur[2].append(line[cur[3]:] if line[:cur[3]].strip() == "" else line)
    if cur is not None:
        sys.exit("%s:%d: unclosed code block" % (path, cur[0]))
    return out


def option(words, name):
    for w in words[1:]:
        if w.startswith(name + "="):
            return w.split("=", 1)[1]
    return None


def hoisted(lang, body):
    """(imports, other lines) of body: imports is a list of import statements, each a list of lines (one
    line, or a whole Go `import (` group up to its `)`)."""
    hoist = HOISTED.get(lang)
    imports, rest, group = [], [], False
    for l in body:
        if group:
            imports[-1].append(l)
            group = l.strip() != ")"
        elif hoist and hoist.match(l):
            imports.append([l])
            group = lang == "go" and l.rstrip().endswith("(")
        else:
            rest.append(l)
    return imports, rest


def program(lang, words, body, prelude_dir):
    if "whole" in words:
        return "\n".join(body) + "\n"
    name = option(words, "prelude")
    ext = LANGS[lang]
    path = os.path.join(prelude_dir, "%s-%s.%s" % (lang, name, ext) if name else "%s.%s" % (lang, ext))
    with open(path, encoding="utf-8") as f:
        template = f.read().split("\n")
    imports, rest = hoisted(lang, body)
    # A one-line import the prelude has already (the same line) is not repeated: Go refuses a second one.
    have = {l.strip() for l in template}
    imports = [l for imp in imports if len(imp) > 1 or imp[0].strip() not in have for l in imp]
    while rest and not rest[0].strip():  # the blank line after hoisted imports
        rest.pop(0)
    marker = COMMENT[lang]
    out = []
    for line in template:
        key = line.strip()
        if key == marker + " IMPORTS":
            out += imports
        elif key == marker + " BODY":
            indent = line[:len(line) - len(line.lstrip())]
            out += [(indent + l) if l else l for l in rest]
        else:
            out.append(line)
    return "\n".join(out)


def extract(args):
    os.makedirs(args.out, exist_ok=True)
    count = 0
    for path in args.files:
        rel = os.path.relpath(os.path.abspath(path), REPO)
        stem = re.sub(r"[^A-Za-z0-9]+", "_", os.path.splitext(rel)[0]).strip("_")
        for line, words, body in blocks(path):
            if not words or words[0] != args.lang or "no-run" in words:
                continue
            name = "%s_L%d" % (stem, line)
            if args.lang == "java":  # a class name: the file's class is Snippet_<name>
                name = "Snippet_" + name
            text = program(args.lang, words, body, os.path.join(HERE, "prelude"))
            if args.lang == "java":
                text = text.replace("class Snippet ", "class %s " % name)
            with open(os.path.join(args.out, name + "." + LANGS[args.lang]), "w", encoding="utf-8") as f:
                f.write(text)
            raises = option(words, "raises") or ""
            if raises:
                with open(os.path.join(args.out, name + ".raises"), "w", encoding="utf-8") as f:
                    f.write(raises + "\n")
            print("%s\t%s:%d\t%s" % (name, rel, line, raises))
            count += 1
    if count == 0:
        sys.exit("extract.py: no %s block in %s" % (args.lang, " ".join(args.files)))


def check(files):
    bad, kinds = [], {"run": 0, "no-run": 0, "data": 0, "illustrative": 0, "run-by": 0}
    for path in files:
        rel = os.path.relpath(os.path.abspath(path), REPO)
        for line, words, body in blocks(path):
            lang0 = words[0] if words else ""
            kinds["no-run" if lang0 in LANGS and "no-run" in words else "run" if lang0 in LANGS else
                  "data" if lang0 in DATA else "illustrative" if "illustrative" in words else "run-by"] += 1
            where = "%s:%d" % (rel, line)
            lang = words[0] if words else ""
            if lang in LANGS or lang in DATA:
                continue
            if lang not in SHELLS:
                bad.append("%s: unknown block language %r" % (where, lang))
            elif "illustrative" in words:
                continue
            elif option(words, "run-by"):
                target = os.path.join(REPO, option(words, "run-by"))
                if not os.path.isfile(target):
                    bad.append("%s: run-by names no file: %s" % (where, option(words, "run-by")))
                    continue
                with open(target, encoding="utf-8") as f:
                    script = f.read()
                for cmd in body:
                    cmd = re.sub(r"\s+#.*$", "", cmd).strip()
                    if cmd and not cmd.startswith("#") and cmd not in script:
                        bad.append("%s: `%s` is not in %s" % (where, cmd, option(words, "run-by")))
            else:
                bad.append("%s: a command block says `illustrative` or `run-by=FILE` in its info" % where)
    for b in bad:
        print(b, file=sys.stderr)
    if not bad:
        print("snippets: %d documents, code blocks: %s" % (len(files), ", ".join("%d %s" % (n, k) for k, n in kinds.items())))
    return 1 if bad else 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--lang", choices=sorted(LANGS))
    p.add_argument("--out")
    p.add_argument("--check", action="store_true")
    p.add_argument("files", nargs="+")
    args = p.parse_args()
    if args.check:
        sys.exit(check(args.files))
    if not args.lang or not args.out:
        p.error("--lang and --out, or --check")
    extract(args)


if __name__ == "__main__":
    main()
