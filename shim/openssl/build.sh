#!/usr/bin/env bash
# Builds the pinned OpenSSL of one series (3.5 LTS or 4.0) from the openssl-src crate, once, into a
# cache outside the clone, and prints the install prefix (last line of stdout). A second call with the
# same version and configure flags just prints the prefix again.
# Usage: shim/openssl/build.sh 3.5|4.0
# A cross build (meson.build passes its host machine): LIBAEAD_OPENSSL_HOST_CPU (meson's cpu_family:
# aarch64, s390x, x86, ...), LIBAEAD_OPENSSL_HOST_SYSTEM (linux) and LIBAEAD_OPENSSL_CC (the host C compiler
# command, e.g. aarch64-linux-gnu-gcc; its prefix, if any, also names ar and ranlib). A cross build
# builds only the static libcrypto: no FIPS module, no openssl program (neither could run here).
# LIBAEAD_OPENSSL_LEAN=1 builds only the static libcrypto natively too (no FIPS module, no openssl program).
# Cache: ${LIBAEAD_OPENSSL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libaead/openssl}/<version>-<flag hash>
# LIBAEAD_OPENSSL_REBUILD=1 discards a cached build of that key and builds it again.
# Progress goes to stderr (and to the terminal, if any: meson's run_command captures both streams);
# the full log is <prefix>.log next to the cached build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
series=${1:-}
case "$series" in
  3.5) # Modules on and enable-fips: the same build yields providers/fips.so and the openssl app that
       # `openssl fipsinstall` needs for the FIPS test stage (tests/fips/). Legacy ciphers are not needed.
       version=3.5.5
       flags=(no-shared enable-fips no-legacy no-tests no-docs) ;;
  4.0) # Only the static libcrypto, trimmed (below).
       version=4.0.3
       flags=(no-shared no-module no-apps no-tests no-docs) ;;
  *) echo "usage: $0 3.5|4.0" >&2; exit 2 ;;
esac
# LIBAEAD_OPENSSL_LEAN=1 (the musl stage, which runs no FIPS test): only the static libcrypto, trimmed, as
# for 4.0, without the FIPS module and the openssl program, under its own key.
if [ "${LIBAEAD_OPENSSL_LEAN:-0}" = 1 ]; then
    flags=(no-shared no-module no-apps no-legacy no-tests no-docs)
fi
cross_cc=${LIBAEAD_OPENSSL_CC:-}
# A cross build: only the static libcrypto (the 4.0 flags), not the FIPS module and the openssl program,
# which only the native FIPS stage uses; that halves the build (each of the two compiles the same ciphers).
[ -n "$cross_cc" ] && flags=(no-shared no-module no-apps no-legacy no-tests no-docs)
# Every build without the FIPS module (4.0, LIBAEAD_OPENSSL_LEAN, cross) is trimmed to what shim/ and the
# C suites call (EVP ciphers: AES ECB/GCM/CCM/OCB/SIV (CMAC, CTR)/GCM-SIV, ChaCha20, Poly1305; the
# default provider's DRBG; HPKE's EC, ECX and ML-KEM key agreement with the SHA families; OSSL_PARAM,
# ERR, CRYPTO_set_mem_functions): no other public-key algorithms, ciphers or digests, no PKI formats, no
# networking, and only libcrypto.a is made, not libssl. The library is hidden inside libaead.so, so
# nothing else can reach what is left out. A third fewer objects (4.0: 760 of 1,133). For another CPU
# (the qemu stages) ML-KEM goes too, and the C suites there expect its refusal.
trim_flags=(no-aria no-bf no-blake2 no-camellia no-cast no-cmp no-cms no-comp no-ct no-des no-dh no-dsa
    no-engine no-idea no-md4 no-ml-dsa no-slh-dsa no-ocsp no-http no-rc2 no-rc4 no-rmd160
    no-scrypt no-seed no-siphash no-sm3 no-sm4 no-srp no-srtp no-ts no-whirlpool no-sock no-psk
    no-nextprotoneg no-ssl-trace no-ui-console no-rfc3779 no-async no-multiblock no-gost)
trim=0
[[ " ${flags[*]} " == *" no-apps "* ]] && trim=1
if [ -n "$cross_cc" ] && [ "${LIBAEAD_OPENSSL_HOST_CPU:-$(uname -m)}" != "$(uname -m)" ]; then
    # (the list in this order, ml-kem in its old place: the cross builds' cache key is unchanged)
    trim_flags=("${trim_flags[@]:0:16}" no-ml-kem "${trim_flags[@]:16}")
fi
[ "$trim" = 1 ] && flags+=("${trim_flags[@]}")
cpu=${LIBAEAD_OPENSSL_HOST_CPU:-$(uname -m)}
[ "${LIBAEAD_OPENSSL_HOST_SYSTEM:-linux}" = linux ] ||
    { echo "build.sh: only Linux hosts are supported (host system: $LIBAEAD_OPENSSL_HOST_SYSTEM)" >&2; exit 2; }
