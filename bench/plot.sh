#!/usr/bin/env bash
# Draws docs/bench.png from the benchmarks' JSON results (the C library's and rustls's in bench/results/,
# each binding's in its own results folder, Java's and Node.js's included; the families' ratio tables too),
# or from the files given.
# matplotlib comes from PyPI into a venv in the cache folder (outside the clone), made once.
# Usage: bash bench/plot.sh [OUT.png [RESULT.json ...]]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$repo/docs/bench.png}
shift || true
shopt -s nullglob
[ $# -gt 0 ] || set -- "$repo"/bench/results/{c-system,c-vendored,rustls-system-3.0,aegis-system,aegis-vendored}.json \
    "$repo"/bindings/go/bench/results/{system-3.0,vendored-3.5}.json \
    "$repo"/bindings/java/bench/results/jmh.json "$repo"/bindings/node/bench/results/bench.json \
    "$repo"/bindings/python/bench/results/{system,vendored,quic-vendored}.json \
    "$repo"/bindings/rust/benches/results/{meson-system-3.0,bundled-vendored-3.5.5}.json \
    "$repo"/bindings/rustls-libaead/benches/results/quic-*.json \
    "$repo"/bindings/python/bench/results/families-{system,vendored}.json \
    "$repo"/bindings/rust/benches/results/families-meson-{system-3.0,vendored-3.5.5}.json
venv=${XDG_CACHE_HOME:-$HOME/.cache}/libaead/plot-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import matplotlib' 2>/dev/null; then
    python3 -m venv "$venv"
    PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/pip" install --quiet "matplotlib>=3.8"
fi
"$venv/bin/python" "$repo/bench/plot.py" "$out" "$@"
