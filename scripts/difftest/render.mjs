// Renders rows read by DuckDB as the JSON Lines of `pqcodec cat --raw`:
// physical values (see rows/json.go and the rows package doc, WithRaw),
// walking the file's Parquet schema as DuckDB reports it with
// parquet_schema(). The leaf formats are ../gojson/gojson.mjs, shared with
// scripts/foreign/render.mjs. This renderer differs from that one on
// purpose: it renders DuckDB's JS values and the generator's own source
// values (SourceTime, BigInt decimals) in JS, where the foreign corpus
// renderer turns each leaf into an exact text form in SQL first.

import { jsonDecimal, jsonFloat, jsonHex, jsonString } from '../gojson/gojson.mjs';

// schemaTree turns the flat rows of parquet_schema() into a tree of
// {name, type, typeLength, repetition, converted, logical, scale, children}.
export function schemaTree(rows) {
  let i = 0;
  const node = () => {
    const r = rows[i++];
    const n = {
      name: r.name, type: r.type, typeLength: r.type_length == null ? null : Number(r.type_length),
      repetition: r.repetition_type, converted: r.converted_type, logical: r.logical_type || '',
      scale: r.scale == null ? 0 : Number(r.scale), children: [],
    };
    const k = r.num_children == null ? 0 : Number(r.num_children);
    for (let j = 0; j < k; j++) n.children.push(node());
    return n;
  };
  return node();
}

function isText(n) {
  if (n.logical) return /^(StringType|EnumType|JsonType)/.test(n.logical);
  return n.converted === 'UTF8' || n.converted === 'ENUM' || n.converted === 'JSON';
}

function bigOf(v) {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(v);
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v !== 'object') throw new Error(`render: no integer for ${typeof v} ${v}`);
  const c = v.constructor.name;
  switch (c) {
    case 'DuckDBDecimalValue': return BigInt(v.value);
    case 'DuckDBDateValue': return BigInt(v.days);
    case 'DuckDBTimeValue': case 'DuckDBTimestampValue': case 'DuckDBTimestampTZValue': case 'DuckDBTimeTZValue':
      return BigInt(v.micros);
    case 'DuckDBTimestampNanosecondsValue': case 'DuckDBTimeNSValue': return BigInt(v.nanos);
    case 'DuckDBTimestampMillisecondsValue': return BigInt(v.millis);
    case 'DuckDBTimestampSecondsValue': return BigInt(v.seconds);
  }
  throw new Error(`render: no integer for ${c} ${v}`);
}

// unitOf returns the unit of a TIME or TIMESTAMP column ('ms', 'us', 'ns') or ''.
function unitOf(n) {
  if (/MILLIS=MilliSeconds/.test(n.logical) || n.converted === 'TIMESTAMP_MILLIS' || n.converted === 'TIME_MILLIS') return 'ms';
  if (/NANOS=NanoSeconds/.test(n.logical)) return 'ns';
  if (/MICROS=MicroSeconds/.test(n.logical) || n.converted === 'TIMESTAMP_MICROS' || n.converted === 'TIME_MICROS') return 'us';
  return '';
}

// SourceTime is a timestamp of the generated table, in its own unit.
export class SourceTime {
  constructor(unit, value) { this.unit = unit; this.value = value; }
}

// ReaderNumber is a decimal a reader gives as a JavaScript number
// (hyparquet): it renders as that number, and is compared with the source
// decimal converted the same way (readers.mjs, hyparquetSource).
export class ReaderNumber {
  constructor(x) { this.x = x; }
}

const PER_SECOND = { s: 1n, ms: 1000n, us: 1000000n, ns: 1000000000n };

function leafInt(n, v) {
  if (v instanceof SourceTime) {
    const to = PER_SECOND[unitOf(n) || v.unit], from = PER_SECOND[v.unit];
    return to >= from ? v.value * (to / from) : v.value / (from / to);
  }
  let x = bigOf(v);
  const c = typeof v === 'object' ? v.constructor.name : '';
  const unit = unitOf(n);
  // DuckDB widens milliseconds to microseconds; the file holds the unit.
  if (unit === 'ms' && (c === 'DuckDBTimestampValue' || c === 'DuckDBTimeValue' || c === 'DuckDBTimestampTZValue')) x /= 1000n;
  if (unit === 'ns' && (c === 'DuckDBTimestampValue' || c === 'DuckDBTimestampTZValue' || c === 'DuckDBTimeValue')) x *= 1000n;
  return x;
}

