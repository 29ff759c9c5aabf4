"""Generator of docs/testing.md's coverage table (name coverage), run in bench/tables.py's namespace.

coverage-total (inline): the totals of the same file.
coverage: per file of lib/ and shim/, lines and branches covered, from tests/coverage/summary.json, which
    `tests/coverage/run.py --record` writes from a run of the coverage stage (both builds merged).
"""

COVERAGE = "tests/coverage/summary.json"


def _cov_percent(pair):
    """[covered, total] -> '99.6%' ('100%' only when all are covered), or 'none' where there is nothing."""
    covered, total = pair
    if not total:
        return "none"
    if covered == total:
        return "100%"
    return f"{min(99.9, 100.0 * covered / total):.1f}%"


def gen_coverage():
    doc = load(COVERAGE)
    rows = [[f"`{name}`", _cov_percent(f["lines"]), _cov_percent(f["branches"])] for name, f in doc["files"].items()]
    t = doc["total"]
    rows.append(["**total**", f"**{_cov_percent(t['lines'])}** of {t['lines'][1]:,}",
                 f"**{_cov_percent(t['branches'])}** of {t['branches'][1]:,}"])
    lib = doc["libcrypto"]
    line = (f"*Data: {lib['system']} (system) and {lib['vendored']} (vendored), both builds merged; "
            f"{doc['date']}; made by `{doc['command']}` (recorded with `tests/coverage/run.py --record`).*")
    return "\n".join(["", line, ""] + table(["file", "lines", "branches"], ["---", "---", "---"], rows) + [""])


def gen_coverage_total():
    """docs/testing.md's stage table, inline: the recorded totals."""
    t = load(COVERAGE)["total"]
    return f"lines {_cov_percent(t['lines'])}, branches {_cov_percent(t['branches'])}"


GENERATORS["coverage"] = gen_coverage
GENERATORS["coverage-total"] = gen_coverage_total
