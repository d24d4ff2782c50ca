package column_test

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/pqcodec/pqcodec"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/encryption"
)

// ExampleWithDecryption reads an encrypted file of parquet-testing with its
// footer key and the key of one of its two encrypted columns, given by the
// column's dotted path; the keys could also come from a key retriever
// (encryption.Properties.KeyRetriever) asked with the key metadata the
// file stores. The column without its key fails on its own. (The example
// is compiled, not run: the file is in apache/parquet-testing.)
func ExampleWithDecryption() {
	keys := &encryption.Properties{
		FooterKey:  []byte(os.Getenv("FOOTER_KEY")), // 16, 24 or 32 bytes
		ColumnKeys: map[string][]byte{"double_field": []byte(os.Getenv("DOUBLE_FIELD_KEY"))},
	}
	f, err := column.OpenFile("parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted", column.WithDecryption(keys))
	if err != nil {
		log.Fatal(err) // a wrong footer key: errors.Is(err, pqcodec.ErrDecrypt)
	}
	defer f.Close()
	for _, name := range []string{"double_field", "float_field"} {
		r, err := f.ColumnByPath(0, name)
		if err != nil {
			log.Fatal(err)
		}
		var page column.Page
		for {
			err = r.ReadPage(&page)
			if err != nil {
				break
			}
			fmt.Println(name, page.Values.Doubles[:3])
		}
		switch {
		case errors.Is(err, io.EOF):
		case errors.Is(err, column.ErrEncrypted): // no key given for float_field
			fmt.Println(err)
		case errors.Is(err, pqcodec.ErrDecrypt): // a wrong key, or tampered bytes
			log.Fatal(err)
		default:
			log.Fatal(err)
		}
	}
}
