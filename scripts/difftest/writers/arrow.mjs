// Writers fed from an Arrow table: arrow-rs (parquet-wasm), Polars
// (nodejs-polars, reading the table as Arrow IPC), and the Go writers
// arrow-go and parquet-go (the gowriter program, reading the IPC stream).
import * as A from 'apache-arrow';
import pl from 'nodejs-polars';
import { execFile } from 'node:child_process';
import { writeFileSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';

const run = promisify(execFile);

const ALL_LEAVES = ['bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float', 'double',
  'string', 'binary', 'fixed', 'decimal', 'date', 'ts', 'uuid'];

const CAPS = {
  'arrow-rs': { leaves: ALL_LEAVES, nested: ['list', 'struct', 'map'], tsUnits: ['ms', 'us', 'ns'] },
  // Polars has no fixed-size binary and no maps; its decimals are 128-bit
  // and not read from IPC by this version, so they are left out.
  polars: { leaves: ALL_LEAVES.filter((k) => !['fixed', 'uuid', 'decimal'].includes(k)), nested: ['list', 'struct'], tsUnits: ['ms', 'us', 'ns'] },
  'arrow-go': { leaves: ALL_LEAVES, nested: ['list', 'struct', 'map'], tsUnits: ['ms', 'us', 'ns'] },
  'parquet-go': { leaves: ALL_LEAVES, nested: ['list', 'struct', 'map'], tsUnits: ['ms', 'us', 'ns'] },
};

function arrowType(t) {
  switch (t.kind) {
    case 'bool': return new A.Bool();
    case 'int8': return new A.Int8();
    case 'int16': return new A.Int16();
    case 'int32': return new A.Int32();
    case 'int64': return new A.Int64();
    case 'uint8': return new A.Uint8();
    case 'uint16': return new A.Uint16();
    case 'uint32': return new A.Uint32();
    case 'uint64': return new A.Uint64();
    case 'float': return new A.Float32();
    case 'double': return new A.Float64();
    case 'string': return new A.Utf8();
    case 'binary': return new A.Binary();
    case 'fixed': return new A.FixedSizeBinary(t.len);
    case 'uuid': return new A.FixedSizeBinary(16);
    case 'decimal': return new A.Decimal(t.scale, t.precision, 128);
    case 'date': return new A.DateDay();
    case 'ts': return { ms: new A.TimestampMillisecond(), us: new A.TimestampMicrosecond(), ns: new A.TimestampNanosecond() }[t.unit];
    case 'list': return new A.List(new A.Field('element', arrowType(t.elem), t.elem.nullable));
    case 'struct': return new A.Struct(t.fields.map((f) => new A.Field(f.name, arrowType(f.type), f.type.nullable)));
    case 'map': return new A.Map_(new A.Field('key_value', new A.Struct([new A.Field('key', arrowType(t.key), false), new A.Field('value', arrowType(t.value), t.value.nullable)]), false), false);
  }
  throw new Error(`arrow: no type for ${t.kind}`);
}

function bitmap(n, bit) {
  const b = new Uint8Array(Math.ceil(n / 8) || 1);
  for (let i = 0; i < n; i++) if (bit(i)) b[i >> 3] |= 1 << (i & 7);
  return b;
}

const FIXED_ARRAYS = {
  int8: Int8Array, int16: Int16Array, int32: Int32Array, int64: BigInt64Array,
  uint8: Uint8Array, uint16: Uint16Array, uint32: Uint32Array, uint64: BigUint64Array,
  float: Float32Array, double: Float64Array, date: Int32Array, ts: BigInt64Array,
};

// toData builds the Arrow data of values (null or values of type t).
function toData(t, values) {
  const type = arrowType(t);
  const n = values.length;
  let nullCount = 0;
  for (const v of values) if (v === null) nullCount++;
  const base = { type, length: n, nullCount, nullBitmap: nullCount ? bitmap(n, (i) => values[i] !== null) : null };
  switch (t.kind) {
    case 'bool': return A.makeData({ ...base, data: bitmap(n, (i) => values[i] === true) });
    case 'string': case 'binary': {
      const bufs = values.map((v) => (v === null ? Buffer.alloc(0) : typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from(v)));
      const offsets = new Int32Array(n + 1);
      for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i] + bufs[i].length;
      return A.makeData({ ...base, valueOffsets: offsets, data: new Uint8Array(Buffer.concat(bufs)) });
    }
    case 'fixed': case 'uuid': {
      const len = t.kind === 'uuid' ? 16 : t.len;
      const data = new Uint8Array(n * len);
      values.forEach((v, i) => v !== null && data.set(v, i * len));
      return A.makeData({ ...base, data });
    }
    case 'decimal': {
      const data = new Uint32Array(n * 4);
      values.forEach((v, i) => {
        let u = BigInt.asUintN(128, v === null ? 0n : v);
        for (let w = 0; w < 4; w++) { data[i * 4 + w] = Number(u & 0xffffffffn); u >>= 32n; }
      });
      return A.makeData({ ...base, data });
    }
    case 'list': case 'map': {
      const offsets = new Int32Array(n + 1);
      const child = [];
      values.forEach((v, i) => {
        offsets[i + 1] = offsets[i] + (v === null ? 0 : v.length);
        if (v !== null) child.push(...v);
      });
      if (t.kind === 'list') return A.makeData({ ...base, valueOffsets: offsets, child: toData(t.elem, child) });
      const entries = { kind: 'struct', nullable: false, fields: [{ name: 'key', type: t.key }, { name: 'value', type: t.value }] };
      const cd = toDataStruct(entries, child.map(([k, v]) => ({ key: k, value: v })), type.children[0].type);
      return A.makeData({ ...base, valueOffsets: offsets, child: cd });
    }
    case 'struct': return toDataStruct(t, values, type);
    default: {
      const Arr = FIXED_ARRAYS[t.kind];
      const zero = Arr === BigInt64Array || Arr === BigUint64Array ? 0n : 0;
      return A.makeData({ ...base, data: Arr.from(values, (v) => (v === null ? zero : v)) });
    }
  }
}

