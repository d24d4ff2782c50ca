// Package stats turns the raw statistics of a Parquet file into typed,
// comparable values: the min, max and null count of a column chunk
// (ColumnMetaData.statistics) and of each data page (the ColumnIndex), for
// readers that prune row groups and pages by a predicate.
//
// Which bytes may be trusted follows parquet.thrift and what parquet-java,
// arrow-cpp and arrow-rs do with old files:
//   - A column's sort order ([Order]) comes from its logical type, else its
//     converted type, else its physical type: BOOLEAN, INT32, INT64, FLOAT,
//     DOUBLE, DECIMAL, DATE, TIME, TIMESTAMP, INT(signed) and FLOAT16 are
//     [Signed]; UINT, BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY (STRING, ENUM,
//     JSON, BSON, UUID) are [Unsigned]; INT96, INTERVAL, LIST, MAP and the
//     newer VARIANT, GEOMETRY and GEOGRAPHY are [Undefined] and have no
//     usable min/max.
//   - min_value and max_value are used when the file's column order for the
//     column is TYPE_ORDER or IEEE_754_TOTAL_ORDER, or absent (files before
//     column_orders existed never write them). Other column orders leave
//     min/max unset.
//   - The deprecated min and max fields were computed by signed comparison;
//     they are used only when min_value/max_value are absent, the column's
//     order is Signed and its type is not a byte array (whose signed
//     byte-wise order matches no logical type's order). Files from
//     parquet-mr before 1.8.0 (PARQUET-251) never use byte-array statistics,
//     and parquet-cpp before parquet-cpp-arrow 4.0.0 (PARQUET-1655) no
//     DECIMAL FIXED_LEN_BYTE_ARRAY ones.
//   - Under TYPE_ORDER a NaN min or max leaves min/max unset (a NaN says
//     nothing about the other values), a min of +0 is widened to -0 and a
//     max of -0 to +0, as the specification asks. Under
//     IEEE_754_TOTAL_ORDER, values compare by the total order and are kept
//     as written; writers leave NaNs out of min/max unless every value is
//     NaN (floating_orders_nan_count.parquet), counting them in nan_count
//     when they write it. Under either order, NaN values may therefore lie
//     outside [Min, Max].
//   - A min or max of the wrong size for its type, or a min above the max
//     in the column's order, is not used: the statistics are reported with
//     no min/max and the reason in [Stats.BadMinMax] (wrapping
//     [ErrCorrupt]), so they never prune and never fail a read.
//     parquet-java, arrow-cpp and DuckDB use an inverted min/max as written
//     (and would prune with it); DuckDB fails on a value of the wrong size
//     (READING.md). parquet-go v0.32 writes such inverted statistics for
//     DECIMAL FIXED_LEN_BYTE_ARRAY columns holding both signs.
//
// Byte-array values alias the format structs they came from.
package stats
