#!/usr/bin/env bash
# Go's own AEAD test suites run on libaead's Go binding, each first on the standard library or
# x/crypto (the control), then with the constructors swapped for libaead's:
#   crypto/cipher            gcm_test.go of the installed toolchain ($(go env GOROOT)/src), with the
#                            AEAD checks of crypto/internal/cryptotest it calls (TestAEAD,
#                            NoExtraMethods): copied into a scratch module (internal packages cannot
#                            be imported from outside GOROOT) by tests/peers/go/rewrite, which maps
#                            import paths only; on libaead, crypto/cipher and crypto/aes are mapped to
#                            tests/peers/go/adapter's packages, whose NewGCM* call libaead's with the
#                            AES block's key.
#   x/crypto/chacha20poly1305  the tests of golang.org/x/crypto's package (XChaCha20-Poly1305 included),
#                            at the version pinned in tests/peers/go/go.mod and checksummed by its
#                            go.sum: the control is `go test` of the package itself; on libaead its test
#                            files run beside adapter/chacha20poly1305/libaead.go (New and NewX).
# Not run: TestGCMNoncesFIPSV1. Its two cases (NewGCMWithCounterNonce, NewGCMForSSH) call the Go FIPS
# module's counter-nonce constructors and service indicator (crypto/internal/fips140/...), which code
# outside GOROOT cannot import, so the suite has no control run of them; the binding's own
# counter_nonce_test.go ports them case for case onto its constructors of the same names. rewrite checks
# that the test holds exactly those two cases.
# Leaf tests (go test -json) are counted in both runs; every leaf whose outcome differs must be
# listed under "## go" in tests/peers/differences.txt (tests/peers/go/compare). libaead is the
# build tree's ($AEAD_BUILD_DIR, default build/), as for the Go stage (bindings/go/env.sh).
# The suites are fetched or copied at run time into ${XDG_CACHE_HOME:-~/.cache}/libaead/peers-go
# (a fixed directory, so that Go's build cache serves the next run); nothing of them is kept in
# the repository.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/../../bindings/go/env.sh" # PATH, pkg-config and loader paths, -tags libaead_system
PEERS="$HERE/go"
DIFFS="$HERE/differences.txt"
self_module="$(sed -n 's/^module //p' "$PEERS/go.mod")"
binding_module="$(sed -n 's/^module //p' "$REPO/go.mod")/bindings/go"  # the binding's package
goroot_src="$(go env GOROOT)/src"
work="${XDG_CACHE_HOME:-$HOME/.cache}/libaead/peers-go"
start=$(date +%s)
mkdir -p "$work"
exec 9>"$work/lock"
flock 9 # one run at a time in the fixed directory

echo "== peers go: $(go version | cut -d' ' -f3-), libaead from the $AEAD_SOURCE, suites in $work"
for f in crypto/cipher/gcm_test.go crypto/cipher/cbc_test.go crypto/internal/cryptotest/aead.go \
         crypto/internal/cryptotest/methods.go crypto/internal/cryptotest/hash.go crypto/internal/cryptotest/stream.go crypto/internal/cryptotest/block.go; do
    [ -f "$goroot_src/$f" ] || { echo "FAIL: peers go: $goroot_src/$f is missing (the toolchain's source)" >&2; exit 1; }
done

# The scratch module: the helpers' go.mod (the pinned x/crypto) and go.sum (its checksums), with the
# helpers and the binding replaced by their directories in this checkout.
rm -rf "$work/module"
mkdir -p "$work/module"
m="$work/module"
sed -e "s#^module .*#module peersrun#" -e "s#=> \.\./\.\./\.\.\$#=> $REPO#" "$PEERS/go.mod" >"$m/go.mod"
cat >>"$m/go.mod" <<EOF

require $self_module v0.0.0

replace $self_module => $PEERS
EOF
cp "$PEERS/go.sum" "$m/go.sum"
(
    cd "$PEERS"
    unformatted="$(gofmt -l .)"
    if [ -n "$unformatted" ]; then echo "FAIL: peers go: gofmt would change: $unformatted" >&2; exit 1; fi
    go vet ./...
    go build -o "$work/rewrite" ./rewrite
    go build -o "$work/compare" ./compare
)
rw="$work/rewrite"

# crypto/internal/cryptotest's AEAD checks: aead.go and methods.go as they are, the three helpers they
# share with the rest of the package, and adapter/cryptotest's TestAllImplementations.
mkdir "$m/cryptotest"
for f in aead.go methods.go; do "$rw" -in "$goroot_src/crypto/internal/cryptotest/$f" -out "$m/cryptotest/$f"; done
"$rw" -in "$goroot_src/crypto/internal/cryptotest/hash.go" -keep newRandReader -out "$m/cryptotest/randreader.go"
"$rw" -in "$goroot_src/crypto/internal/cryptotest/stream.go" -keep truncateHex -out "$m/cryptotest/truncatehex.go"
"$rw" -in "$goroot_src/crypto/internal/cryptotest/block.go" -keep mustPanic -out "$m/cryptotest/mustpanic.go"
cp "$PEERS/adapter/cryptotest/implementations.go" "$m/cryptotest/"