function toDataStruct(t, values, type) {
  const n = values.length;
  let nullCount = 0;
  for (const v of values) if (v === null) nullCount++;
  const children = t.fields.map((f) => toData(f.type, values.map((v) => (v === null ? nullOf(f.type) : v[f.name]))));
  return A.makeData({ type, length: n, nullCount, nullBitmap: nullCount ? bitmap(n, (i) => values[i] !== null) : null, children });
}

// nullOf is the child value under a null struct: null where the child may
// be null, otherwise a zero value of its type.
function nullOf(t) {
  if (t.nullable) return null;
  switch (t.kind) {
    case 'bool': return false;
    case 'int64': case 'uint64': case 'ts': case 'decimal': return 0n;
    case 'string': return '';
    case 'binary': return Buffer.alloc(0);
    case 'fixed': return Buffer.alloc(t.len);
    case 'uuid': return Buffer.alloc(16);
    case 'list': case 'map': return [];
    case 'struct': return Object.fromEntries(t.fields.map((f) => [f.name, nullOf(f.type)]));
    default: return 0;
  }
}

export function ipc(table) {
  const fields = table.columns.map((c) => new A.Field(c.name, arrowType(c.type), c.type.nullable));
  const schema = new A.Schema(fields);
  const data = table.columns.map((c, k) => toData(c.type, table.data[k]));
  const batch = new A.RecordBatch(schema, A.makeData({ type: new A.Struct(fields), length: table.rows, nullCount: 0, children: data }));
  return A.tableToIPC(new A.Table(schema, [batch]), 'stream');
}

