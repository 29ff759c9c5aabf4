//go:build go1.24

package aead

const stdlibHasCurrentMessages = true
