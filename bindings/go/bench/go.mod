module github.com/libaead/libaead/bindings/go/bench

go 1.26.0

require (
	filippo.io/age v1.3.2
	github.com/ProtonMail/go-crypto v1.5.2
	github.com/golang-fips/openssl/v2 v2.0.3
	github.com/libaead/libaead v0.0.0
	github.com/pion/dtls/v3 v3.1.15
	github.com/tink-crypto/tink-go/v2 v2.9.0
	golang.org/x/crypto v0.59.0
)

require (
	filippo.io/hpke v0.4.0 // indirect
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da // indirect
	golang.org/x/sys v0.50.0 // indirect
	google.golang.org/protobuf v1.36.11 // indirect
)

replace github.com/libaead/libaead => ../../..

tool golang.org/x/perf/cmd/benchstat
