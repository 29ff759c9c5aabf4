#!/usr/bin/env bash
# Draws docs/bench.png from the benchmarks' JSON results (the C library's and rustls's in bench/results/,
# each binding's in its own results folder), or from the files given.
# matplotlib comes from PyPI into a venv in the cache folder (outside the clone), made once.
# Usage: bash bench/plot.sh [OUT.png [RESULT.json ...]]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$repo/docs/bench.png}
shift || true
[ $# -gt 0 ] || set -- "$repo"/bench/results/*.json "$repo"/bindings/go/bench/results/*.json \
    "$repo"/bindings/python/bench/results/{system,vendored}.json "$repo"/bindings/rust/benches/results/meson-*.json
venv=${XDG_CACHE_HOME:-$HOME/.cache}/libaead/plot-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import matplotlib' 2>/dev/null; then
    python3 -m venv "$venv"
    PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/pip" install --quiet "matplotlib>=3.8"
fi
"$venv/bin/python" "$repo/bench/plot.py" "$out" "$@"
