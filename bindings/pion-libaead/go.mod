module github.com/libaead/libaead/bindings/pion-libaead

go 1.24.0

require (
	github.com/libaead/libaead v0.0.0
	github.com/pion/dtls/v3 v3.1.15
)

require (
	github.com/pion/logging v0.2.4 // indirect
	github.com/pion/transport/v5 v5.0.0 // indirect
	golang.org/x/crypto v0.48.0 // indirect
	golang.org/x/sys v0.41.0 // indirect
)

// The binding of this checkout (the repository root is its module): DTLS12 is newer than any release.
replace github.com/libaead/libaead => ../..
