#!/usr/bin/env python3
"""Every exported function in docs/abi.md's two tables of functions.

The exports are lib/libaead.map's, each under its node (LIBAEAD_1 is release 1.0, LIBAEAD_1.N is 1.N);
the aead_test_* lines are test hooks that only fault-injection builds export, and are left out. Then:

  release table   (| release | ... | functions (node) | ...): the row of each node's release names exactly
                  that node's functions, and the node itself; a row names no function of another node.
  thread-safety   (| function | thread-safety | notes |): each export is named in exactly one row's
                  first cell, and every name there is an export.

Usage: tests/decls/abi_tables.py [DOC]   (default docs/abi.md; exit status 1 with one line per difference)
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check import REPO, verdict  # noqa: E402

MAP = "lib/libaead.map"
NAME = re.compile(r"`(aead_\w+)`")
failures = []


def fail(where, msg):
    failures.append("%s: %s" % (where, msg))


def exports():
    """{node: [function, ...]} in the map's order, aead_test_* left out."""
    nodes, node = {}, None
    for no, line in enumerate(open(os.path.join(REPO, MAP)), 1):
        line = re.sub(r"/\*.*?\*/", "", line)
        m = re.match(r"\s*(LIBAEAD_\d+(?:\.\d+)?)\s*\{", line)
        if m:
            node = m.group(1)
            nodes[node] = []
            continue
        m = re.match(r"\s*(aead_\w+)\s*;", line)
        if m and not m.group(1).startswith("aead_test_"):
            if node is None:
                fail("%s:%d" % (MAP, no), "%s is outside a node" % m.group(1))
            else:
                nodes[node].append(m.group(1))
    return nodes


def release_of(node):
    """LIBAEAD_1 -> 1.0, LIBAEAD_1.6 -> 1.6."""
    version = node[len("LIBAEAD_"):]
    return version if "." in version else version + ".0"


def table(doc, text, header):
    """[(line number, [cells])] of the table whose header row starts with `header`."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith(header)]
    if len(starts) != 1:
        fail(doc, "needs one table whose header starts %r (found %d)" % (header, len(starts)))
        return []
    rows = []
    for i in range(starts[0] + 2, len(lines)):  # past the header and its |---| line
        if not lines[i].startswith("|"):
            break
        rows.append((i + 1, [c.strip() for c in lines[i].strip().strip("|").split("|")]))
    return rows


def check_releases(doc, text, nodes):
    rows = table(doc, text, "| release |")
    by_release = {row[0]: (no, row) for no, row in rows if row}
    node_of = {f: node for node, fs in nodes.items() for f in fs}
    for node, functions in nodes.items():
        release = release_of(node)
        if release not in by_release:
            fail(doc, "the release table has no row %s, whose node %s exports %s" % (release, node, ", ".join(functions)))
            continue
        no, row = by_release[release]
        cell = next((c for c in row if "(`%s`)" % node in c), None)
        if cell is None:
            fail("%s:%d" % (doc, no), "the %s row names no node (`%s`)" % (release, node))
            cell = " ".join(row)
        named = NAME.findall(cell)
        for f in functions:
            if f not in named:
                fail("%s:%d" % (doc, no), "the %s row's functions leave out %s (%s in %s)" % (release, f, node, MAP))
    for no, row in rows:
        for cell in row:
            if not re.search(r"\(`LIBAEAD_[\d.]+`\)", cell):
                continue
            for f in NAME.findall(cell):
                want = node_of.get(f)
                if want is None:
                    fail("%s:%d" % (doc, no), "the %s row names %s, which %s does not export" % (row[0], f, MAP))
                elif release_of(want) != row[0]:
                    fail("%s:%d" % (doc, no), "the %s row names %s, which %s exports under %s" % (row[0], f, MAP, want))


def check_threads(doc, text, nodes):
    rows = table(doc, text, "| function | thread-safety |")
    exported = {f for fs in nodes.values() for f in fs}
    seen = {}
    for no, row in rows:
        for f in NAME.findall(row[0]):
            if f not in exported:
                fail("%s:%d" % (doc, no), "the thread-safety table names %s, which %s does not export" % (f, MAP))
            if f in seen:
                fail("%s:%d" % (doc, no), "the thread-safety table names %s again (first on line %d)" % (f, seen[f]))
            seen.setdefault(f, no)
    for node, functions in nodes.items():
        for f in functions:
            if f not in seen:
                fail(doc, "the thread-safety table has no row for %s (%s in %s)" % (f, node, MAP))


def main():
    doc = sys.argv[1] if len(sys.argv) > 1 else "docs/abi.md"
    text = open(doc if os.path.isabs(doc) else os.path.join(REPO, doc)).read()
    nodes = exports()
    total = sum(len(fs) for fs in nodes.values())
    if total == 0:
        fail(MAP, "no exported function found")
    check_releases(doc, text, nodes)
    check_threads(doc, text, nodes)
    return verdict("abi_tables", failures, "%s's release and thread-safety tables name all %d functions of %s's %d nodes"
                   % (doc, total, MAP, len(nodes)))


if __name__ == "__main__":
    sys.exit(main())
