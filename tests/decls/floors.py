#!/usr/bin/env python3
"""The oldest libaead a binding accepts must have everything the binding calls.

A binding that can link or load an installed libaead states a floor: Rust's build.rs asks pkg-config for
`aead >= X` (the `system` build), Python's loader refuses a library below MIN_VERSION_NUMBER (every
backend, LIBAEAD_SYSTEM=1 builds included), Go's `-tags libaead_system` build stops with #error below
AEAD_VERSION_NUMBER's floor in system.go (bindings/go/hpke imports that package, so it shares the
floor; bindings/go/stream states its own in its link_system.go). Each function and constant of include/aead.h has the release that added it: a function its symbol
node in lib/libaead.map (LIBAEAD_1 is 1.0, LIBAEAD_1.N is 1.N), a constant the "since 1.N" on its line of the header. This fails when a binding's sources name a function
or constant newer than its floor (an installed older library would pass the floor and then fail to link,
or refuse the constant with AEAD_ERR_ARG), and when the floor is above the newest release whose names the
binding uses (an older library that has all of them would be refused for nothing).

    python3 tests/decls/floors.py
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check import verdict  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]


def version_tuple(text):
    parts = [int(p) for p in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))[:3]


def since_table():
    """name -> (major, minor, 0) for every exported function and every tagged constant."""
    since = {}
    node = None
    for line in (REPO / "lib/libaead.map").read_text().splitlines():
        m = re.match(r"\s*LIBAEAD_(\d+(?:\.\d+)?)\s*\{", line)
        if m:
            node = version_tuple(m.group(1))
            continue
        m = re.match(r"\s*(aead_\w+);", line)
        if m and node is not None:
            since[m.group(1)] = node
    for line in (REPO / "include/aead.h").read_text().splitlines():
        m = re.match(r"\s*(?:#define\s+)?(AEAD_[A-Z0-9_]+)\b.*?/\*\s*since (\d+\.\d+)", line)
        if m:
            since[m.group(1)] = version_tuple(m.group(2))
    return since


def names_in(paths, skip=()):
    """Every aead_* / AEAD_* identifier in the files, with the first place each is named."""
    found = {}
    for path in paths:
        if path.name in skip:
            continue
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            for name in re.findall(r"\b(?:aead|AEAD)_[A-Za-z0-9_]+\b", line):
                found.setdefault(name, "%s:%d" % (path.relative_to(REPO), n))
    return found


def go_floor(name, where, dirs):
    """A Go package's floor: the AEAD_VERSION_NUMBER its libaead_system build stops below with #error."""
    m = re.search(r"AEAD_VERSION_NUMBER < (\d+)", (REPO / where).read_text())
    if not m:
        sys.exit("floors: no AEAD_VERSION_NUMBER floor in " + where)
    n = int(m.group(1))
    return (name, (n // 10000, n // 100 % 100, n % 100), where,
            sorted(p for d in dirs for p in (REPO / d).glob("*.go") if not p.name.endswith("_test.go")), set())


def floors():
    """(binding, floor, where the floor is stated, the sources it covers, files to skip)."""
    out = []
    build_rs = REPO / "bindings/rust/build.rs"
    m = re.search(r'atleast_version\("([0-9.]+)"\)', build_rs.read_text())
    if not m:
        sys.exit("floors: no pkg-config floor (atleast_version) in bindings/rust/build.rs")
    out.append(("rust", version_tuple(m.group(1)), "bindings/rust/build.rs",
                sorted((REPO / "bindings/rust/src").rglob("*.rs")), {"sys.rs"}))
    loader = REPO / "bindings/python/src/libaead/_loader.py"
    m = re.search(r"^MIN_VERSION_NUMBER = (\d+)", loader.read_text(), re.M)
    if not m:
        sys.exit("floors: no MIN_VERSION_NUMBER in bindings/python/src/libaead/_loader.py")
    n = int(m.group(1))
    pkg = REPO / "bindings/python/src/libaead"
    out.append(("python", (n // 10000, n // 100 % 100, n % 100), str(loader.relative_to(REPO)),
                sorted([*pkg.glob("*.py"), *pkg.glob("*.c")]), {"_cdef.py", "_loader.py"}))
    out.append(go_floor("go", "bindings/go/system.go", ["bindings/go", "bindings/go/hpke"]))
    # bindings/go/stream states its own, higher floor (streams are libaead 1.7) in its link_system.go.
    out.append(go_floor("go/stream", "bindings/go/stream/link_system.go", ["bindings/go/stream"]))
    return out


def main():
    since = since_table()
    meson = re.search(r"version\s*:\s*'([0-9.]+)'", (REPO / "meson.build").read_text())
    current = version_tuple(meson.group(1))
    failures, checked = [], 0
    for binding, floor, where, paths, skip in floors():
        used = names_in(paths, skip)
        newest = max([since[n] for n in used if n in since] or [(1, 0, 0)])
        checked += 1
        shown = "%d.%d.%d" % floor
        if floor > current:
            failures.append("%s: the floor %s (%s) is above the current version %d.%d.%d" % (binding, shown, where, *current))
        if newest < floor:
            failures.append("%s: the floor %s (%s) is above the newest release whose names it uses, %d.%d: an "
                            "installed %d.%d would work but is refused" % (binding, shown, where, *newest[:2], *newest[:2]))
        for name, place in sorted(used.items()):
            if name in since and since[name] > floor:
                failures.append("%s: %s names %s (since %d.%d), newer than the floor %s in %s"
                                % (binding, place, name, since[name][0], since[name][1], shown, where))
        print("floors: %s: floor %s; the newest of the %d libaead names it uses is from %d.%d"
              % (binding, shown, sum(1 for n in used if n in since), newest[0], newest[1]))
    sys.stdout.flush()
    sys.exit(verdict("floors", failures, "every binding's floor covers what it calls",
                     "%d failure(s) in %d bindings" % (len(failures), checked)))


if __name__ == "__main__":
    main()
