// The Go preludes in prelude/ are templates (tests/snippets/extract.py fills them in), not a package:
// this go.mod keeps them out of the repository's root module, so that `go build ./...` and `go vet ./...`
// there, and the module zip, do not see them.
module libaead.test/snippets

go 1.21
