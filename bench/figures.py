"""Fails on a performance figure in a document that the benchmark run did not write.

Usage: python3 bench/figures.py [-v] [FILE.md ...]   (default: every tracked Markdown file)

Every timing, throughput, instruction count or speed ratio a document shows comes from one benchmark run
(bench/all.sh): it sits between bench/tables.py's markers, where the tables and inline figures are
generated from that run's JSON. Outside the markers this finds, in prose and in hand-written tables (not in
fenced code, inline code or HTML comments, which show commands and their parameters):

  - a ratio such as 1.4x, 0.8 x or 3×;
  - a time (ns, µs, us, ms), a throughput (MB/s, GiB/s, cycles per byte) or a count of instructions;
  - "40% faster", "three times slower", "half the time";
  - a hand-written table whose header names a unit of time or speed or a ratio.

The benchmark results' own Markdown (bench/results/*.md, written by the run) is not read. A figure that is
not a measurement (a parameter, a limit from a specification) is written as inline code or reworded.
Exit 1 and file:line for each figure found; it prints how many files it read.
"""

import os
import re
import sys

from markers import MARK, ROOT, documents as tracked  # bench/markers.py, shared with bench/tables.py
COMMENT = re.compile(r"<!--.*?-->", re.S)
CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
LINK = re.compile(r"\]\([^)]*\)")
NUM = r"(?<![\w.^/-])\d[\d,]*(?:\.\d+)?(?:\s?(?:-|–|to)\s?\d[\d,]*(?:\.\d+)?)?"  # a number or a range
FIGURES = [
    ("ratio", re.compile(NUM + r"\s?[x×](?![\w-])")),
    ("time", re.compile(NUM + r"\s?(?:ns|µs|us|ms)\b")),
    ("throughput", re.compile(NUM + r"\s?(?:[KMGT]i?B/s|[KMG]bit/s|cpb|cycles(?:/| per )byte)\b", re.I)),
    ("instruction count", re.compile(NUM + r"\s+(?:instructions|cycles)\b")),
    ("percent faster/slower", re.compile(NUM + r"\s?%(?:\s+(?:faster|slower|more time|less time|off|of (?:the|a|its) (?:time|cost|seal|call))\b| (?:bias|overhead|noise|spread|apart|difference))")),
    ("speed in words", re.compile(
        r"\b(?:twice|two|three|four|five|six|ten|\d+) times (?:faster|slower|as fast|as slow|the (?:time|speed|cost|throughput))\b"
        r"|\b(?:half|a third|a quarter|a fifth) (?:of )?the (?:time|cost)\b", re.I)),
]


# A hand-written table's header naming a unit of time or speed, or a ratio column.
TABLE_HEAD = re.compile(r"\b(?:ns|µs|us|ms|[KMG]i?B/s|ns/op|cycles|instructions|speed-?up)\b"
                        r"|\b(?:ratio|floor|faster|slower)\b|\b(?:time|cost) per\b|\bper (?:packet|record|call|message|op)\b", re.I)


def documents():
    return [p for p in tracked() if not p.startswith("bench/results/")]


def blank(m):
    return re.sub(r"[^\n]", " ", m.group(0))


def scan(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        text = f.read()
    text = MARK.sub(blank, text)
    text = COMMENT.sub(blank, text)
    hits = []
    fence = None
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        stripped = line.lstrip()
        if fence:
            if stripped.startswith(fence):
                fence = None
            continue
        if stripped.startswith("```") or stripped.startswith("~~~"):
            fence = stripped[:3]
            continue
        prose = LINK.sub("]", CODE.sub(blank, line))
        if prose.lstrip().startswith("|") and TABLE_HEAD.search(prose) and number < len(lines) \
                and re.match(r"\s*\|[\s:|-]+\|\s*$", lines[number]):
            hits.append((number, "table of measurements", prose.strip()[:40], line.strip()))
        for kind, pattern in FIGURES:
            for m in pattern.finditer(prose):
                hits.append((number, kind, m.group(0), line.strip()))
    return hits


def main(argv):
    verbose = "-v" in argv
    files = [a for a in argv if a != "-v"] or documents()
    found = 0
    for path in files:
        for number, kind, figure, line in scan(path):
            found += 1
            print(f"{path}:{number}: {kind} '{figure}' outside a generated block" + (f": {line[:160]}" if verbose else ""))
    if found:
        print(f"figures: {found} performance figures in {len(files)} documents are not generated from the"
              " benchmark run (bench/tables.py markers); put them under a marker or remove them", file=sys.stderr)
        return 1
    print(f"figures: no hand-written performance figure in {len(files)} documents")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