# crypto/cipher's gcm_test.go (and the one helper it takes from cbc_test.go), for each run.
cipher_suite() { # dir, extra rewrite flags...
    local dir="$m/$1"
    shift
    mkdir "$dir"
    local common=(-pkg gcmpeer -import "crypto/internal/cryptotest=peersrun/cryptotest"
                  -import "crypto/internal/boring=$self_module/adapter/boring")
    "$rw" -in "$goroot_src/crypto/cipher/gcm_test.go" -out "$dir/gcm_test.go" "${common[@]}" "$@" \
        -drop TestGCMNoncesFIPSV1=NewGCMWithCounterNonce,NewGCMForSSH
    "$rw" -in "$goroot_src/crypto/cipher/cbc_test.go" -out "$dir/randreader_test.go" "${common[@]}" -keep newRandReader
}
cipher_suite cipher-control
cipher_suite cipher-libaead -import "crypto/cipher=$self_module/adapter/cipher" -import "crypto/aes=$self_module/adapter/aes"
if grep -h '"crypto/cipher"\|"crypto/aes"' "$m/cipher-libaead/"*.go; then
    echo "FAIL: peers go: the libaead copy of crypto/cipher's tests still imports the standard library's constructors" >&2
    exit 1
fi

# x/crypto's chacha20poly1305 tests, from the module cache (downloaded and checked against go.sum).
(cd "$m" && go mod download golang.org/x/crypto)
xdir="$(cd "$m" && go list -m -f '{{.Dir}}' golang.org/x/crypto)/chacha20poly1305"
mkdir "$m/chacha-libaead"
cp "$xdir"/*_test.go "$PEERS/adapter/chacha20poly1305/libaead.go" "$m/chacha-libaead/"
chmod -R u+w "$m/chacha-libaead"
if grep -lE '^func (New|NewX)\(' "$m/chacha-libaead/"*_test.go; then
    echo "FAIL: peers go: x/crypto's tests define a constructor themselves" >&2
    exit 1
fi

# cryptotest's AEAD checks on x/crypto's ChaCha20-Poly1305 and XChaCha20-Poly1305 (testdata's driver;
# no peer suite runs them there).
for run in control libaead; do
    mkdir "$m/cryptotest-$run"
    flags=(-import "crypto/internal/cryptotest=peersrun/cryptotest")
    [ $run = control ] || flags+=(-import "golang.org/x/crypto/chacha20poly1305=$self_module/adapter/chacha20poly1305")
    "$rw" -in "$PEERS/testdata/chacha20poly1305_aead_test.go" -out "$m/cryptotest-$run/aead_test.go" "${flags[@]}"
done

# Each libaead run must link the binding, and no control may.
for run in cipher chacha cryptotest; do
    for side in control libaead; do
        pkg="./$run-$side"
        [ "$run-$side" = chacha-control ] && pkg=golang.org/x/crypto/chacha20poly1305
        deps="$(cd "$m" && go list -test -deps "$pkg")"
        if grep -qx "$binding_module" <<<"$deps"; then linked=libaead; else linked=control; fi
        if [ "$linked" != "$side" ]; then
            echo "FAIL: peers go: $pkg ($side run) $([ "$side" = libaead ] && echo "does not import" || echo imports) $binding_module" >&2
            exit 1
        fi
    done
done

# go_test NAME PACKAGE: go test -json of one run into $work/NAME.json (its failures are the leaf
# counts' business, not this script's exit code).
go_test() {
    (cd "$m" && go test -count=1 -json -timeout 10m "$2" >"$work/$1.json" 2>"$work/$1.stderr") || true
    if [ -s "$work/$1.stderr" ]; then sed "s/^/[$1] /" "$work/$1.stderr" >&2; fi
}
go_test cipher-control ./cipher-control
go_test cipher-libaead ./cipher-libaead
go_test chacha-control golang.org/x/crypto/chacha20poly1305
go_test chacha-libaead ./chacha-libaead
go_test cryptotest-control ./cryptotest-control
go_test cryptotest-libaead ./cryptotest-libaead

status=0
summary=()
for s in "crypto/cipher cipher" "x/crypto/chacha20poly1305 chacha" "cryptotest/chacha20poly1305 cryptotest"; do
    read -r suite file <<<"$s"
    if ! out="$("$work/compare" -suite "$suite" -control "$work/$file-control.json" -libaead "$work/$file-libaead.json" -differences "$DIFFS")"; then
        status=1
    fi
    echo "$out"
    summary+=("$(tail -n 1 <<<"$out")")
done
passed=0 failed=0
for line in "${summary[@]}"; do
    p=$(sed -n 's/.*; libaead \([0-9]*\) passed \/ \([0-9]*\) failed;.*/\1/p' <<<"$line")
    f=$(sed -n 's/.*; libaead \([0-9]*\) passed \/ \([0-9]*\) failed;.*/\2/p' <<<"$line")
    [ -n "$p" ] && [ -n "$f" ] || { echo "FAIL: peers go: no counts in: $line" >&2; status=1; continue; }
    passed=$((passed + p)) failed=$((failed + f))
done
echo "== peers go: $(($(date +%s) - start)) s; not run on either side: crypto/cipher TestGCMNoncesFIPSV1/NewGCMWithCounterNonce and TestGCMNoncesFIPSV1/NewGCMForSSH (Go's constructors are internal to the standard library: no control run; bindings/go/counter_nonce_test.go ports them)"
echo "$passed passed, $failed failed"
exit $status
