#!/usr/bin/env bash
# The Node.js package (bindings/node): builds the addon as it ships in the npm tarball (prebuildify's
# layout, libaead on the vendored OpenSSL 3.5 linked in and hidden), checks its exports, then runs the
# node:test suites (vectors, differential, policies, hostile callers, workers, API) on it, and the
# JavaScript blocks of README.md and bindings/node/README.md (tests/snippets) with require('libaead') on it.
#   bash bindings/node/test.sh
# Needs node (>= 18) and npm, and Node's headers beside the node binary (include/node: the nodesource
# and Debian packages install them); nothing is downloaded but the npm packages of package-lock.json.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
cd "$HERE"

command -v node >/dev/null && command -v npm >/dev/null || { echo "node test: node and npm are required" >&2; exit 1; }
echo "node test: node $(node --version), npm $(npm --version)"

bash "$HERE/build-prebuild.sh"
export AEAD_VECTORS_DIR="${AEAD_VECTORS_DIR:-$(python3 "$REPO/tests/vectors.py" | tail -n 1)}"
# Two test files at a time where node has the option (its default is one fewer than the CPUs).
concurrency=()
if node --help | grep -- --test-concurrency >/dev/null; then concurrency=(--test-concurrency=2); fi
node --test "${concurrency[@]}" --test-reporter=spec test/
python3 "$REPO/tests/snippets/run.py" --lang js --node-package "$HERE" "$REPO/README.md" "$HERE/README.md"
