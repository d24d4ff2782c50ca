module github.com/pqcodec/pqcodec

go 1.25.0

require (
	github.com/DataDog/zstd v1.5.7
	github.com/andybalholm/brotli v1.3.0
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/cyberdelia/lzo v1.0.0
	github.com/golang/snappy v1.0.0
	github.com/google/brotli/go/cbrotli v1.1.0
	github.com/klauspost/compress v1.20.4
	github.com/klauspost/cpuid/v2 v2.4.0
	github.com/pierrec/lz4/v4 v4.1.33
	github.com/stretchr/testify v1.12.1
	golang.org/x/sys v0.43.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
