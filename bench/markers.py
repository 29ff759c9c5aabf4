"""What bench/tables.py (which fills the generated blocks) and bench/figures.py (which refuses figures
outside them) both read: the repository's root, the block markers, the tracked Markdown documents."""

import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# <!-- bench:NAME:begin --> ... <!-- bench:NAME:end -->: a block bench/tables.py writes from the run's JSON.
MARK = re.compile(r"<!-- bench:([a-z0-9-]+):begin -->(.*?)<!-- bench:\1:end -->", re.S)


def documents():
    """Every tracked Markdown file, relative to ROOT."""
    out = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [p for p in out.split() if p]
