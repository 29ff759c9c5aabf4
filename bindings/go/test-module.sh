#!/usr/bin/env bash
# The Go module as a user meets it: no meson build, no installed libaead, no checkout.
#  1. the wrappers of the bundled build are current (csrc.sh --check);
#  2. the module zip for v<meson.build's version> is made from the files git tracks in the repository
#     and libaegis's sources, which the release commit adds (shim/aegis/fetch.sh --into
#     shim/aegis/libaegis; docs/releasing.md) (the root module github.com/libaead/libaead;
#     golang.org/x/mod/zip, as proxy.golang.org makes it from the tagged commit, leaves the nested modules
#     out) and served from a file-based GOPROXY in a temporary directory;
#  3. a scratch module outside the repository `go get`s the binding at that version with an empty
#     module cache, vets, builds and runs a program (which must not load any libaead.so), then vets and
#     tests the binding's packages from the module cache (`go test <module>/bindings/go/...`);
#  4. the same program vendored: `go mod vendor`, then, with no module cache and no proxy,
#     `go build -mod=vendor` (cgo compiles the core from vendor/) and run.
# The zip is kept in $AEAD_DIST_DIR (default <repo>/build-release/dist). $AEAD_RELEASE_TABLE, if set,
# gets one tab-separated row: artifact, size, build time, tests.
#   bash bindings/go/test-module.sh            KEEP=1 ... keeps the temporary directory
set -euo pipefail
GO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$GO_DIR/../.." && pwd)"
if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then export PATH="/usr/local/go/bin:$PATH"; fi
version="$(sed -n "s/^ *version *: *'\([0-9.]*\)'.*/\1/p" "$REPO/meson.build" | head -n 1)"
module="$(sed -n 's/^module //p' "$REPO/go.mod")"
pkg="$module/bindings/go"
dist="${AEAD_DIST_DIR:-$REPO/build-release/dist}"
TMP="$(mktemp -d /tmp/libaead-go-module.XXXXXX)"
cleanup() { chmod -R u+w "$TMP" 2>/dev/null; rm -rf "$TMP"; }
if [ -z "${KEEP:-}" ]; then trap cleanup EXIT; fi

bash "$GO_DIR/csrc.sh" --check

