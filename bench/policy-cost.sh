#!/usr/bin/env bash
exec python3 "$(dirname "$0")/policy_cost.py" "$@"
