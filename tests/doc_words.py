#!/usr/bin/env python3
"""User documents read as documentation, not as a log of how the work was done. This fails (exit 1) and
names file:line for every phrase below in a user document: every Markdown file of the repository
(README.md, SECURITY.md, CHANGELOG.md, docs/*.md, bindings/*/README.md, tests/*/README.md, the
benchmark result tables), found with `git ls-files` in a checkout and with `find` in a source tarball.
It prints how many files it read; a file it cannot read is a failure, not a skip.
  python3 tests/doc_words.py [repo]      (default: this checkout)
The phrases, case-insensitive (each one names a notebook habit, none is a term of the subject):
  - the work's own circumstances: "this session", "other/earlier/... sessions", "field notes",
    "the issue's", "other agents", "other jobs", "shared with other jobs/work/...", "beside an OpenSSL build";
  - goals and targets scored: "goal met/missed", "target was", "(not) met", "goals set for", a table
    cell "met" / "missed";
  - history of the change instead of its result: "how the gaps were closed", "before this change",
    "before the fix", "the previous code", "when the targets still shared ...", "CEO", "helper agent";
  - the measuring machine's circumstances instead of facts a reader can use (a benchmark caption names
    the CPU, the libcrypto and the command): "load average", "busy compiling", "a busy/shared/loaded
    machine" (or VM, or "2-core"), "oversubscribed", "under (heavy) load", "other load", "on this
    machine", "this loaded run", "the VM's second core"; and tracker references, "issue #12".
"""
import pathlib, re, subprocess, sys

repo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[1]).resolve()
PHRASES = [
    r"\bthis session\b",
    r"\b(?:other|another|earlier|previous|later|parallel|several|six|two|three|four|five) sessions?\b",
    r"\bsessions? (?:that|which) (?:were|was) (?:compiling|building|running)\b",
    r"\bfield notes?\b",
    r"\bthe issue's\b",
    r"\bthe issue (?:was|asked|set|wanted|measured)\b",
    r"\b(?:target|goal)s? (?:was|were|is met|are met|met|missed|set)\b",
    r"\b(?:goal|target)s?\b[^|\n]{0,40}[:(] *\**(?:met|missed|not met)\b",
    r"\b(?:met|missed)\b[^|\n]{0,30}\b(?:goal|target)s?\b",
    r"\bnot met\b",
    r"\(target met\)",
    r":\s*\**(?:met|missed|not met)\**\s*(?:\||$|[,;.)])",
    r"\((?:met|missed)\b",
    r"\bgoals? (?:set )?for \d",
    r"\bagainst (?:the|its|our) (?:goals?|targets?)\b",
    r"\|\s*\**(?:met|missed)\**\s*(?:\(|\|)",
    r"\bshort of the [^|\n]{0,20}\bgoal\b",
    r"\bwhere the goal\b|\bthe goal was\b|\bgoal was set\b",
    r"\bother (?:agents|jobs|sessions)\b",
    r"(?<!user )(?<!user-)(?<!-)\bagents?\b",
    r"\bhelper (?:agent|session)s?\b",
    r"\bshared with (?:other|about \w+ other) (?:jobs|work|sessions|agents|builds)\b",
    r"\b(?:beside|alongside|next to) (?:an?|the|other|another) [\w.\- ]{0,30}\b(?:build|builds|job|jobs|session|sessions|compiles?)\b",
    r"\bwe measured beside\b",
    r"\bjobs? building\b",
    r"\bgaps were closed\b",
    r"\bbefore this (?:change|commit|patch|fix|session)\b",
    r"\bbefore the fix\b",
    r"\bthe previous code\b",
    r"\bCEO\b",
    r"\bwhen [^.;|\n]{0,60}\bstill (?:shared|used|had|was|were|ran|lived)\b",
    r"\bload averages?\b",
    r"\bbusy compiling\b",
    r"\b(?:a|the|on a) busy (?:\d+-(?:core|vCPU|CPU) )?(?:machine|VM|host|box)\b",
    r"\bbusy \d+-(?:core|vCPU|CPU)\b",
    r"\boversubscri(?:bed|ption)\b",
    r"\bshared \d+-(?:core|vCPU|CPU)\b",
    r"\b(?:a|the|on a) shared (?:VM|machine|host|box)\b",
    r"\bloaded (?:VM|machine|host|box|\d+-(?:core|vCPU|CPU))\b",
    r"\bthis loaded\b",
    r"\b(?:under|at) (?:heavy |high |low |lower )?load\b",
    r"\b(?:heavy|other) load\b",
    r"\b(?:on|for|in|of) this machine\b",
    r"\bthis machine's\b",
    r"\bthe VM's second core\b",
    r"\bissues? #\d+",
]
rx = re.compile("|".join(f"(?:{p})" for p in PHRASES), re.I)

try:
    names = subprocess.run(["git", "-C", str(repo), "ls-files", "-z", "--", "*.md", "*.markdown"],
                           capture_output=True, text=True, check=True).stdout.split("\0")
    files = sorted(repo / n for n in names if n)
    how = "git ls-files"
except (OSError, subprocess.CalledProcessError):
    files = sorted(p for p in repo.rglob("*.md") if not {".git", "target", "node_modules", "build"} & set(p.relative_to(repo).parts))
    how = "find"
required = ["README.md", "CHANGELOG.md", "SECURITY.md"]
hits, errors = [], []
for r in required:
    if repo / r not in files:
        errors.append(f"{r}: missing (a user document this check must read)")
for f in files:
    rel = f.relative_to(repo)
    try:
        text = f.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        errors.append(f"{rel}: cannot read: {e}")
        continue
    for no, line in enumerate(text.splitlines(), 1):
        for m in rx.finditer(line):
            hits.append(f"{rel}:{no}: \"{m.group(0)}\": {line.strip()[:160]}")
print(f"doc-words: {len(files)} Markdown files ({how}), {len(PHRASES)} phrases")
for e in errors:
    print(f"ERROR {e}")
for h in hits:
    print(h)
if hits or errors:
    print(f"FAIL: {len(hits)} notebook phrase(s), {len(errors)} unreadable or missing file(s)", file=sys.stderr)
    sys.exit(1)
print("doc-words: no notebook phrases")
