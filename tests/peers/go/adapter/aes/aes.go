// Package aes stands for crypto/aes in the peer suites run on libaead (tests/peers/run.py): libaead's
// constructors take the key, not a cipher.Block, so NewCipher returns crypto/aes's block together
// with its key, which the cipher adapter passes on to libaead.
package aes

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"reflect"
	"unsafe"
)

// BlockSize is crypto/aes's.
const BlockSize = aes.BlockSize

// KeySizeError is crypto/aes's.
type KeySizeError = aes.KeySizeError

// keyedBlock is crypto/aes's block and the key it was made with.
type keyedBlock struct {
	cipher.Block
	key []byte
}

// NewCipher is crypto/aes.NewCipher (same errors), remembering the key.
func NewCipher(key []byte) (cipher.Block, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return &keyedBlock{b, bytes.Clone(key)}, nil
}

var blockType = reflect.TypeOf((*cipher.Block)(nil)).Elem()

// KeyOf returns the key of a block made by NewCipher, also when a suite wraps it in a struct of its
// own (crypto/cipher's tests wrap it so that it does not type-assert to crypto/aes's block, to test
// Go's generic GCM: here libaead runs again, on the same key). ok is false for any other block.
func KeyOf(b cipher.Block) (key []byte, ok bool) {
	if k, ok := b.(*keyedBlock); ok {
		return k.key, true
	}
	v := reflect.ValueOf(b)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil, false
	}
	s := v.Elem()
	for i := 0; i < s.NumField(); i++ {
		if f := s.Field(i); f.Type() == blockType && f.CanAddr() {
			// The suite's field is unexported: read it through its address.
			inner := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface()
			if ib, ok := inner.(cipher.Block); ok && ib != nil {
				return KeyOf(ib)
			}
		}
	}
	return nil, false
}
