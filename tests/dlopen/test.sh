#!/usr/bin/env bash
# dlopen consumers of libaead: (1) a C program with no project header, (2) Node.js through koffi.
# Run from the repo root:  bash tests/dlopen/test.sh
# Uses AEAD_BUILD_DIR (default: <repo>/build), which must hold the built libaead.so.1.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
source "$REPO/tests/lib/build_dir.sh"
use_build_dir tests/dlopen

status=0

# (1) C consumer: compiled without any -I of the project, loads libaead.so.1 by SONAME.
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
echo "== dlopen consumer (C) =="
"${CC:-cc}" -std=c11 -Wall -Wextra -Werror -o "$TMP/dlopen_consumer" "$HERE/dlopen_consumer.c" -ldl
if ! "$TMP/dlopen_consumer"; then
    echo "tests/dlopen: C dlopen consumer FAILED" >&2
    status=1
fi

# (2) Node.js through koffi.
echo "== dlopen consumer (Node.js + koffi) =="
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "tests/dlopen: node and npm are required" >&2
    exit 1
fi
(
    cd "$HERE"
    if [ -f package-lock.json ]; then
        npm ci --no-audit --no-fund --loglevel=error
    else
        npm install --no-audit --no-fund --loglevel=error
    fi
)
if ! (cd "$REPO" && node --test tests/dlopen/); then
    echo "tests/dlopen: Node.js koffi consumer FAILED" >&2
    status=1
fi

exit "$status"