case "$cpu" in  # OpenSSL's Configure target for the host CPU
  x86_64) target=linux-x86_64 ;;
  aarch64) target=linux-aarch64 ;;
  x86|i?86) target=linux-elf ;;
  s390x) target=linux64-s390x ;;
  arm) target=linux-armv4 ;;
  ppc64) target=linux-ppc64le ;;
  riscv64) target=linux64-riscv64 ;;
  *) target=linux-generic64 ;;
esac
flags+=("$target" -fPIC)

# A native build uses the system C compiler and OpenSSL's own flags, whatever compiler the meson build
# around it uses, so that one cached build serves every build directory; a cross build uses the host's.
unset CC CXX CFLAGS CXXFLAGS CPPFLAGS LDFLAGS OPENSSL_CONF OPENSSL_MODULES
compiler=$(cc -dumpfullversion 2>/dev/null || cc --version | head -1)
key_input=$(printf '%s\n' "$version" "${flags[@]}" "cc $compiler"; cat "$here"/fips-standins/util/*)
if [ -n "$cross_cc" ]; then
    read -r -a cc_words <<<"$cross_cc"
    # ccache in front (by name, or by path as PyPI's meson 1.12 gives it): the compiler behind it.
    [ "$(basename "${cc_words[0]}")" = ccache ] && cc_words=("${cc_words[@]:1}")
    export CC="${cc_words[*]}"
    # aarch64-linux-gnu-gcc -> aarch64-linux-gnu-ar, -ranlib (Configure takes AR and RANLIB from the
    # environment); a compiler without such a prefix (zig cc) gets the system's.
    cross_prefix=$(basename "${cc_words[0]}" | sed -n 's/^\(.*-\)\(gcc\|cc\|clang\)\(-[0-9.]*\)\{0,1\}$/\1/p')
    if [ -n "$cross_prefix" ] && command -v "${cross_prefix}ar" >/dev/null; then
        export AR="${cross_prefix}ar" RANLIB="${cross_prefix}ranlib"
    fi
    # The cache key: the target (in the flags) and the cross compiler, its version and its target triple.
    compiler="$CC $($CC -dumpfullversion 2>/dev/null || $CC --version | head -1) $($CC -dumpmachine 2>/dev/null || true)"
    key_input=$(printf '%s\n' "$version" "${flags[@]}" "cross-cc $compiler"; cat "$here"/fips-standins/util/*)
fi
key=$(printf '%s' "$key_input" | sha256sum | cut -c1-12)

root=${LIBAEAD_OPENSSL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libaead/openssl}
prefix="$root/$version-$key"
mkdir -p "$root"

# <prefix>/notice/: what every artifact that links this build carries beside it (docs/releasing.md):
# LICENSE-OpenSSL.txt, OpenSSL's own LICENSE.txt from the source built, and a NOTICE naming the version
# the built headers declare and the copyright line of OpenSSL's source (crypto/cversion.c, the file
# behind OpenSSL_version()). Usage: write_notice <installed tree> <OpenSSL source>
write_notice() {
    local tree=$1 source=$2 built_version copyright tmp
    built_version=$(sed -n 's/^# *define OPENSSL_FULL_VERSION_STR "\(.*\)"$/\1/p' "$tree/include/openssl/opensslv.h")
    [ "$built_version" = "$version" ] ||
        { echo "build.sh: the build declares OpenSSL '$built_version', not $version" >&2; return 1; }
    copyright=$(sed -n 's/^ \* \(Copyright [0-9-]* The OpenSSL Project Authors\..*\)$/\1/p' "$source/crypto/cversion.c" | head -1)
    [ -n "$copyright" ] || { echo "build.sh: no copyright line in $source/crypto/cversion.c" >&2; return 1; }
    [ -s "$source/LICENSE.txt" ] || { echo "build.sh: no LICENSE.txt in $source" >&2; return 1; }
    # (called after || too, where set -e does not apply: every step returns on failure)
    tmp=$(mktemp -d "$tree/.notice.XXXXXX") && cp "$source/LICENSE.txt" "$tmp/LICENSE-OpenSSL.txt" || return 1
    cat >"$tmp/NOTICE" <<NOTICE || return 1
libaead
Licensed under the Apache License, Version 2.0 (LICENSE).

This product includes OpenSSL $built_version, built from its source and linked statically into
libaead's shared library (https://www.openssl.org/).
$copyright
OpenSSL is licensed under the Apache License, Version 2.0: its licence, OpenSSL's LICENSE.txt,
is the file LICENSE-OpenSSL.txt next to this NOTICE.
NOTICE
    chmod 755 "$tmp" && chmod 644 "$tmp"/* && rm -rf "$tree/notice" && mv -T "$tmp" "$tree/notice"
}

if [ -f "$prefix/lib/libcrypto.a" ] && [ -f "$prefix/notice/NOTICE" ] && [ "${LIBAEAD_OPENSSL_REBUILD:-0}" != 1 ]; then
    echo "$prefix"
    exit 0
fi

# Progress: stderr, plus the terminal when there is one.
exec 3>/dev/null
{ exec 3>/dev/tty; } 2>/dev/null || true
say() { echo "openssl-build: $*" >&2; echo "openssl-build: $*" >&3 2>/dev/null || true; }

# One build per key at a time: a second caller waits, then finds the finished build.
exec 9>"$prefix.lock"
if ! flock -n 9; then
    say "another process is building OpenSSL $version into $prefix; waiting for it"
    flock 9
fi
if [ -f "$prefix/lib/libcrypto.a" ]; then
    if [ "${LIBAEAD_OPENSSL_REBUILD:-0}" = 1 ]; then rm -rf "$prefix"; else
        # A build cached before notice/ existed gets it from the same pinned source, without a rebuild.
        [ -f "$prefix/notice/NOTICE" ] || write_notice "$prefix" "$("$here/fetch-source.sh" "$series")"
        echo "$prefix"; exit 0
    fi
fi

src=$("$here/fetch-source.sh" "$series")
work=$(mktemp -d "${TMPDIR:-/tmp}/libaead-openssl-$version.XXXXXX")
stage=$(mktemp -d "$root/.stage-$version-$key.XXXXXX")  # same file system as $prefix: rename is atomic
log="$prefix.log"
trap 'rm -rf "$work" "$stage"; [ -n "${ticker:-}" ] && kill "$ticker" 2>/dev/null' EXIT
trap 'exit 1' INT TERM  # so that the EXIT trap cleans up on an interrupt too
: >"$log"

say "building OpenSSL $version (${flags[*]}) into $prefix"
say "3-6 minutes on 2 cores; log: $log"
start=$(date +%s)
cp -a "$src/." "$work/"
# The crate's source is trimmed: the FIPS module build needs these three generators/inputs back.
cp "$here"/fips-standins/util/* "$work/util/"

cd "$work"
./Configure "${flags[@]}" --prefix="$prefix" --openssldir="$prefix/ssl" --libdir=lib >>"$log" 2>&1 ||
    { say "Configure failed; see $log"; tail -20 "$log" >&2; exit 1; }
total=$(grep -Eo '^[^ :]+\.o:' Makefile | sort -u | { if [ "$trim" = 1 ]; then grep -v libssl-; else cat; fi; } | wc -l)
( while sleep 30; do
      say "$(find . -name '*.o' | wc -l)/$total objects, $(($(date +%s) - start)) s"
  done ) &
ticker=$!
jobs=${LIBAEAD_OPENSSL_JOBS:-2}
built="$stage$prefix"
if [ "$trim" = 1 ]; then
    # libaead needs only the headers and libcrypto.a (meson.build): libssl is not built at all.
    { nice -n 10 make -j"$jobs" build_generated >>"$log" 2>&1 &&
        nice -n 10 make -j"$jobs" libcrypto.a >>"$log" 2>&1; } ||
        { say "make failed; see $log"; tail -30 "$log" >&2; exit 1; }
    mkdir -p "$built/include/openssl" "$built/lib"
    cp include/openssl/*.h "$built/include/openssl/" && cp libcrypto.a "$built/lib/" ||
        { say "install failed"; exit 1; }
    kill "$ticker" 2>/dev/null || true
    ticker=
else
    nice -n 10 make -j"$jobs" build_sw >>"$log" 2>&1 || { say "make failed; see $log"; tail -30 "$log" >&2; exit 1; }
    kill "$ticker" 2>/dev/null || true
    ticker=
    install_targets=(install_sw)
    [[ " ${flags[*]} " == *" enable-fips "* ]] && install_targets+=(install_fips)
    make DESTDIR="$stage" "${install_targets[@]}" >>"$log" 2>&1 || { say "install failed; see $log"; exit 1; }
fi
if [ -n "$cross_cc" ]; then
    say "cross build: no FIPS module and no fipsinstall (the FIPS stage runs natively only)"
    rm -f "$built/ssl/fipsmodule.cnf"  # the stand-in's placeholder: no self-test MAC, so none at all
elif [ -x "$built/bin/openssl" ] && [ -f "$built/lib/ossl-modules/fips.so" ]; then
    # The real fipsmodule.cnf (self-test MAC of this fips.so), as `openssl fipsinstall` writes it.
    "$built/bin/openssl" fipsinstall -module "$built/lib/ossl-modules/fips.so" \
        -out "$built/ssl/fipsmodule.cnf" >>"$log" 2>&1 || { say "fipsinstall failed; see $log"; exit 1; }
fi
printf '%s\n' "$key_input" >"$built/libaead-build-key.txt"
write_notice "$built" "$src" || exit 1
mv -T "$built" "$prefix"
say "OpenSSL $version built in $(($(date +%s) - start)) s"
echo "$prefix"
