#!/usr/bin/env bash
# zig from PyPI (the ziglang wheel, pinned and checked by sha256), installed once into the cache, then run:
#   tests/cross/zig/zig.sh ARGS...   runs zig with ARGS (installing it first if it is missing)
#   tests/cross/zig/zig.sh --path    prints the zig binary's path (installing it first)
# zig's C and C++ compilers (clang with musl and libc++ for the target) make the musl stage's binaries
# (tests/cross/x86_64-linux-musl.ini); zig builds and caches musl and libc++ itself, also in the cache.
set -euo pipefail
version=0.15.2
sha256=806316453d1ede7174ed3fefb8e5348154629089c3bb5fe812dfd0e172fac130
root=${XDG_CACHE_HOME:-$HOME/.cache}/libaead/zig/$version
zig=$root/pkg/ziglang/zig
if [ ! -x "$zig" ]; then
    mkdir -p "$root"
    exec 9>"$root.lock"
    flock 9
    if [ ! -x "$zig" ]; then
        echo "zig.sh: pip install ziglang==$version into $root" >&2
        stage=$(mktemp -d "$root/.stage.XXXXXX")
        trap 'rm -rf "$stage"' EXIT
        printf 'ziglang==%s --hash=sha256:%s\n' "$version" "$sha256" >"$stage/requirements.txt"
        python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --only-binary=:all: \
            --require-hashes -r "$stage/requirements.txt" --target "$stage/pkg" >&2
        rm -rf "$root/pkg"
        mv "$stage/pkg" "$root/pkg"
        rm -rf "$stage"  # here: the exec below runs no EXIT trap
        trap - EXIT
    fi
    exec 9>&-
fi
# zig's own caches (musl, libc++ and compiler-rt built for the target, once) beside it, not in ~/.cache/zig.
export ZIG_GLOBAL_CACHE_DIR=${ZIG_GLOBAL_CACHE_DIR:-$root/cache}
export ZIG_LOCAL_CACHE_DIR=${ZIG_LOCAL_CACHE_DIR:-$root/cache}
if [ "${1:-}" = --path ]; then
    echo "$zig"
    exit 0
fi
exec "$zig" "$@"
