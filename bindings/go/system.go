//go:build libaead_system

package aead

// With the build tag libaead_system the package links an installed libaead (meson install, or a
// distribution's package) found by pkg-config as "aead", the way go-sqlite3's libsqlite3 tag links
// the system SQLite; test.sh, test-installed.sh and bench.sh build this way.

/*
#cgo pkg-config: aead
*/
import "C"
