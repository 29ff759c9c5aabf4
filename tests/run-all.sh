#!/usr/bin/env bash
# Runs every test of libaead, stage by stage: tests/run_all.py (this path stays for the documents and CI).
exec python3 "$(dirname "$0")/run_all.py" "$@"
