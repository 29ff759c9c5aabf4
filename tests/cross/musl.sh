#!/usr/bin/env bash
# The musl stage (tests/run-all.sh musl): libaead on the vendored OpenSSL 3.5 built for x86_64 Linux on
# musl with zig's clang and libc++ (zig from PyPI, tests/cross/zig/zig.sh), warnings as errors, and run
# natively here on Debian's musl loader (package musl, tests/setup.sh musl): the unit and memory suites
# (each way of running a cipher), then the dlopen consumer of tests/dlopen/ built as a musl program, which
# loads libaead.so.1 at run time: what the initial-exec TLS model, forced once, made impossible on musl.
# Usage, from anywhere: bash tests/cross/musl.sh   (build directory: build-musl; the vectors as for every
# suite: AEAD_VECTORS_DIR, which tests/run-all.sh sets from tests/vectors.sh)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
build=build-musl
loader=/lib/ld-musl-x86_64.so.1
# The cross file names its compilers without a path; zig.sh installs zig on first use.
export PATH="$repo/tests/cross/zig:$PATH"
export CCACHE_BASEDIR="$repo" CCACHE_NOHASHDIR=1
zig_version=$(zig.sh version)
echo "musl: zig $zig_version ($(zig.sh --path)), $(x86_64-linux-musl-clang --version | head -1)"
# ccache identifies a compiler by its file's mtime, which a fresh clone renews for these wrapper scripts:
# by zig's version and the wrappers' text instead.
CCACHE_COMPILERCHECK="string:zig-$zig_version-$(cat tests/cross/zig/x86_64-linux-musl-* | sha256sum | cut -c1-16)"
export CCACHE_COMPILERCHECK
[ -x "$loader" ] || { echo "musl: $loader not found (tests/setup.sh musl installs Debian's musl)" >&2; exit 1; }

# The vendored OpenSSL is built for musl by shim/openssl/build.sh under its own cache key (the cross
# compiler's name, version and target are in it) when meson sets up the build directory: only its static
# libcrypto (LIBAEAD_OPENSSL_LEAN), since no FIPS test runs here. Exported for ninja's re-runs of meson too.
export LIBAEAD_OPENSSL_LEAN=1
[ -f "$build/build.ninja" ] ||
    meson setup "$build" --cross-file tests/cross/x86_64-linux-musl.ini -Dlibcrypto=vendored -Dwerror=true >/dev/null
meson compile -C "$build" -j 2 >"$build/compile.log" 2>&1 ||
    { grep -E -A3 "error|warning" "$build/compile.log" | head -60; exit 1; }

# The binaries are musl's: every test program asks for musl's loader, and libaead.so.1 needs musl's libc
# and nothing of glibc's, and has no static TLS (DF_STATIC_TLS: initial-exec, which dlopen on musl refuses).
fail=0
is_musl_program() {  # file
    readelf -l "$1" | grep -q "Requesting program interpreter: $loader\]" &&
        ! readelf -d "$1" | grep -Eq "NEEDED.*\[(libc\.so\.6|libstdc\+\+)"
}
programs=0
for exe in "$build"/tests/test_*; do
    [ -f "$exe" ] && [ -x "$exe" ] || continue
    if is_musl_program "$exe"; then programs=$((programs + 1)); else echo "musl: $exe is not a musl program" >&2; fail=1; fi
done
lib_dynamic=$(readelf -d "$build/libaead.so.1")
if grep -q "NEEDED.*\[libc\.so\]" <<<"$lib_dynamic" && ! grep -Eq "NEEDED.*\[(libc\.so\.6|libstdc\+\+|libcrypto)" <<<"$lib_dynamic" &&
   ! grep -q STATIC_TLS <<<"$lib_dynamic"; then
    echo "musl: libaead.so.1 needs only musl's libc.so (no glibc, no libcrypto.so, no static TLS); $programs test programs use $loader"
else
    echo "musl: libaead.so.1 is not a musl library without static TLS:" >&2
    grep -E "NEEDED|FLAGS" <<<"$lib_dynamic" >&2
    fail=1
