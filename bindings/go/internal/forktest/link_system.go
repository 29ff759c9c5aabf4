//go:build libaead_system

package forktest

// #cgo pkg-config: aead
import "C"
