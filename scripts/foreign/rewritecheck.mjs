// rewritecheck: reads outputs of `pqcodec rewrite` with the two strictest
// readers we can run, DuckDB (@duckdb/node-api) and arrow-rs (parquet-wasm),
// and compares each with its source as read by the same reader.
//
//   node rewritecheck.mjs PQCODEC_BINARY WORKDIR [PARQUET_TESTING_DATA]
//
// Every file of testdata/foreign and of PARQUET_TESTING_DATA (when given)
// is rewritten to every codec by the pqcodec binary (with --verify, the
// command's default). For each reader that reads the source, the output must
// read too, to the same rows: DuckDB's rows (getRowsJson, in file order),
// and parquet-wasm's Arrow IPC stream byte for byte (the rows are compared to
// describe a difference). DuckDB's parquet_metadata must also name the
// target codec for every column chunk. A reader that rejects an output is a
// failure unless it rejects the codec itself (DuckDB has no legacy LZ4 nor
// LZO; both readers are checked for it by the error text). Exits 1 on any
// failure. See README.md.

import { DuckDBInstance } from '@duckdb/node-api';
import * as pw from 'parquet-wasm';
import * as arrow from 'apache-arrow';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [bin, work, ptData] = process.argv.slice(2);
if (!bin || !work) {
  console.error('usage: node rewritecheck.mjs PQCODEC_BINARY WORKDIR [PARQUET_TESTING_DATA]');
  process.exit(2);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const foreign = path.resolve(here, '../../testdata/foreign');
const codecs = (process.env.REWRITECHECK_CODECS || 'uncompressed,snappy,gzip,lzo,brotli,lz4,zstd,lz4_raw').split(',');

// Sources: every foreign-writer file, then the parquet-testing data files
// (not the encrypted ones, which pqcodec refuses by design, nor the one
// with two 1 GiB pages).
const sources = [];
for (const w of fs.readdirSync(foreign).sort()) {
  const d = path.join(foreign, w);
  if (!fs.statSync(d).isDirectory()) continue;
  for (const f of fs.readdirSync(d).sort()) if (f.endsWith('.parquet')) sources.push({ name: `${w}/${f}`, file: path.join(d, f) });
}
if (ptData) {
  for (const f of fs.readdirSync(ptData).sort()) {
    if (!f.endsWith('.parquet') || f.includes('encrypt') || f === 'large_string_map.brotli.parquet') continue;
    sources.push({ name: `parquet-testing/${f}`, file: path.join(ptData, f) });
  }
}

const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
const conn = await inst.connect();
const q = (p) => p.replaceAll("'", "''");

const replacer = (_k, v) => (typeof v === 'bigint' ? v.toString() : v);

async function duck(file) {
  const r = await conn.runAndReadAll(`SELECT * FROM read_parquet('${q(file)}')`);
  return r.getRowsJson().map((row) => JSON.stringify(row, replacer));
}

async function duckCodecs(file) {
  const r = await conn.runAndReadAll(`SELECT DISTINCT compression FROM parquet_metadata('${q(file)}')`);
  return r.getRowsJS().map((row) => String(row[0]).toLowerCase());
}

function wasm(file) {
  const t = pw.readParquet(new Uint8Array(fs.readFileSync(file)));
  return t.intoIPCStream();
}

function wasmRows(ipc) {
  const t = arrow.tableFromIPC(ipc);
  const out = [];
  for (const row of t) out.push(JSON.stringify(row.toJSON(), (k, v) => {
    if (typeof v === 'bigint') return v.toString();
    if (ArrayBuffer.isView(v)) return Array.from(v, (x) => (typeof x === 'bigint' ? x.toString() : x));
    if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
    return v;
  }));
  return out;
}

function firstDiff(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `row ${i}: source ${clip(a[i])}, output ${clip(b[i])}`;
  }
  return a.length === b.length ? '' : `${a.length} rows vs ${b.length}`;
}
const clip = (s) => (s === undefined ? '(none)' : s.length > 160 ? s.slice(0, 160) + '...' : s);

// codecRejected reports whether err is a reader refusing the codec itself.
function codecRejected(err, codec) {
  const m = String(err && err.message || err);
  if (codec === 'lz4') return /compression codec "LZ4"|Unsupported compression codec|LZ4 codec/i.test(m);
  if (codec === 'lzo') return /LZO/i.test(m);
  return false;
}

const stats = {
  sources: sources.length, rewrites: 0, refused: [], duckdb: { same: 0, sourceUnread: 0, codecUnsupported: 0 },
  arrowrs: { same: 0, sourceUnread: 0, codecUnsupported: 0 }, failures: [],
};
const unreadByCodec = { duckdb: {}, arrowrs: {} };
fs.mkdirSync(work, { recursive: true });

