#!/usr/bin/env python3
"""The coverage figures docs/testing.md shows: tests/coverage/summary.json, recorded from a coverage run.

Usage: summary.py --record GCOVR_JSON SYSTEM_OPENSSL VENDORED_OPENSSL   (tests/coverage/run.py --record)
       summary.py --check GCOVR_JSON                                     (every run of the stage)

GCOVR_JSON is the run's `gcovr --json-summary` output. --record writes tests/coverage/summary.json: the
date, the two libcrypto versions and, per file of lib/ and shim/, its covered and total lines and
branches. bench/tables.py makes docs/testing.md's table from it (the hygiene stage checks the table).
--check fails when the run measured a file the recorded summary lacks, or the summary names a file the
run no longer has: the table would leave a file out or list a gone one. The percentages are not
compared (the threaded suites' branch counts vary by a few tenths between runs); the run prints its
totals beside the recorded ones.
"""

import datetime
import json
import os
import sys

RECORD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "summary.json")


def measured(path):
    with open(path) as f:
        doc = json.load(f)
    files = {f["filename"]: {"lines": [f["line_covered"], f["line_total"]],
                             "branches": [f["branch_covered"], f["branch_total"]]} for f in doc["files"]}
    total = {"lines": [doc["line_covered"], doc["line_total"]], "branches": [doc["branch_covered"], doc["branch_total"]]}
    return files, total


def percent(pair):
    return "%.1f%%" % (100.0 * pair[0] / pair[1]) if pair[1] else "none"


def main(argv):
    if len(argv) == 5 and argv[1] == "--record":
        files, total = measured(argv[2])
        doc = {"date": datetime.date.today().isoformat(), "command": "tests/run-all.sh coverage",
               "libcrypto": {"system": argv[3], "vendored": argv[4]},
               "files": dict(sorted(files.items())), "total": total}
        with open(RECORD, "w") as f:  # one line a file, so that a new record's diff reads per file
            head = {k: v for k, v in doc.items() if k != "files"}
            f.write("{\n" + "".join(" %s: %s,\n" % (json.dumps(k), json.dumps(v)) for k, v in head.items()))
            f.write(' "files": {\n' + ",\n".join("  %s: %s" % (json.dumps(k), json.dumps(v))
                                                 for k, v in doc["files"].items()) + "\n }\n}\n")
        print("coverage: recorded %d files in tests/coverage/summary.json (lines %s, branches %s); "
              "`python3 bench/tables.py` rewrites docs/testing.md's table" % (
                  len(files), percent(total["lines"]), percent(total["branches"])))
        return 0
    if len(argv) == 3 and argv[1] == "--check":
        files, total = measured(argv[2])
        with open(RECORD) as f:
            rec = json.load(f)
        print("coverage: this run: lines %s of %d, branches %s of %d; docs/testing.md (%s): lines %s of %d, "
              "branches %s of %d" % (percent(total["lines"]), total["lines"][1], percent(total["branches"]),
                                     total["branches"][1], rec["date"], percent(rec["total"]["lines"]),
                                     rec["total"]["lines"][1], percent(rec["total"]["branches"]),
                                     rec["total"]["branches"][1]))
        new, gone = sorted(set(files) - set(rec["files"])), sorted(set(rec["files"]) - set(files))
        for name in new:
            print("coverage: FAIL %s is measured but not in tests/coverage/summary.json" % name, file=sys.stderr)
        for name in gone:
            print("coverage: FAIL tests/coverage/summary.json lists %s, which this run did not measure" % name,
                  file=sys.stderr)
        if new or gone:
            print("coverage: record this run's figures (tests/coverage/run.py --record, then python3 "
                  "bench/tables.py) so that docs/testing.md's table names every file", file=sys.stderr)
            return 1
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
