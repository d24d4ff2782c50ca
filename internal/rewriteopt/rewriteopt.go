// Package rewriteopt holds, once, the checks of the options that the
// packages writing whole files from other files share (recompress, merge,
// reencode): WithWorkers, WithMaxMemory and WithKeyValue. Each package keeps
// its own Option type, config and documentation, and its WithX calls the
// function here with the field it sets and its own ErrOption, so the ranges
// and the error messages cannot drift apart.
package rewriteopt

import (
	"fmt"

	"github.com/pqcodec/pqcodec/format"
)

// SetWorkers sets *workers to n, the number of goroutines, or returns an
// error wrapping errOption when n is less than 1.
func SetWorkers(workers *int, n int, errOption error) error {
	if n < 1 {
		return fmt.Errorf("%w: %d workers", errOption, n)
	}
	*workers = n
	return nil
}

// SetMaxMemory sets *budget to n bytes, or returns an error wrapping
// errOption when n is less than 1.
func SetMaxMemory(budget *int64, n int64, errOption error) error {
	if n < 1 {
		return fmt.Errorf("%w: WithMaxMemory(%d): must be positive", errOption, n)
	}
	*budget = n
	return nil
}

// AddKeyValue appends the key-value metadata entry key=value to *kvs, or
// returns an error wrapping errOption when key is empty. What an entry
// replaces in the output is the caller's (see recompress.WithKeyValue).
func AddKeyValue(kvs *[]format.KeyValue, key, value string, errOption error) error {
	if key == "" {
		return fmt.Errorf("%w: empty key-value metadata key", errOption)
	}
	*kvs = append(*kvs, format.KeyValue{Key: key, Value: &value})
	return nil
}
