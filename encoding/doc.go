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
//   - encoding/delta: DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and
//     DELTA_BYTE_ARRAY.
//   - encoding/bytestreamsplit: BYTE_STREAM_SPLIT.
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
// Streaming decoders (plain.Decoder, rle.Decoder, dictionary.Decoder,
// delta.Decoder, bytestreamsplit.Decoder) have one shape, that of
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
