package encryption_test

import (
	"fmt"
	"log"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/rows"
)

// Example reads parquet-testing's encrypt_columns_and_footer file (vendored
// under testdata/) with a key retriever: the file stores, as key metadata,
// the name of the key of its footer and of each encrypted column ("kf",
// "kc1", "kc2"), and the retriever maps names to keys, as a KMS client
// would. The keys are the public test keys of parquet-testing's README.
// ba_field is binary without a STRING annotation, so cat and rows print its
// bytes in hex ("parquet002").
func Example() {
	keys := map[string]string{"kf": "0123456789012345", "kc1": "1234567890123450", "kc2": "1234567890123451"}
	props := &encryption.Properties{KeyRetriever: func(metadata []byte) ([]byte, error) {
		k, ok := keys[string(metadata)]
		if !ok {
			return nil, fmt.Errorf("no key named %q", metadata)
		}
		return []byte(k), nil
	}}
	f, err := column.OpenFile("../testdata/parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted",
		column.WithDecryption(props))
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	r, err := rows.NewReader(f, rows.WithColumns("int32_field", "float_field", "double_field", "ba_field"), rows.WithRange(1, 2))
	if err != nil {
		log.Fatal(err)
	}
	for {
		line, err := r.AppendRow(nil)
		if err != nil {
			break
		}
		fmt.Println(string(line))
	}
	// Output:
	// {"int32_field":"00:00:00.001Z","float_field":1.1,"double_field":1.1111111,"ba_field":null}
	// {"int32_field":"00:00:00.002Z","float_field":2.2,"double_field":2.2222222,"ba_field":"70617271756574303032"}
}
