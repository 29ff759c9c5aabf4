//go:build libaead_system

package stream

// The installed libaead (pkg-config package "aead"), as the binding's package links it. This package
// needs libaead 1.7 (its streams); an older installed libaead fails here, at build time.

/*
#cgo pkg-config: aead
#include <aead.h>
#if !defined(AEAD_VERSION_NUMBER) || AEAD_VERSION_NUMBER < 10700
#error "the Go package stream needs libaead 1.7.0 or newer; the libaead that pkg-config finds as aead is older"
#endif
*/
import "C"
