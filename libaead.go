// Package libaead holds libaead's C++ core for the Go binding, github.com/libaead/libaead/bindings/go,
// whose default build compiles these sources with cgo. It has no API; import the binding instead.
//
// The binding imports this package for one reason: `go mod vendor` copies only the directories of the
// packages a build imports (and the files they embed), and the headers and sources of include/, lib/
// and shim/ hold no Go package (a directory with C++ files and no cgo cannot be one). Embedding them
// here makes vendoring copy them, so that `go build -mod=vendor` finds every file the binding includes.
package libaead

import "embed"

//go:embed include/*.h lib/*.h lib/*.cpp shim/*.h shim/*.cpp
var sources embed.FS
