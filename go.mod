// The Go module of this repository: the binding is the package github.com/libaead/libaead/bindings/go,
// and its default build compiles lib/ and shim/ from this module (see libaead.go). Releases are tagged
// vX.Y.Z at the root.
module github.com/libaead/libaead

go 1.21
