// DuckDB writes the table with COPY ... TO (FORMAT parquet, ...).

export const caps = {
  leaves: ['bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float', 'double',
    'string', 'binary', 'decimal', 'date', 'ts', 'uuid'],
  nested: ['list', 'struct', 'map'],
  tsUnits: ['s', 'ms', 'us', 'ns'],
};

function sqlType(t) {
  switch (t.kind) {
    case 'bool': return 'BOOLEAN';
    case 'int8': return 'TINYINT';
    case 'int16': return 'SMALLINT';
    case 'int32': return 'INTEGER';
    case 'int64': return 'BIGINT';
    case 'uint8': return 'UTINYINT';
    case 'uint16': return 'USMALLINT';
    case 'uint32': return 'UINTEGER';
    case 'uint64': return 'UBIGINT';
    case 'float': return 'FLOAT';
    case 'double': return 'DOUBLE';
    case 'string': return 'VARCHAR';
    case 'binary': return 'BLOB';
    case 'decimal': return `DECIMAL(${t.precision},${t.scale})`;
    case 'date': return 'DATE';
    case 'ts': return { s: 'TIMESTAMP_S', ms: 'TIMESTAMP_MS', us: 'TIMESTAMP', ns: 'TIMESTAMP_NS' }[t.unit];
    case 'uuid': return 'UUID';
    case 'list': return `${sqlType(t.elem)}[]`;
    case 'struct': return `STRUCT(${t.fields.map((f) => `${f.name} ${sqlType(f.type)}`).join(', ')})`;
    case 'map': return `MAP(${sqlType(t.key)}, ${sqlType(t.value)})`;
  }
  throw new Error(`duckdb: no type for ${t.kind}`);
}

const str = (s) => `'${s.replace(/'/g, "''")}'`;
const blob = (b) => `from_hex('${Buffer.from(b).toString('hex')}')`;

function lit(t, v) {
  if (v === null) return `NULL::${sqlType(t)}`;
  switch (t.kind) {
    case 'bool': return v ? 'true' : 'false';
    case 'float': case 'double': {
      const s = Number.isNaN(v) ? 'nan' : v === Infinity ? 'inf' : v === -Infinity ? '-inf' : Object.is(v, -0) ? '-0.0' : String(v);
      return `'${s}'::${sqlType(t)}`;
    }
    case 'string': return str(v);
    case 'binary': return blob(v);
    case 'uuid': {
      const h = Buffer.from(v).toString('hex');
      return `'${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}'::UUID`;
    }
    case 'decimal': {
      const neg = v < 0n;
      const a = (neg ? -v : v).toString().padStart(t.scale + 1, '0');
      const s = t.scale ? `${a.slice(0, a.length - t.scale)}.${a.slice(a.length - t.scale)}` : a;
      return `'${neg ? '-' : ''}${s}'::${sqlType(t)}`;
    }
    case 'date': return `(DATE '1970-01-01' + ${v})`;
    case 'ts': {
      const f = { s: 'make_timestamp(%::BIGINT * 1000000)::TIMESTAMP_S', ms: 'make_timestamp(%::BIGINT * 1000)::TIMESTAMP_MS', us: 'make_timestamp(%::BIGINT)', ns: 'make_timestamp_ns(%::BIGINT)' }[t.unit];
      return f.replace('%', String(v));
    }
    case 'list': return `[${v.map((x) => lit(t.elem, x)).join(', ')}]::${sqlType(t)}`;
    case 'struct': return `{${t.fields.map((f) => `${str(f.name)}: ${lit(f.type, v[f.name])}`).join(', ')}}::${sqlType(t)}`;
    case 'map': return `MAP {${v.map(([k, x]) => `${lit(t.key, k)}: ${lit(t.value, x)}`).join(', ')}}::${sqlType(t)}`;
    default: return `(${v})::${sqlType(t)}`;
  }
}

// options draws the COPY options of one case.
export function options(r) {
  const o = {
    COMPRESSION: r.pick(['uncompressed', 'snappy', 'gzip', 'zstd', 'lz4_raw', 'brotli', 'lz4']),
    PARQUET_VERSION: r.pick(['V1', 'V2']),
  };
  if (r.bool(0.5)) o.ROW_GROUP_SIZE = r.pick([1, 7, 100, 1000, 2048, 5000, 100000]);
  if (r.bool(0.3)) o.DICTIONARY_SIZE_LIMIT = r.pick([0, 1, 100, 10000]);
  if (r.bool(0.2)) o.STRING_DICTIONARY_PAGE_SIZE_LIMIT = r.pick([1, 100, 10000]);
  if (r.bool(0.2) && o.COMPRESSION === 'zstd') o.COMPRESSION_LEVEL = r.pick([1, 3, 9, 22]);
  return o;
}

// write writes table to path with the options o on connection conn.
export async function write(conn, table, o, path) {
  await conn.run('DROP TABLE IF EXISTS t');
  await conn.run(`CREATE TABLE t (${table.columns.map((c) => `${c.name} ${sqlType(c.type)}${c.type.nullable ? '' : ' NOT NULL'}`).join(', ')})`);
  const batch = 200;
  for (let i = 0; i < table.rows; i += batch) {
    const rows = [];
    for (let j = i; j < Math.min(i + batch, table.rows); j++) {
      rows.push(`(${table.columns.map((c, k) => lit(c.type, table.data[k][j])).join(', ')})`);
    }
    await conn.run(`INSERT INTO t VALUES ${rows.join(', ')}`);
  }
  const opts = Object.entries(o).map(([k, v]) => `${k} ${typeof v === 'string' ? str(v) : v}`).join(', ');
  await conn.run(`COPY t TO ${str(path)} (FORMAT parquet${opts ? ', ' + opts : ''})`);
}
