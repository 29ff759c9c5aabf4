//go:build libaead_system

package hpke

// The installed libaead (pkg-config package "aead"), as the binding's package links it; that
// package's floor (system.go) covers the functions called here.

// #cgo pkg-config: aead
import "C"
