#!/usr/bin/env python3
"""Builds and runs the Go code blocks of user documents (tests/snippets/extract.py --lang go).

The blocks (preludes in tests/snippets/prelude/go*.go) go into a scratch module that requires the module
of PACKAGE_DIR (the package the documents use), replaced by the checkout, with that module's own
requirements and go.sum:
  - a block with prelude=example (Example functions) is a _test.go file of one package per document, so
    that helpers one block defines serve the next; `go test` runs every Example with an `// Output:`
    comment and checks what it prints. The README says these blocks are the binding's example files:
    each function in them must also be, verbatim, in a _test.go file of PACKAGE_DIR.
  - any other block is a main package, built and run; with raises=NAME it must fail and print NAME.
Every file is gofmt-clean and go-vetted. A failure names the document's file:line.

Usage: go.py PACKAGE_DIR FILE...   (after sourcing bindings/go/env.sh: the stage's GOFLAGS, pkg-config and
                                    library paths, so that the binding is the one the stage built)
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd, cwd, **kw):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def must(cmd, cwd, what):
    r = run(cmd, cwd)
    if r.returncode:
        sys.exit(f"{r.stdout}FAIL: {what}")
    return r.stdout


def scratch_module(mod, module_dir):
    """The go.mod and go.sum of module_dir, its relative replaces made absolute, plus itself."""
    os.makedirs(mod)
    for f in ("go.mod", "go.sum"):
        if os.path.exists(os.path.join(module_dir, f)):
            shutil.copy(os.path.join(module_dir, f), mod)
    spec = json.loads(must(["go", "mod", "edit", "-json"], mod, "go mod edit"))
    edits = ["-module=snippets", f"-require={spec['Module']['Path']}@v0.0.0",
             f"-replace={spec['Module']['Path']}={module_dir}"]
    edits += [f"-replace={r['Old']['Path']}={os.path.realpath(os.path.join(module_dir, r['New']['Path']))}"
              for r in spec.get("Replace") or [] if r["New"]["Path"].startswith(".")]
    must(["go", "mod", "edit", *edits], mod, "go mod edit")


def main():
    package_dir, docs = os.path.realpath(sys.argv[1]), sys.argv[2:]
    module_dir = os.path.dirname(must(["go", "env", "GOMOD"], package_dir, "go env GOMOD").strip())
    tmp = tempfile.mkdtemp(prefix="libaead-snippets-go.")
    try:
        return blocks(package_dir, module_dir, docs, tmp)
    finally:
        shutil.rmtree(tmp)


def blocks(package_dir, module_dir, docs, tmp):
    listing = must([sys.executable, os.path.join(HERE, "extract.py"), "--lang", "go", "--out", f"{tmp}/src", *docs],
                   None, "extract.py")
    rows = [(line.split("\t") + [""])[:3] for line in listing.splitlines()]
    where = {name: loc for name, loc, _ in rows}
    mod = f"{tmp}/mod"
    scratch_module(mod, module_dir)
    programs, examples, fail = [], [], False
    for name, loc, raises in rows:
        src = open(f"{tmp}/src/{name}.go").read()
        if re.search(r"^package snippets_test$", src, re.M):
            if raises:
                sys.exit(f"FAIL {loc}: raises= is for a program, not for Example functions")
            dest = f"{mod}/ex/{re.sub(r'_L[0-9]+$', '', name)}/{name}_test.go"
            examples.append(name)
        else:
            dest = f"{mod}/p/{name}/main.go"
            programs.append((name, loc, raises))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copy(f"{tmp}/src/{name}.go", dest)

    for f in subprocess.run(["gofmt", "-l", "."], cwd=mod, stdout=subprocess.PIPE, text=True).stdout.split():
        n = os.path.basename(f).removesuffix(".go").removesuffix("_test")
        n = os.path.basename(os.path.dirname(f)) if n == "main" else n
        print(f"FAIL {where.get(n)}: not gofmt-formatted:\n{run(['gofmt', '-d', f], mod).stdout}", file=sys.stderr)
        fail = True
    must(["go", "vet", "./..."], mod, f"go vet on the blocks of {' '.join(docs)}")

    # The Example blocks are the binding's example files: each function, verbatim.
    tests = "".join(open(f).read() for f in glob.glob(os.path.join(package_dir, "*_test.go")))
    for name in examples:
        src = open(f"{mod}/ex/{re.sub(r'_L[0-9]+$', '', name)}/{name}_test.go").read()
        for f in re.findall(r"^(?://[^\n]*\n)*func [^\n]*\{\n(?:[^\n]*\n)*?\}\n", src, re.M):
            if f not in tests:
                func = re.search(r"func \w+", f).group(0)
                print(f"FAIL {where[name]}: {func} is not verbatim in a _test.go"
                      f" file of {package_dir}", file=sys.stderr)
                fail = True

    ran_examples = compiled_only = 0
    for d in sorted(glob.glob(f"{mod}/ex/*/")):
        r = run(["go", "test", "-count=1", "-v", "./" + os.path.relpath(d, mod)], mod)
        out, defined = r.stdout, "".join(open(f).read() for f in glob.glob(d + "*_test.go"))
        if r.returncode:
            print(out, file=sys.stderr)
            for f in re.findall(r"^--- FAIL: (Example\w*)", out, re.M):
                file = next(g for g in sorted(glob.glob(d + "*_test.go")) if f"\nfunc {f}()" in "\n" + open(g).read())
                print(f"FAIL {where[os.path.basename(file).removesuffix('_test.go')]}: {f}", file=sys.stderr)
            fail = True
        ran_examples += len(re.findall(r"^--- PASS: Example", out, re.M))
        compiled_only += len(re.findall(r"^func Example", defined, re.M)) - len(re.findall(r"^=== RUN   Example", out, re.M))

    if programs:
        must(["go", "build", "-o", f"{tmp}/bin/", "./p/..."], mod, f"go build of the blocks of {' '.join(docs)}")
    for name, loc, raises in programs:
        try:
            r = run([f"{tmp}/bin/{name}"], mod, timeout=120)
            out, rc = r.stdout, r.returncode
        except subprocess.TimeoutExpired as e:
            out, rc = e.stdout if isinstance(e.stdout, str) else (e.stdout or b"").decode(errors="replace"), 124
        if (rc != 0) if not raises else (rc == 0 or raises not in out):
            print(out, file=sys.stderr)
            print(f"FAIL {loc}: " + (f"expected a failure printing {raises} (exit {rc})" if raises else f"exit {rc}"),
                  file=sys.stderr)
            fail = True
        else:
            print(f"ok {loc}{f' (fails with {raises}, as it should)' if raises else ''}: {out[:300].replace(chr(10), ' ')}")

    if fail:
        sys.exit(f"FAIL: Go blocks of {' '.join(docs)}")
    files = sorted({loc.rsplit(":", 1)[0] for _, loc, _ in rows})
    for f in files:
        print(f"   {f}: {sum(loc.rsplit(':', 1)[0] == f for _, loc, _ in rows)} go blocks")
    print(f"snippets: {len(rows)} go blocks of {len(files)} files ran ({len(programs)} programs; {len(examples)} blocks"
          f" of Example functions: {ran_examples} examples run with their output checked, {compiled_only} without"
          " an // Output: comment compiled only)")


if __name__ == "__main__":
    main()