function leaf(n, v) {
  if (v === null || v === undefined) return 'null';
  if (v instanceof ReaderNumber) return `"number ${v.x}"`;
  switch (n.type) {
    case 'BOOLEAN': return v ? 'true' : 'false';
    case 'INT32': return BigInt.asIntN(32, leafInt(n, v)).toString();
    case 'INT64': return BigInt.asIntN(64, leafInt(n, v)).toString();
    case 'FLOAT': return jsonFloat(v, 32);
    case 'DOUBLE': return jsonFloat(v, 64);
    case 'BYTE_ARRAY': case 'FIXED_LEN_BYTE_ARRAY': {
      if (typeof v === 'string') return isText(n) ? jsonString(v) : jsonHex(Buffer.from(v, 'utf8'));
      if (v instanceof Uint8Array) return isText(n) ? jsonString(Buffer.from(v).toString('utf8')) : jsonHex(v);
      if (typeof v === 'bigint') {
        // A decimal from the source table: big-endian two's complement.
        if (n.type === 'FIXED_LEN_BYTE_ARRAY') return jsonDecimal(v, n.typeLength);
        return jsonDecimal(v);
      }
      const c = v.constructor.name;
      if (c === 'DuckDBBlobValue') return isText(n) ? jsonString(Buffer.from(v.bytes).toString('utf8')) : jsonHex(v.bytes);
      if (c === 'DuckDBUUIDValue') return jsonHex(Buffer.from(v.toString().replace(/-/g, ''), 'hex'));
      if (c === 'DuckDBDecimalValue') {
        if (n.type !== 'FIXED_LEN_BYTE_ARRAY') throw new Error('render: decimal in BYTE_ARRAY');
        return jsonDecimal(BigInt(v.value), n.typeLength);
      }
      throw new Error(`render: ${n.type} from ${c}`);
    }
  }
  throw new Error(`render: physical type ${n.type}`);
}

function isList(n) { return n.converted === 'LIST' || /^ListType/.test(n.logical); }
function isMap(n) { return n.converted === 'MAP' || n.converted === 'MAP_KEY_VALUE' || /^MapType/.test(n.logical); }

function items(v) {
  if (Array.isArray(v)) return v;
  if (v.items) return v.items;
  throw new Error(`render: list from ${v.constructor.name}`);
}

// field renders the value of schema node n as a member of its parent.
function field(n, v) {
  if (n.repetition === 'REPEATED') {
    if (v === null) return '[]';
    return '[' + items(v).map((x) => value(n, x)).join(',') + ']';
  }
  return value(n, v);
}

function value(n, v) {
  if (v === null || v === undefined) return 'null';
  if (n.children.length === 0) return leaf(n, v);
  if (n.children.length === 1 && n.children[0].repetition === 'REPEATED') {
    const rep = n.children[0];
    if (isList(n)) {
      const two = rep.children.length === 0 || rep.children.length > 1 || rep.name === 'array' || rep.name === n.name + '_tuple';
      return '[' + items(v).map((x) => (two ? value(rep, x) : field(rep.children[0], x))).join(',') + ']';
    }
    if (isMap(n) && rep.children.length > 0 && rep.children.length <= 2) {
      const entries = Array.isArray(v) ? v.map(([key, value]) => ({ key, value })) : v.entries;
      return '[' + entries.map((e) => `{"key":${field(rep.children[0], e.key)},"value":${rep.children.length === 2 ? field(rep.children[1], e.value) : 'null'}}`).join(',') + ']';
    }
  }
  const entries = v.constructor.name === 'DuckDBStructValue' ? v.entries : v;
  return '{' + n.children.map((c) => `${jsonString(c.name)}:${field(c, entries[c.name])}`).join(',') + '}';
}

// row renders one DuckDB row (an array of top-level values) under root.
export function row(root, vals) {
  return '{' + root.children.map((c, i) => `${jsonString(c.name)}:${field(c, vals[i])}`).join(',') + '}';
}

// wrapTimes marks the timestamps in v, a value of generated type t, with
// their unit, since the file may hold them in another.
export function wrapTimes(t, v) {
  if (v === null) return v;
  switch (t.kind) {
    case 'ts': return new SourceTime(t.unit, v);
    case 'list': return v.map((x) => wrapTimes(t.elem, x));
    case 'map': return v.map(([k, x]) => [wrapTimes(t.key, k), wrapTimes(t.value, x)]);
    case 'struct': return Object.fromEntries(t.fields.map((f) => [f.name, wrapTimes(f.type, v[f.name])]));
    default: return v;
  }
}

// sourceValues returns row i of a generated table as top-level values for row().
export function sourceValues(table, i) {
  return table.data.map((c, k) => wrapTimes(table.columns[k].type, c[i]));
}
