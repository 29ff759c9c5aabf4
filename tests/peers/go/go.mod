module github.com/libaead/libaead/tests/peers/go

go 1.26.0

require (
	github.com/libaead/libaead v0.0.0
	golang.org/x/crypto v0.59.0
)

require golang.org/x/sys v0.50.0 // indirect

replace github.com/libaead/libaead => ../../..