// leaves lists the Parquet column paths of a type with the class of their
// physical type, for per-column encodings.
export function leaves(name, t, out = [], decimalsAsFlba = false) {
  switch (t.kind) {
    case 'list': leaves(`${name}.list.element`, t.elem, out, decimalsAsFlba); break;
    case 'map': leaves(`${name}.key_value.key`, t.key, out, decimalsAsFlba); leaves(`${name}.key_value.value`, t.value, out, decimalsAsFlba); break;
    case 'struct': for (const f of t.fields) leaves(`${name}.${f.name}`, f.type, out, decimalsAsFlba); break;
    default: {
      let cls;
      if (t.kind === 'bool') cls = 'bool';
      else if (['float', 'double'].includes(t.kind)) cls = 'float';
      else if (['string', 'binary'].includes(t.kind)) cls = 'bytes';
      else if (['fixed', 'uuid'].includes(t.kind) || (t.kind === 'decimal' && (decimalsAsFlba || t.precision > 18))) cls = 'flba';
      else cls = 'int';
      out.push({ path: name, cls });
    }
  }
  return out;
}

const ENCODINGS = {
  bool: ['PLAIN', 'RLE'],
  int: ['PLAIN', 'DELTA_BINARY_PACKED', 'BYTE_STREAM_SPLIT'],
  float: ['PLAIN', 'BYTE_STREAM_SPLIT'],
  bytes: ['PLAIN', 'DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY'],
  flba: ['PLAIN', 'DELTA_BYTE_ARRAY', 'BYTE_STREAM_SPLIT'],
};

// genericOptions draws the options all Arrow-fed writers share.
function genericOptions(r, table, codecs, encodings = ENCODINGS, decimalsAsFlba = false) {
  const o = {
    compression: r.pick(codecs),
    version: r.pick(['V1', 'V2']),
    dictionary: r.bool(0.6),
    pageSize: r.pick([0, 0, 64, 1024, 8192, 1 << 20]),
    rowGroupSize: r.pick([0, 0, 1, 10, 1000, 5000]),
    stats: r.bool(0.8),
    encodings: {},
  };
  if (r.bool(0.6)) {
    for (const c of table.columns) for (const l of leaves(c.name, c.type, [], decimalsAsFlba)) if (r.bool(0.7)) o.encodings[l.path] = r.pick(encodings[l.cls]);
  }
  return o;
}

function arrowRsOptions(r, table) {
  const o = genericOptions(r, table, ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW']);
  o.batchSize = r.pick([0, 7, 1024]);
  return o;
}

// parquet-wasm is loaded afresh after a failure inside its WebAssembly
// instance (a stack overflow leaves the instance unusable).
const require = createRequire(import.meta.url);
let PW = null;
function parquetWasm() {
  if (!PW) {
    const p = require.resolve('parquet-wasm');
    delete require.cache[p];
    PW = require(p);
  }
  return PW;
}

function arrowRsWrite(table, o, path) {
  const pw = parquetWasm();
  try {
    let b = new pw.WriterPropertiesBuilder()
      .setCompression(pw.Compression[o.compression])
      .setWriterVersion(pw.WriterVersion[o.version])
      .setDictionaryEnabled(o.dictionary)
      .setStatisticsEnabled(o.stats ? pw.EnabledStatistics.Page : pw.EnabledStatistics.None);
    if (o.pageSize) b = b.setDataPageSizeLimit(o.pageSize);
    if (o.rowGroupSize) b = b.setMaxRowGroupSize(o.rowGroupSize);
    if (o.batchSize) b = b.setWriteBatchSize(o.batchSize);
    for (const [p, e] of Object.entries(o.encodings)) b = b.setColumnEncoding(p, pw.Encoding[e]);
    const t = pw.Table.fromIPCStream(ipc(table));
    writeFileSync(path, pw.writeParquet(t, b.build()));
  } catch (e) {
    if (e instanceof RangeError || e instanceof WebAssembly.RuntimeError) PW = null;
    throw e;
  }
}

function polarsOptions(r) {
  const o = { compression: r.pick(['uncompressed', 'snappy', 'gzip', 'brotli', 'lz4', 'zstd']), statistics: r.bool(0.7) };
  if (o.compression === 'zstd' && r.bool(0.3)) o.compressionLevel = r.pick([1, 3, 19]);
  if (r.bool(0.5)) o.rowGroupSize = r.pick([1, 10, 1000, 5000]);
  if (r.bool(0.5)) o.dataPagesizeLimit = r.pick([64, 1024, 8192, 1 << 20]);
  return o;
}

// polarsWrite reads the table as Arrow IPC and writes it with sinkParquet,
// the writer call that takes row group and page sizes.
function polarsWrite(table, o, path) {
  const df = pl.readIPCStream(Buffer.from(ipc(table)));
  df.lazy().sinkParquet(path, { ...o, maintainOrder: true }).collectSync();
}

function goOptions(r, table) {
  // arrow-go v18.8 panics on DELTA_BYTE_ARRAY for FIXED_LEN_BYTE_ARRAY, and
  // writes every decimal as FIXED_LEN_BYTE_ARRAY.
  const o = genericOptions(r, table, ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'ZSTD', 'LZ4_RAW'], { ...ENCODINGS, flba: ['PLAIN', 'BYTE_STREAM_SPLIT'] }, true);
  o.batchSize = r.pick([0, 7, 1024]);
  return o;
}

