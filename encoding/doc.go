// Package encoding is the index of pqcodec's Parquet value encodings, one
// subpackage per section of the specification
// (https://github.com/apache/parquet-format/blob/master/Encodings.md):
//
//   - [github.com/pqcodec/pqcodec/encoding/plain]: PLAIN, every physical type.
//   - [github.com/pqcodec/pqcodec/encoding/rle]: the RLE/bit-packing hybrid,
//     for levels, dictionary indices and booleans.
//   - [github.com/pqcodec/pqcodec/encoding/bitpacked]: the deprecated
//     BIT_PACKED level encoding (most-significant bit first).
//   - [github.com/pqcodec/pqcodec/encoding/dictionary]: PLAIN_DICTIONARY and
//     RLE_DICTIONARY, dictionary pages plus index pages.
//   - encoding/delta: DELTA_BINARY_PACKED (INT32, INT64),
//     DELTA_LENGTH_BYTE_ARRAY (BYTE_ARRAY) and DELTA_BYTE_ARRAY (BYTE_ARRAY,
//     FIXED_LEN_BYTE_ARRAY).
//   - encoding/bytestreamsplit: BYTE_STREAM_SPLIT (FLOAT, DOUBLE, INT32,
//     INT64, FIXED_LEN_BYTE_ARRAY).
//
// PLAIN applies to every type, the dictionary encodings to every type but
// BOOLEAN, RLE values to BOOLEAN only.
//
// Conventions shared by every subpackage:
//
//   - Whole-page decoders (Decode, DecodeInt32, DecodeByteArray, ...) append
//     to caller slices (reused by capacity) and return the extended slices;
//     on error the slices keep their length. They never allocate more than
//     the input length or the declared value count justifies.
//   - Byte arrays are one flat []byte plus int32 offsets, where value i is
//     values[offsets[i]:offsets[i+1]].
//   - Encoders append to a dst []byte.
//   - Errors wrap a package sentinel (ErrCorrupt, ErrInvalidArgument, ...)
//     usable with errors.Is.
//
// # The encoding table
//
// The (encoding, physical type) pairs the specification allows, with the
// function of these packages that encodes a page of values and the one
// that decodes it, are rows of one table, internal/enctable. The writer
// (package writer), column's reader (column/reader.go decodeValues) and the
// demo (cmd/pqcodec/demo.go) dispatch through it; the dictionary rows are
// read through enctable.Dict, over package dictionary. Adding an encoding
// is:
//
//  1. a package here (encoder, whole-page decoder, streaming decoder,
//     fuzz_test.go, example_test.go), linking its section of Encodings.md;
//  2. its constant in format/enums.go (Encoding and its String);
//  3. a row per physical type in internal/enctable (Encode and Decode):
//     column then reads it, the writer accepts it in WithEncoding, the demo
//     times it once listed in demoEncodings, and the writer's round trip
//     over the corpus (writer/roundtrip_test.go, FuzzRoundTrip) and
//     enctable's TestRowsRoundTrip cover it;
//  4. the memory estimate of column/reader.go valuesEstimate if its values
//     can outgrow the page;
//  5. encoding/streaming_test.go (the streaming decoder's shape) and the
//     list above.
//
// Streaming decoders (plain.Decoder, rle.Decoder, delta.Decoder,
// bytestreamsplit.Decoder) have one shape, that of
// [io.Reader]: Reset(src, ...) error starts a page, leaving the decoder empty
// on error; Remaining() int is the number of values left; Decode(dst)
// (int, error) writes up to len(dst) values into dst[:n] (it does not append)
// and returns 0, [io.EOF] once no value is left (0, nil for an empty dst).
// A corrupt page returns the values decoded before the fault and an error.
// One read loop serves them all (encoding/streaming_test.go drives every one
// with it over real pages):
//
//	for {
//		n, err := d.Decode(buf)
//		if err == io.EOF {
//			break
//		}
//		if err != nil {
//			return err
//		}
//		use(buf[:n])
//	}
package encoding
