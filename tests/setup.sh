#!/usr/bin/env bash
# Installs the Debian packages that building and testing libaead need (Debian 12; root or sudo).
# Idempotent: installs only what is missing. Language packages (PyPI, Go modules, crates, npm) are
# fetched by the suites that use them.
set -euo pipefail

sudo_cmd=()
[ "$(id -u)" = 0 ] || sudo_cmd=(sudo)

missing_of() {
    local p out=()
    for p in "$@"; do
        grep -q "install ok installed" <<<"$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" || out+=("$p")
    done
    echo "${out[@]}"
}

install() {
    local missing
    missing=$(missing_of "$@")
    [ -n "$missing" ] || return 0
    echo "setup: apt-get install $missing"
    "${sudo_cmd[@]}" apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

install meson ninja-build pkg-config g++ libssl-dev catch2 nlohmann-json3-dev valgrind clang llvm binutils ccache
# LLVM's linker for the werror matrix's clang + lld build (tests/run-all.sh werror).
install lld
# libsodium: the independent XChaCha20-Poly1305 of the differential suite (tests/meson.build).
install libsodium-dev
# -Dlibcrypto=vendored: cargo fetches the openssl-src crate; OpenSSL's own build needs perl and make.
install make perl
# tests/tls-interop: Debian's openssl program as the peer, and python3 for its byte-flipping proxy.
install openssl python3
command -v cargo >/dev/null 2>&1 || install cargo
# The sanitizer and libFuzzer runtimes match the installed clang's major version.
clang_major=$(clang -dumpversion | cut -d. -f1)
install "libclang-rt-${clang_major}-dev"

# `tests/setup.sh i386` (the i386 stage only): Debian's i686 cross compiler and the i386 libcrypto, libstdc++
# and libatomic from the multiarch archive (i386 programs run natively on x86-64).
if [ "${1:-}" = i386 ]; then
    if ! dpkg --print-foreign-architectures | grep -qx i386; then
        echo "setup: dpkg --add-architecture i386"
        "${sudo_cmd[@]}" dpkg --add-architecture i386
        "${sudo_cmd[@]}" apt-get update -qq
    fi
    install g++-i686-linux-gnu libssl-dev:i386 libstdc++6:i386 libatomic1:i386
fi

# `tests/setup.sh musl` (the musl stage only): Debian's musl, for its loader /lib/ld-musl-x86_64.so.1 that
# runs the stage's programs (zig, from PyPI, brings the compilers, musl's headers and libc++).
if [ "${1:-}" = musl ]; then
    install musl
fi
