#!/usr/bin/env bash
# Prints the path of the OpenSSL source tree inside the pinned openssl-src crate for one series.
# Usage: fetch-source.sh 3.5|4.0
# cargo is the ordinary client for crates.io: a throw-away project pins the exact crate version,
# `cargo fetch` downloads it into cargo's registry cache, `cargo metadata` says where it was unpacked.
set -euo pipefail
case "${1:-}" in
  3.5) crate_version='=300.5.5+3.5.5' ;;
  4.0) crate_version='=400.0.2+4.0.3' ;;
  *) echo "usage: $0 3.5|4.0" >&2; exit 2 ;;
esac

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/src"
cat >"$scratch/Cargo.toml" <<TOML
[package]
name = "libaead-openssl-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
openssl-src = "$crate_version"
TOML
: >"$scratch/src/lib.rs"

(cd "$scratch" && cargo fetch --quiet >&2)
manifest=$(cd "$scratch" && cargo metadata --format-version 1 --quiet |
  python3 -c 'import json,sys; m=json.load(sys.stdin); print(next(p["manifest_path"] for p in m["packages"] if p["name"]=="openssl-src"))')
src="$(dirname "$manifest")/openssl"
[[ -f "$src/Configure" ]] || { echo "no OpenSSL source under $src" >&2; exit 1; }
echo "$src"
