#!/usr/bin/env python3
"""Runs the code blocks of the user documents (extract.py) of one language against a built binding.

Each program is built (C) and run in a scratch directory. A program without raises= must exit 0; one
with raises=NAME must exit non-zero with NAME in what it printed. Any other outcome fails, naming the
document's file:line. Prints one line per block and a count line: `snippets: 3 c blocks of 3 files ran`.

Usage: run.py --lang c --build DIR FILE...          cc -std=c11 -Wall -Wextra -Werror with ASan (leaks
                                                    too) and UBSan, against include/ and DIR's libaead
       run.py --lang python --python PY FILE...     PY (a venv's python, with the package installed)
       run.py --lang js --node-package DIR FILE...  node, with require('libaead') resolving to DIR
       run.py --lang java --jar JAR FILE...         JAVA_HOME's javac (every lint warning an error) against
                                                    JAR alone, then java with JAR on the class path and
                                                    $JAVA_OPTIONS (e.g. -Dlibaead.library=...)
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
TIMEOUT = 300


def commands(args, name, tmp):
    """The commands that build (none but for C) and run program `name` in tmp."""
    if args.lang == "c":
        exe, build = os.path.join(tmp, name), os.path.abspath(args.build)
        cc = os.environ.get("CC", "cc")
        return [[cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-fsanitize=address,undefined",
                 "-fno-sanitize-recover=all", "-I" + os.path.join(REPO, "include"),
                 "-o", exe, os.path.join(tmp, name + ".c"), "-L" + build, "-laead",
                 "-Wl,-rpath," + build]], [exe]
    if args.lang == "python":
        return [], [args.python, os.path.join(tmp, name + ".py")]
    if args.lang == "java":  # compiled together before the first run (compile_java)
        return [], [os.path.join(os.environ["JAVA_HOME"], "bin", "java"), "--enable-native-access=ALL-UNNAMED",
                    *os.environ.get("JAVA_OPTIONS", "").split(), "-cp", args.jar + ":" + os.path.join(tmp, "classes"), name]
    return [], ["node", os.path.join(tmp, name + ".js")]


def compile_java(args, tmp, listing):
    """Every Java block, a class of its own, compiled in one javac run; a failure names each block's place."""
    args.jar = os.path.abspath(args.jar)
    srcs = sorted(os.path.join(tmp, f) for f in os.listdir(tmp) if f.endswith(".java"))
    r = subprocess.run([os.path.join(os.environ["JAVA_HOME"], "bin", "javac"), "-Xlint:all", "-Werror", "-cp",
                        args.jar, "-d", os.path.join(tmp, "classes"), *srcs], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode:
        where = dict(row.split("\t")[:2] for row in listing.splitlines())
        print(r.stdout, file=sys.stderr)
        for name in sorted(set(re.findall(r"(Snippet_\w*)\.java", r.stdout))):
            print("FAIL %s: does not compile" % where.get(name), file=sys.stderr)
        sys.exit(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--lang", required=True, choices=["c", "python", "js", "java"])
    p.add_argument("--build", help="C: the meson build directory holding libaead.so")
    p.add_argument("--python", help="Python: the interpreter that has the package")
    p.add_argument("--node-package", help="Node.js: the package directory require('libaead') loads")
    p.add_argument("--jar", help="Java: the binding's jar")
    p.add_argument("files", nargs="+")
    args = p.parse_args()
    need = {"c": "build", "python": "python", "js": "node_package", "java": "jar"}[args.lang]
    if not getattr(args, need):
        p.error("--lang %s needs --%s" % (args.lang, need.replace("_", "-")))

    tmp = tempfile.mkdtemp(prefix="snippets-%s-" % args.lang)
    if args.lang == "js":  # require('libaead') from the scratch directory finds the package
        os.makedirs(os.path.join(tmp, "node_modules"))
        os.symlink(os.path.abspath(args.node_package), os.path.join(tmp, "node_modules", "libaead"))
    listing = subprocess.run([sys.executable, os.path.join(HERE, "extract.py"), "--lang", args.lang,
                              "--out", tmp] + args.files, stdout=subprocess.PIPE, text=True)
    if listing.returncode != 0:
        sys.exit("snippets: extract.py failed")
    if args.lang == "java":
        compile_java(args, tmp, listing.stdout)
    failures, per_file = [], {}
    for row in listing.stdout.splitlines():
        name, where, raises = (row.split("\t") + [""])[:3]
        build, run = commands(args, name, tmp)
        problem = None
        for cmd in build:
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if r.returncode != 0:
                problem = "does not compile:\n" + r.stdout
                break
        if problem is None:
            try:
                r = subprocess.run(run, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   timeout=TIMEOUT)
                if not raises and r.returncode != 0:
                    problem = "failed (exit %d):\n%s" % (r.returncode, r.stdout)
                elif raises and r.returncode == 0:
                    problem = "should fail with %s but exited 0:\n%s" % (raises, r.stdout)
                elif raises and raises not in r.stdout:
                    problem = "failed without %s (exit %d):\n%s" % (raises, r.returncode, r.stdout)
            except subprocess.TimeoutExpired:
                problem = "did not finish in %d s" % TIMEOUT
        if problem:
            failures.append("%s: %s block %s" % (where, args.lang, problem))
            print("FAIL %s" % where)
        else:
            print("ok   %s%s" % (where, " (raises %s)" % raises if raises else ""))
        doc = where.rsplit(":", 1)[0]
        per_file[doc] = per_file.get(doc, 0) + 1
    for f in failures:
        print(f, file=sys.stderr)
    if failures:
        print("snippets: %d of %d %s blocks failed (programs kept in %s)" % (
            len(failures), sum(per_file.values()), args.lang, tmp), file=sys.stderr)
        sys.exit(1)
    shutil.rmtree(tmp)
    print("snippets: %d %s blocks of %d files ran (%s)" % (
        sum(per_file.values()), args.lang, len(per_file),
        ", ".join("%s %d" % (f, n) for f, n in per_file.items())))


if __name__ == "__main__":
    main()
