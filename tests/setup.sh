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

# A mirror caught mid-sync fails one index (seen: one architecture's security index); go on with the
# indexes that did load rather than stop (a package still missing fails its install).
update_indexes() {
    "${sudo_cmd[@]}" apt-get update -qq ||
        echo "setup: apt-get update could not read every index; going on with those it read" >&2
}

install() {
    local missing
    missing=$(missing_of "$@")
    [ -n "$missing" ] || return 0
    echo "setup: apt-get install $missing"
    update_indexes
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

install meson ninja-build pkg-config g++ libssl-dev catch2 nlohmann-json3-dev valgrind clang llvm binutils ccache
# rsync: the coverage stage copies the checkout to its fixed build path (tests/coverage/run.py).
install rsync
# LLVM's linker for the werror matrix's clang + lld build (tests/run-all.sh werror).
install lld
# qemu-user: the unit stage runs the AEGIS suite on libaegis's portable and AES-NI code under qemu-x86_64
# CPU models (tests/run-all.sh), and the cross stages run their targets' programs with it.
install qemu-user
# libsodium: the independent XChaCha20-Poly1305 of the differential suite (tests/meson.build).
install libsodium-dev
# -Dlibcrypto=vendored: cargo fetches the openssl-src crate; OpenSSL's own build needs perl and make.
install make perl
# tests/tls-interop: Debian's openssl program as the peer, and python3 for its byte-flipping proxy.
install openssl python3
# tests/ssh: OpenSSH's sshd and ssh as the peers of asyncssh on libaead's SSH AES-GCM.
install openssh-server openssh-client
# bindings/python/tests/test_stream_age.py: Debian's age (and age-keygen) as the peer of libaead's age files.
install age
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
        update_indexes
    fi
    if [ -n "$(missing_of libssl-dev:i386)" ] &&
        ! apt-get install -s -qq --no-install-recommends libssl-dev:i386 >/dev/null 2>&1; then
        # libssl3 and libssl-dev are "Multi-Arch: same": both architectures at one version. When the indexes
        # disagree (one architecture's security index out of sync), take the newest version both carry.
        versions() { apt-cache madison "$1" | awk -F' [|] ' -v arch="$2" '$3 ~ (" " arch " ") {print $2}' | sort -u; }
        ssl_version=$(comm -12 <(versions libssl-dev amd64) <(versions libssl-dev:i386 i386) | sort -V | tail -n 1)
        [ -n "$ssl_version" ] || { echo "setup: no libssl-dev version that both amd64 and i386 have" >&2; exit 1; }
        echo "setup: libssl-dev:i386 at $ssl_version, the newest version amd64 and i386 both have"
        "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends --allow-downgrades \
            "libssl3=$ssl_version" "libssl-dev=$ssl_version" "openssl=$ssl_version" \
            "libssl3:i386=$ssl_version" "libssl-dev:i386=$ssl_version" >/dev/null
    fi
    install g++-i686-linux-gnu libssl-dev:i386 libstdc++6:i386 libatomic1:i386
fi

# `tests/setup.sh aarch64` / `tests/setup.sh s390x` (the cross-aarch64 / cross-s390x stages): Debian's cross
# compiler, qemu-user to run the target's programs (no binfmt: meson's exe_wrapper and go test -exec name
# qemu), and the target's libcrypto, libstdc++ and libatomic from the multiarch archive.
# The target's libssl3 and libssl-dev are "Multi-Arch: same": dpkg installs them only at the version of
# the native ones. Debian's security archive for bookworm carries no s390x (its LTS architectures), so
# the s390x ones lag behind amd64's; then the target's two packages are fetched with `apt-get download`
# (checked against the archive's signed index) and unpacked into the cache instead:
# $HOME/.cache/libaead/cross/<deb arch>-libssl-<version>, its .pc files pointed there. The last line of
# output names the pkg-config directory of the target's libcrypto, either way.
case "${1:-}" in
aarch64 | s390x)
    [ "$1" = aarch64 ] && deb_arch=arm64 || deb_arch=s390x
    if ! dpkg --print-foreign-architectures | grep -qx "$deb_arch"; then
        echo "setup: dpkg --add-architecture $deb_arch"
        "${sudo_cmd[@]}" dpkg --add-architecture "$deb_arch"
        update_indexes
    fi
    install "g++-$1-linux-gnu" qemu-user "libstdc++6:$deb_arch" "libatomic1:$deb_arch"
    multiarch_pc=/usr/lib/$1-linux-gnu/pkgconfig
    if [ -n "$(missing_of "libssl-dev:$deb_arch")" ] &&
        ! apt-get install -s -qq --no-install-recommends "libssl-dev:$deb_arch" >/dev/null 2>&1; then
        ssl_version=$(apt-cache policy "libssl-dev:$deb_arch" | sed -n 's/^ *Candidate: //p')
        [ -n "$ssl_version" ] && [ "$ssl_version" != "(none)" ] ||
            { echo "setup: no libssl-dev:$deb_arch in the archive" >&2; exit 1; }
        root="$HOME/.cache/libaead/cross/$deb_arch-libssl-$ssl_version"
        if [ ! -f "$root/done" ]; then
            echo "setup: libssl-dev:$deb_arch $ssl_version and libssl3:$deb_arch cannot be installed beside" \
                "the native libssl3 $(dpkg-query -W -f='${Version}' "libssl3:$(dpkg --print-architecture)"); unpacking them into $root"
            rm -rf "$root" && mkdir -p "$root/debs"
            (cd "$root/debs" && apt-get download -qq "libssl3:$deb_arch=$ssl_version" "libssl-dev:$deb_arch=$ssl_version" 2>/dev/null)
            for deb in "$root"/debs/*.deb; do dpkg-deb -x "$deb" "$root"; done
            # The prefix, and the target's configuration.h (multiarch: usr/include/<triplet>/openssl).
            sed -i -e "s|^prefix=.*|prefix=$root/usr|" \
                -e "s|^Cflags: -I\${includedir}\$|Cflags: -I\${includedir} -I\${includedir}/$1-linux-gnu|" \
                "$root/usr/lib/$1-linux-gnu/pkgconfig/"*.pc
            touch "$root/done"
        fi
        multiarch_pc=$root/usr/lib/$1-linux-gnu/pkgconfig
    else
        install "libssl-dev:$deb_arch"
    fi
    echo "$multiarch_pc"
    ;;
esac

# `tests/setup.sh musl` (the musl stage only): Debian's musl, for its loader /lib/ld-musl-x86_64.so.1 that
# runs the stage's programs (zig, from PyPI, brings the compilers, musl's headers and libc++).
if [ "${1:-}" = musl ]; then
    install musl
fi
