module github.com/pqcodec/pqcodec/adapters/parquetgo

go 1.25.0

require (
	github.com/parquet-go/parquet-go v0.32.0
	github.com/pqcodec/pqcodec v0.1.0
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/DataDog/zstd v1.5.7 // indirect
	github.com/andybalholm/brotli v1.3.0 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/golang/snappy v1.0.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/klauspost/compress v1.20.4 // indirect
	github.com/klauspost/cpuid/v2 v2.4.0 // indirect
	github.com/parquet-go/bitpack v1.0.0 // indirect
	github.com/parquet-go/jsonlite v1.0.0 // indirect
	github.com/pierrec/lz4/v4 v4.1.33 // indirect
	github.com/twpayne/go-geom v1.6.1 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.43.0 // indirect
	google.golang.org/protobuf v1.34.2 // indirect
)

// The repository builds and tests the adapter with the core beside it;
// replace directives apply only to builds of this module itself, so a user's
// go get resolves the core at the version required above.
replace github.com/pqcodec/pqcodec => ../..
