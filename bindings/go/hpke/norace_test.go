//go:build !race

package hpke

const raceBuild = false
