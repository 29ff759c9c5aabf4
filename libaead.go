// Package libaead holds libaead's C++ core for the Go binding, github.com/libaead/libaead/bindings/go,
// whose default build compiles these sources with cgo. It has no API; import the binding instead.
//
// The binding imports this package for one reason: `go mod vendor` copies only the directories of the
// packages a build imports (and the files they embed), and the headers and sources of include/, lib/
// and shim/ hold no Go package (a directory with C++ files and no cgo cannot be one). Embedding them
// here makes vendoring copy them, so that `go build -mod=vendor` finds every file the binding includes.
// shim/aegis/libaegis/ holds libaegis's C sources (the AEGIS family), copied from the pinned aegis crate:
// a release's tagged commit carries them (docs/releasing.md); in a checkout, shim/aegis/fetch.sh --into
// shim/aegis/libaegis puts them there (bindings/go/test.py does).
package libaead

import "embed"

//go:embed include/*.h lib/*.h lib/*.cpp shim/*.h shim/*.cpp shim/aegis/prefix.h shim/aegis/libaegis
var sources embed.FS
