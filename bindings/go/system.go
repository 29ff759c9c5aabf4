//go:build libaead_system

package aead

// With the build tag libaead_system the package links an installed libaead (meson install, or a
// distribution's package) found by pkg-config as "aead", the way go-sqlite3's libsqlite3 tag links
// the system SQLite; test.py, test.py --installed and bench.sh build this way.

/*
#cgo pkg-config: aead
#include <aead.h>
// The floor: the newest release whose functions or constants this package names (tests/decls/floors.py
// checks it). An older installed libaead fails here, at build time, instead of at link or run time.
#if !defined(AEAD_VERSION_NUMBER) || AEAD_VERSION_NUMBER < 10700
#error "the Go package needs libaead 1.7.0 or newer; the libaead that pkg-config finds as aead is older"
#endif
*/
import "C"