echo "== module zip $module@v$version (the git tag v$version)"
mkdir -p "$TMP/src" "$dist"
# What a tag would hold: the files git tracks (as in the working tree), nothing built or untracked.
(cd "$REPO" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$TMP/src"
bash "$REPO/shim/aegis/fetch.sh" --into "$TMP/src/shim/aegis/libaegis" >/dev/null  # the release commit's copy
(cd "$REPO/tests/release/gomodzip" && GOFLAGS=-mod=mod go run . "$TMP/src" "v$version" "$TMP/proxy")
zip="$(find "$TMP/proxy" -name "v$version.zip")"
cp "$zip" "$dist/go-module-v$version.zip"
listing="$(unzip -Z1 "$zip")"
echo "== zip holds $(wc -l <<<"$listing") files, $(du -h "$zip" | cut -f1), $(grep -c '\.cpp$' <<<"$listing") C++ files"
# Every source the bundled build compiles, and no nested module (bench, pion-libaead, tests/...).
for src in $(bash "$REPO/bindings/csrc.sh" --sources) $(grep -v '^#' "$REPO/shim/aegis/sources.txt" | sed 's|^|shim/aegis/libaegis/src/|'); do
    grep -qxF "$module@v$version/$src" <<<"$listing" || { echo "FAIL: the zip lacks $src" >&2; exit 1; }
done
if grep -E "^$module@v$version/(bindings/go/bench|bindings/pion-libaead|tests/snippets)/" <<<"$listing"; then
    echo "FAIL: the zip holds files of a nested module" >&2; exit 1
fi

# A user's environment: this proxy only, a fresh module cache, no checksum database for the module
# (it is not published), no libaead to find, nothing of this repository.
unset PKG_CONFIG_PATH LD_LIBRARY_PATH AEAD_BUILD_DIR AEAD_PREFIX AEAD_EXPECT_LIB_DIR AEAD_LIB GOFLAGS CGO_LDFLAGS
export GOPROXY="file://$TMP/proxy" GONOSUMDB="$module" GOMODCACHE="$TMP/modcache" GOTOOLCHAIN=local
export GOFLAGS=-mod=mod CGO_ENABLED=1
mkdir "$TMP/user"
cd "$TMP/user"
go mod init example.com/user >/dev/null 2>&1
cp "$GO_DIR/testdata/moduleuser/main.go" main.go
grep -qF "aead \"$pkg\"" main.go || { echo "FAIL: testdata/moduleuser/main.go does not import $pkg" >&2; exit 1; }
start=$(date +%s.%N)
go get "$pkg@v$version"
go vet .
nice go build -o user .
build_s=$(printf '%.1f' "$(echo "$(date +%s.%N) - $start" | bc)")
echo "== go get + vet + build: ${build_s} s; the program:"
./user | tee "$TMP/run.txt"
grep -q "^ok: libaead $version (" "$TMP/run.txt" || { echo "FAIL: expected libaead $version" >&2; exit 1; }
if grep -q libaead <<<"$(ldd ./user)"; then echo "FAIL: the program links a libaead.so" >&2; exit 1; fi
echo "== links: $(ldd ./user | awk '{print $1}' | grep -E 'libcrypto|libstdc' | tr '\n' ' ')"

echo "== go vet $module/... and go test $pkg/... from the module cache"
go vet "$module/..."
# The conformance tests read the vectors (tests/vectors.py), which are not part of the module.
[ -n "${AEAD_VECTORS_DIR:-}" ] || AEAD_VECTORS_DIR=$(python3 "$REPO/tests/vectors.py" | tail -n 1)
export AEAD_VECTORS_DIR
out="$(nice go test -count=1 -v "$pkg/..." 2>&1)" || { echo "$out" | grep -E -B2 -A20 '^(--- FAIL|FAIL|panic)' | head -80; exit 1; }
echo "$out" | grep -E '^(ok|---.*Bundled)' || true
passed="$(echo "$out" | grep -c '^--- PASS' || true)"
skipped="$(echo "$out" | grep -c '^--- SKIP' || true)"
echo "== Go module v$version: $passed tests passed, $skipped skipped ($(echo "$out" | grep '^--- SKIP' | sed 's/^--- SKIP: \([^ ]*\).*/\1/' | tr '\n' ' '))"

echo "== go mod vendor, then go build -mod=vendor with no module cache and no proxy"
go mod vendor
for f in $(bash "$REPO/bindings/csrc.sh" --sources) include/aead.h; do
    [ -f "vendor/$module/$f" ] || { echo "FAIL: go mod vendor left out $f" >&2; exit 1; }
done
mkdir "$TMP/empty-modcache"
start=$(date +%s.%N)
GOFLAGS=-mod=vendor GOPROXY=off GOMODCACHE="$TMP/empty-modcache" nice go build -o user-vendored .
vendor_s=$(printf '%.1f' "$(echo "$(date +%s.%N) - $start" | bc)")
[ -z "$(ls -A "$TMP/empty-modcache")" ] || { echo "FAIL: the vendored build used the module cache" >&2; exit 1; }
./user-vendored | tee "$TMP/run-vendored.txt"
grep -q "^ok: libaead $version (" "$TMP/run-vendored.txt" || { echo "FAIL: vendored: expected libaead $version" >&2; exit 1; }
echo "== vendored build: $(find vendor -type f | wc -l) files in vendor/, built in ${vendor_s} s, ran"
if [ -n "${AEAD_RELEASE_TABLE:-}" ]; then
    printf 'Go module zip (go get, bundled C++)\t%s\t%s s\t%s passed, %s skipped\n' \
        "$(du -h "$dist/go-module-v$version.zip" | cut -f1)" "$build_s" "$passed" "$skipped" >>"$AEAD_RELEASE_TABLE"
fi
