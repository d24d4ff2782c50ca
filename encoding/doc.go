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
// Conventions shared by every subpackage: decoders append to caller slices
// (reused by capacity) and never allocate more than the input length or the
// declared value count justifies; byte arrays are one flat []byte plus int32
// offsets, where value i is values[offsets[i]:offsets[i+1]]; encoders append
// to a dst []byte; errors wrap a package sentinel usable with errors.Is.
package encoding
