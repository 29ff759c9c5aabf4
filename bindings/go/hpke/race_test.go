//go:build race

package hpke

// raceBuild: the tests run under the race detector (go test -race).
const raceBuild = true
