#!/usr/bin/env python3
"""Builds and runs the Rust code blocks of user documents (tests/snippets/extract.py --lang rust).

Each block becomes an example of a scratch crate that depends on CRATE by path and on CRATE's own
dependencies and dev-dependencies (features merged as cargo merges them for CRATE's tests, versions
from CRATE's Cargo.lock). The scratch crate lives in the target directory and builds there, so
what the stage already compiled (the dependencies, CRATE itself) is reused: only the examples are
new. Every example is built (RUSTFLAGS of the stage, so warnings are errors), then run: it must exit
0, or for a `raises=NAME` block fail with NAME in its output. A failure names the document's
file:line. Ends with `snippets: N rust blocks of M files ran`.

Usage: rust.py --crate DIR [--self 'default-features = false, features = ["alloc"]'] FILE...
       (CARGO_TARGET_DIR: the stage's target directory; default DIR/target)
"""
import argparse
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    return json.dumps(v)


def dependencies(crate, self_spec):
    """CRATE's [dependencies] and [dev-dependencies] merged, paths absolute, as TOML lines."""
    with open(os.path.join(crate, "Cargo.toml"), "rb") as f:
        manifest = tomllib.load(f)
    merged = {}
    for section in ("dependencies", "dev-dependencies"):
        for name, spec in manifest.get(section, {}).items():
            spec = {"version": spec} if isinstance(spec, str) else dict(spec)
            spec.pop("optional", None)
            if "path" in spec:
                spec["path"] = os.path.normpath(os.path.join(crate, spec["path"]))
            old = merged.get(name)
            if old:
                spec["features"] = sorted(set(old.get("features", [])) | set(spec.get("features", [])))
                spec["default-features"] = old.get("default-features", True) or spec.get("default-features", True)
            merged[name] = {**(old or {}), **spec}
    lines = ["%s = { %s }" % (name, ", ".join("%s = %s" % (k, value(v)) for k, v in spec.items()))
             for name, spec in sorted(merged.items())]
    lines.append('%s = { path = %s%s }' % (manifest["package"]["name"], json.dumps(crate),
                                          ", " + self_spec if self_spec else ""))
    return lines


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--crate", required=True)
    p.add_argument("--self", dest="self_spec", default="")
    p.add_argument("files", nargs="+")
    args = p.parse_args()
    crate = os.path.abspath(args.crate)
    target = os.path.abspath(os.environ.get("CARGO_TARGET_DIR") or os.path.join(crate, "target"))
    # Stages share their target directories between checkouts: one scratch crate per checkout, and
    # a lock so that two checkouts never build or run the same examples/ binaries at once.
    scratch = os.path.join(target, "snippets-" + hashlib.sha256(crate.encode()).hexdigest()[:12])
    os.makedirs(target, exist_ok=True)
    lock = open(os.path.join(target, "snippets.lock"), "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(os.path.join(scratch, "src"))
    with open(os.path.join(scratch, "Cargo.toml"), "w", encoding="utf-8") as f:
        f.write('[workspace]\n\n[package]\nname = "snippets"\nversion = "0.0.0"\nedition = "2021"\n'
                'publish = false\n\n[dependencies]\n' + "\n".join(dependencies(crate, args.self_spec)) + "\n")
    with open(os.path.join(scratch, "src", "lib.rs"), "w", encoding="utf-8") as f:
        f.write("//! The documents' Rust blocks are this crate's examples.\n")
    with open(os.path.join(scratch, "build.rs"), "w", encoding="utf-8") as f:
        # Where the libaead crate found an installed libaead (pkg-config), as the crates' own build
        # scripts do, so the examples run without LD_LIBRARY_PATH.
        f.write('fn main() {\n    if let Ok(dir) = std::env::var("DEP_AEAD_LIBDIR") {\n'
                '        println!("cargo:rustc-link-arg-examples=-Wl,-rpath,{dir}");\n    }\n}\n')
    shutil.copy(os.path.join(crate, "Cargo.lock"), os.path.join(scratch, "Cargo.lock"))
    files = [os.path.abspath(f) for f in args.files]
    ex = subprocess.run([sys.executable, os.path.join(HERE, "extract.py"), "--lang", "rust",
                         "--out", os.path.join(scratch, "examples")] + files, stdout=subprocess.PIPE, text=True)
    if ex.returncode != 0:
        return "snippets: FAIL extract.py could not extract the rust blocks (above)"
    listing = ex.stdout
    progs = [line.split("\t") for line in listing.splitlines()]
    env = dict(os.environ, CARGO_TARGET_DIR=target)
    cargo = ["cargo", "build", "--offline", "--quiet", "--manifest-path", os.path.join(scratch, "Cargo.toml")]
    failed = []
    if subprocess.run(cargo + ["--examples"], env=env).returncode != 0:
        # Which blocks: each on its own (the errors above name examples/<file>_L<line>.rs).
        for name, where, _ in progs:
            if subprocess.run(cargo + ["--example", name], env=env, capture_output=True).returncode != 0:
                failed.append("%s: does not compile (examples/%s.rs in %s)" % (where, name, scratch))
        failed = failed or ["cargo build --examples failed"]
    else:
        for name, where, raises in progs:
            try:
                r = subprocess.run([os.path.join(target, "debug", "examples", name)], env=env, timeout=120,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                out, rc = r.stdout, r.returncode
            except subprocess.TimeoutExpired:
                out, rc = "timed out after 120 s", None
            if raises:
                if rc == 0 or rc is None or raises not in out:
                    failed.append("%s: should fail printing %s; exit %s, output:\n%s" % (where, raises, rc, out))
            elif rc != 0:
                failed.append("%s: exit %s, output:\n%s" % (where, rc, out))
    for f in failed:
        print("snippets: FAIL %s" % f, file=sys.stderr)
    if failed:
        return 1
    per = {}
    for _, where, _ in progs:
        per[where.rsplit(":", 1)[0]] = per.get(where.rsplit(":", 1)[0], 0) + 1
    print("snippets: %d rust blocks of %d file%s ran (%s)" % (
        len(progs), len(files), "" if len(files) == 1 else "s", ", ".join("%s: %d" % kv for kv in per.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