function parquetGoOptions(r) {
  const o = {
    compression: r.pick(['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'ZSTD', 'LZ4_RAW']),
    version: r.pick(['V1', 'V2']),
    pageSize: r.pick([0, 0, 64, 1024, 8192, 1 << 20]),
    rowGroupSize: r.pick([0, 0, 1, 10, 1000, 5000]),
    stats: r.bool(0.8),
    kindEncodings: {},
  };
  const valid = {
    bool: ['PLAIN', 'RLE'],
    int32: ['PLAIN', 'DELTA_BINARY_PACKED', 'BYTE_STREAM_SPLIT', 'RLE_DICTIONARY'],
    int64: ['PLAIN', 'DELTA_BINARY_PACKED', 'BYTE_STREAM_SPLIT', 'RLE_DICTIONARY'],
    float: ['PLAIN', 'BYTE_STREAM_SPLIT', 'RLE_DICTIONARY'],
    double: ['PLAIN', 'BYTE_STREAM_SPLIT', 'RLE_DICTIONARY'],
    bytes: ['PLAIN', 'DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY', 'RLE_DICTIONARY'],
    flba: ['PLAIN', 'DELTA_BYTE_ARRAY', 'BYTE_STREAM_SPLIT', 'RLE_DICTIONARY'],
  };
  for (const [k, encs] of Object.entries(valid)) if (r.bool(0.6)) o.kindEncodings[k] = r.pick(encs);
  return o;
}

// goWrite runs the gowriter program (built by the driver) on the IPC stream.
async function goWrite(ctx, name, table, o, path) {
  const ipcPath = `${path}.arrows`;
  writeFileSync(ipcPath, ipc(table));
  try {
    await run(ctx.gowriter, ['-writer', name, '-in', ipcPath, '-out', path, '-options', JSON.stringify(o)], { maxBuffer: 1 << 26 });
  } catch (e) {
    throw new Error((e.stderr || e.message).trim());
  } finally {
    rmSync(ipcPath, { force: true });
  }
}

export function writer(name) {
  switch (name) {
    case 'arrow-rs': return { caps: CAPS[name], options: arrowRsOptions, write: async (ctx, t, o, p) => arrowRsWrite(t, o, p) };
    case 'polars': return { caps: CAPS[name], options: polarsOptions, write: async (ctx, t, o, p) => polarsWrite(t, o, p) };
    case 'parquet-go': return { caps: CAPS[name], options: parquetGoOptions, write: (ctx, t, o, p) => goWrite(ctx, name, t, o, p) };
    default: return { caps: CAPS[name], options: goOptions, write: (ctx, t, o, p) => goWrite(ctx, name, t, o, p) };
  }
}
