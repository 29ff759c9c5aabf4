#!/usr/bin/env bash
# The Go blocks of user documents, built and run against a Go module of this checkout.
# Usage: tests/snippets/run-go.sh PACKAGE_DIR FILE...
# Run after sourcing bindings/go/env.sh (the stage's GOFLAGS, pkg-config and library paths), so that the
# binding is the one the stage built and tested. The blocks (tests/snippets/extract.py, preludes in
# tests/snippets/prelude/go*.go) go into a scratch module that requires the module of PACKAGE_DIR (the
# directory of the package the documents use), replaced by the checkout, with that module's own
# requirements and go.sum:
#   - a block with prelude=example (Example functions) is a _test.go file of one package per document, so
#     that helpers one block defines serve the next; `go test` runs every Example with an `// Output:`
#     comment and checks what it prints. The README says these blocks are the binding's example files:
#     each function in them must also be, verbatim, in a _test.go file of PACKAGE_DIR.
#   - any other block is a main package, built and run; with raises=NAME it must fail and print NAME.
# Every file is gofmt-clean and go-vetted. A failure names the document's file:line.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PACKAGE_DIR="$(cd "$1" && pwd)"
shift
MODULE_DIR="$(dirname "$(cd "$PACKAGE_DIR" && go env GOMOD)")"  # the directory of its go.mod
TMP="$(mktemp -d /tmp/libaead-snippets-go.XXXXXX)"
trap 'rm -rf "$TMP"' EXIT

python3 "$HERE/extract.py" --lang go --out "$TMP/src" "$@" >"$TMP/list"

# The scratch module: the go.mod and go.sum of MODULE_DIR, its relative replaces made absolute, plus itself.
mkdir -p "$TMP/mod"
cp "$MODULE_DIR/go.mod" "$TMP/mod/go.mod"
[ ! -e "$MODULE_DIR/go.sum" ] || cp "$MODULE_DIR/go.sum" "$TMP/mod/go.sum"
cd "$TMP/mod"
module=$(go mod edit -json | python3 -c 'import json, sys; print(json.load(sys.stdin)["Module"]["Path"])')
go mod edit -module snippets -require="$module@v0.0.0" -replace="$module=$MODULE_DIR"
go mod edit -json | python3 -c '
import json, sys
for r in json.load(sys.stdin).get("Replace") or []:
    if r["New"]["Path"].startswith("."):
        print("%s=%s" % (r["Old"]["Path"], r["New"]["Path"]))' | while IFS== read -r old new; do
    go mod edit -replace="$old=$(cd "$MODULE_DIR/$new" && pwd)"
done

# where NAME: the document's file:line of the program NAME.
where() { awk -F'\t' -v n="$1" '$1 == n { print $2 }' "$TMP/list"; }
programs=() examples=()
while IFS=$'\t' read -r name loc raises; do
    if grep -q '^package snippets_test$' "$TMP/src/$name.go"; then
        [ -z "$raises" ] || { echo "FAIL $loc: raises= is for a program, not for Example functions" >&2; exit 1; }
        dir="ex/${name%_L*}"
        mkdir -p "$dir" && cp "$TMP/src/$name.go" "$dir/${name}_test.go"
        examples+=("$name")
    else
        mkdir -p "p/$name" && cp "$TMP/src/$name.go" "p/$name/main.go"
        programs+=("$name")
    fi
done <"$TMP/list"

fail=0
unformatted=$(gofmt -l . || true)
for f in $unformatted; do
    n=$(basename "$f" .go); n=${n%_test}; [ "$n" != main ] || n=$(basename "$(dirname "$f")")
    echo "FAIL $(where "$n"): not gofmt-formatted:" >&2
    gofmt -d "$f" >&2 || true
    fail=1
done
go vet ./... || { echo "FAIL: go vet on the blocks of $*" >&2; exit 1; }

# The Example blocks are the binding's example files: each function, verbatim.
if [ ${#examples[@]} -gt 0 ]; then
    python3 - "$PACKAGE_DIR" "$TMP/list" "${examples[@]}" <<'PY' || fail=1
import glob, os, re, sys
module_dir, listing, names = sys.argv[1], sys.argv[2], sys.argv[3:]
where = dict(l.split("\t")[:2] for l in open(listing).read().splitlines())
tests = "".join(open(f).read() for f in glob.glob(os.path.join(module_dir, "*_test.go")))
bad = 0
for name in names:
    src = open(os.path.join("ex", re.sub(r"_L\d+$", "", name), name + "_test.go")).read()
    for f in re.findall(r"^(?://[^\n]*\n)*func [^\n]*\{\n(?:[^\n]*\n)*?\}\n", src, re.M):
        if f not in tests:
            print("FAIL %s: %s is not verbatim in a _test.go file of %s" % (where[name], re.search(r"func \w+", f).group(0), module_dir), file=sys.stderr)
            bad = 1
sys.exit(bad)
PY
fi

ran_examples=0 compiled_only=0
for dir in ex/*/; do
    [ -d "$dir" ] || continue
    if out=$(go test -count=1 -v "./$dir" 2>&1); then :; else
        echo "$out" >&2
        for f in $(sed -n 's/^--- FAIL: \(Example[A-Za-z0-9_]*\).*/\1/p' <<<"$out"); do
            file=$(grep -l "^func $f()" "$dir"*_test.go | head -1)
            echo "FAIL $(where "$(basename "$file" _test.go)"): $f" >&2
        done
        fail=1
    fi
    ran_examples=$((ran_examples + $(grep -c '^--- PASS: Example' <<<"$out" || true)))
    defined=$(cat "$dir"*_test.go | grep -c '^func Example' || true)
    compiled_only=$((compiled_only + defined - $(grep -c '^=== RUN   Example' <<<"$out" || true)))
done

if [ ${#programs[@]} -gt 0 ]; then
    go build -o "$TMP/bin/" ./p/... || { echo "FAIL: go build of the blocks of $*" >&2; exit 1; }
fi
for name in "${programs[@]}"; do
    raises=$(awk -F'\t' -v n="$name" '$1 == n { print $3 }' "$TMP/list")
    if out=$(timeout 120 "$TMP/bin/$name" 2>&1); then rc=0; else rc=$?; fi
    if [ -z "$raises" ] && [ $rc != 0 ]; then
        echo "$out" >&2; echo "FAIL $(where "$name"): exit $rc" >&2; fail=1
    elif [ -n "$raises" ] && { [ $rc = 0 ] || ! grep -qF -- "$raises" <<<"$out"; }; then
        echo "$out" >&2; echo "FAIL $(where "$name"): expected a failure printing $raises (exit $rc)" >&2; fail=1
    else
        echo "ok $(where "$name")${raises:+ (fails with $raises, as it should)}: $(head -c 300 <<<"$out" | tr '\n' ' ')"
    fi
done

[ $fail = 0 ] || { echo "FAIL: Go blocks of $*" >&2; exit 1; }
files=$(cut -f2 "$TMP/list" | sed 's/:[0-9]*$//' | sort -u | wc -l)
for f in $(cut -f2 "$TMP/list" | sed 's/:[0-9]*$//' | sort -u); do
    echo "   $f: $(cut -f2 "$TMP/list" | grep -c "^$f:") go blocks"
done
echo "snippets: $(wc -l <"$TMP/list") go blocks of $files files ran (${#programs[@]} programs; ${#examples[@]} blocks of Example functions: $ran_examples examples run with their output checked, $compiled_only without an // Output: comment compiled only)"