let seq = 0;
for (const src of sources) {
  // Each reader's view of the source, or its error.
  let dSrc, dErr, wSrc, wErr;
  try { dSrc = await duck(src.file); } catch (e) { dErr = e; }
  try { wSrc = wasm(src.file); } catch (e) { wErr = e; }
  for (const codec of codecs) {
    // A new name for every output: DuckDB caches what it read of a file by
    // name (and modification time, which the next output may share).
    const out = path.join(work, `out-${seq++}-${codec}.parquet`);
    const r = spawnSync(bin, ['rewrite', src.file, out, '--codec', codec, '--workers', '2'], { encoding: 'utf8' });
    if (r.status !== 0) {
      // pqcodec refuses some inputs on purpose (a page whose CRC does not
      // match, a page that does not decompress): listed, not compared.
      stats.refused.push(`${src.name} -> ${codec}: ${(r.stderr || '').trim().split('\n').pop()}`);
      continue;
    }
    stats.rewrites++;
    const tag = `${src.name} -> ${codec}`;
    // DuckDB.
    if (dErr) {
      stats.duckdb.sourceUnread++;
    } else {
      try {
        const got = await duck(out);
        const diff = firstDiff(dSrc, got);
        if (diff) stats.failures.push(`DuckDB ${tag}: ${diff}`);
        else stats.duckdb.same++;
        if (dSrc.length > 0) {
          const cs = await duckCodecs(out);
          if (cs.length !== 1 || cs[0] !== codec) stats.failures.push(`DuckDB ${tag}: parquet_metadata codecs ${cs}`);
        }
      } catch (e) {
        if (codecRejected(e, codec)) {
          stats.duckdb.codecUnsupported++;
          unreadByCodec.duckdb[codec] = String(e.message).split('\n')[0];
        } else stats.failures.push(`DuckDB ${tag}: ${String(e.message).split('\n')[0]}`);
      }
    }
    // arrow-rs.
    if (wErr) {
      stats.arrowrs.sourceUnread++;
    } else {
      try {
        const got = wasm(out);
        if (Buffer.compare(Buffer.from(wSrc), Buffer.from(got)) === 0) stats.arrowrs.same++;
        else {
          const diff = firstDiff(wasmRows(wSrc), wasmRows(got));
          stats.failures.push(`arrow-rs ${tag}: IPC stream differs; ${diff || 'same rows, other batches or schema'}`);
        }
      } catch (e) {
        if (codec === 'lz4' && /offset to copy is not contained|Not all input are consumed/.test(String(e.message || e))) {
          // arrow-rs (parquet/src/compression.rs, try_decompress_hadoop)
          // stops after a Hadoop frame unless the input left is larger than
          // that frame's compressed size, then reads the rest as one raw
          // block: pages of several chunks whose tail is smaller than the
          // chunk before it are misread. Counted apart; see README.md.
          stats.arrowrs.hadoopFrames = (stats.arrowrs.hadoopFrames || []).concat(tag);
        } else if (codecRejected(e, codec)) {
          stats.arrowrs.codecUnsupported++;
          unreadByCodec.arrowrs[codec] = String(e.message || e).split('\n')[0];
        } else stats.failures.push(`arrow-rs ${tag}: ${String(e.message || e).split('\n')[0]}`);
      }
    }
    fs.rmSync(out, { force: true });
  }
}

console.log(`rewritecheck: ${stats.sources} sources x ${codecs.length} codecs (${codecs.join(', ')}): ${stats.rewrites} outputs, ${stats.refused.length} refused by pqcodec`);
for (const [name, s] of [['DuckDB', stats.duckdb], ['arrow-rs', stats.arrowrs]]) {
  console.log(`  ${name}: ${s.same} outputs read identically to their source; ${s.codecUnsupported} not read for the codec; ${s.sourceUnread} not compared (the reader rejects the source)`);
}
for (const t of stats.arrowrs.hadoopFrames || []) console.log(`  arrow-rs misreads the Hadoop LZ4 frames of ${t}`);
for (const [name, m] of Object.entries(unreadByCodec)) for (const [c, e] of Object.entries(m)) console.log(`  ${name} has no ${c}: ${e}`);
const refusedSources = [...new Set(stats.refused.map((s) => s.split(' -> ')[0]))];
for (const s of refusedSources) console.log(`  refused by pqcodec: ${stats.refused.find((x) => x.startsWith(s + ' -> '))}`);
for (const f of stats.failures) console.log(`FAIL ${f}`);
console.log(stats.failures.length ? `rewritecheck: ${stats.failures.length} failures` : 'rewritecheck: ok');
process.exit(stats.failures.length ? 1 : 0);
