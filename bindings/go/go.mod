module github.com/libaead/libaead/bindings/go

go 1.21
