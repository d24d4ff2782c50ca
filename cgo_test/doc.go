// Package cgotest is pqcodec's compatibility suite. Its tests decode every
// column chunk of every file of apache/parquet-testing with
// [github.com/pqcodec/pqcodec/column] and compare the values and the
// definition and repetition levels, value by value, with an oracle:
// apache/arrow-go's column chunk readers, parquet-go where only it reads a
// file, the *_expect.csv files of the corpus, and for the files no peer
// reads, values established independently (see oracles_test.go). The result
// is the checked-in table COMPATIBILITY.md; `go test -run TestCompat
// -update` regenerates it, and a normal run fails when it is stale.
//
// bench_test.go measures end-to-end column chunk decoding (decompression
// and decoding of every column) beside arrow-go and parquet-go on the same
// bytes.
//
// The package is a nested module so that pqcodec's users never inherit the
// peer libraries it tests against. It has no API.
package cgotest