fi
[ "$programs" -gt 0 ] || { echo "musl: no test programs in $build/tests" >&2; fail=1; }

# Each C suite, once per way of running a cipher; the counts of each from its Catch2 summary.
suite_counts() {  # label
    python3 - "$1" "$build/meson-logs/testlog.json" <<'PY'
import json, re, sys
label, path = sys.argv[1], sys.argv[2]
for line in open(path):
    t = json.loads(line)
    out = (t.get("stdout") or "") + (t.get("stderr") or "")
    m = re.search(r"All tests passed \((\d+) assertions? in (\d+) test cases?\)", out)
    m2 = re.search(r"test cases: *(\d+) \| (\d+) passed \| (\d+) failed", out)
    what = (f"{m.group(2)} test cases, {m.group(1)} assertions" if m else
            f"{m2.group(1)} test cases, {m2.group(3)} failed" if m2 else "no Catch2 summary")
    print(f"musl {label}: {t['name'].split(' / ')[-1]:13} {t['result']:5} {what}")
PY
}
suites_passed=0 suites_failed=0
for dispatch in direct evp; do
    if [ "$dispatch" = evp ]; then export AEAD_DISPATCH=evp; else unset AEAD_DISPATCH; fi
    echo "--- meson test --suite unit --suite memory (dispatch: $dispatch)"
    rc=0
    meson test -C "$build" --suite unit --suite memory --print-errorlogs >"$build/test-$dispatch.log" 2>&1 || rc=$?
    grep -E "^ *[0-9]+/[0-9]+ .*(FAIL|TIMEOUT)|^(Ok|Fail|Timeout): " "$build/test-$dispatch.log" || true
    suite_counts "$dispatch"
    read -r ok total < <(python3 -c 'import json, sys
r = [json.loads(l)["result"] for l in open(sys.argv[1])]
print(r.count("OK"), len(r))' "$build/meson-logs/testlog.json")
    suites_passed=$((suites_passed + ok)) suites_failed=$((suites_failed + total - ok))
    if [ "$rc" != 0 ] || [ "$total" = 0 ]; then
        sed -n '/^=* [0-9]*\/[0-9]* =*$/,$p' "$build/test-$dispatch.log" | tail -60 >&2
        fail=1
    fi
done
unset AEAD_DISPATCH
grep -q "libsodium.*did not run" "$build/meson-logs/testlog.json" &&
    echo "musl: not available here: libsodium for musl, so the differential suite's XChaCha20-Poly1305 comparison did not run"

# The dlopen consumer (tests/dlopen/dlopen_consumer.c, no project header) as a musl program that loads
# libaead.so.1 by its SONAME through musl's loader (LD_LIBRARY_PATH) and uses every export.
echo "--- dlopen consumer, a musl program"
consumer=$build/dlopen_consumer
x86_64-linux-musl-clang -dynamic -std=c11 -Wall -Wextra -Werror -o "$consumer" tests/dlopen/dlopen_consumer.c -ldl
dlopen_ok=0
if ! is_musl_program "$consumer" || readelf -d "$consumer" | grep -q "NEEDED.*libaead"; then
    echo "musl: $consumer is not a musl program that leaves libaead to dlopen" >&2
    fail=1
elif LD_LIBRARY_PATH="$repo/$build" "$consumer" | tee "$build/dlopen.log"; then
    dlopen_ok=1
else
    echo "musl: the dlopen consumer FAILED" >&2
    fail=1
fi
grep -q "^[1-9][0-9]* passed, 0 failed$" "$build/dlopen.log" 2>/dev/null || { dlopen_ok=0; fail=1; }

echo "musl: C suites $suites_passed passed, $suites_failed failed (both dispatch paths); dlopen consumer $([ $dlopen_ok = 1 ] && echo passed || echo FAILED)"
echo "musl: $((suites_passed + dlopen_ok)) passed, $((suites_failed + 1 - dlopen_ok)) failed"
exit $fail
