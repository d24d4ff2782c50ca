// Reads pairs of Parquet files with DuckDB, arrow-rs (parquet-wasm), Polars
// and hyparquet and checks that each reader gives the same rows for both: a
// source file and its copy written by pqcodec's writer.
//
//   node readback.mjs MANIFEST [--readers duckdb,arrow-rs,polars,hyparquet]
//
// MANIFEST is the manifest.tsv that `PQCODEC_READBACK_DIR=DIR go test
// ./writer -run TestWriteForReaders` writes into DIR: one line per written
// file, "source<TAB>written<TAB>options"; `PQCODEC_REENCODE_DIR=DIR go test
// ./reencode -run TestCorpus` writes one of the same form for the files
// `pqcodec rewrite` re-encodes (make reencode-check, DuckDB alone). Each
// reader compares its reading of the copy with its own reading of the
// source; a pair whose source the reader
// cannot read is skipped for that reader, and a copy it cannot read for a
// reason readers.mjs lists as its own limit (a codec it lacks) is counted as
// refused. Values are compared in one canonical form (timestamps in
// nanoseconds, byte arrays in hex), since the copy carries no ARROW:schema and
// a reader may pick other Arrow types for it (Utf8 for a LargeUtf8, no
// dictionary). One line per reader: "readback READER: P identical, F differ,
// R refused, S skipped"; the exit status is 1 when any pair differs.

import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { canonicalRows, refusal } from './readers.mjs';
import { schemaTree } from './render.mjs';

const big = (k, v) => (typeof v === 'bigint' ? v.toString() + 'n' : v);

async function duckdbRows(conn, path) {
  const r = await conn.runAndReadAll(`SELECT * FROM read_parquet('${path.replaceAll("'", "''")}')`);
  return r.getRows().map((vals) => JSON.stringify(vals, big));
}

// float16Columns returns the indices of the top-level FLOAT16 columns of
// the file at path: Polars 0.25 reads them as their two bytes when the file
// has no ARROW:schema (the copy) and as numbers when it has (a source of
// arrow-go or arrow-rs), so they are left out of Polars' comparison.
async function float16Columns(conn, path) {
  const r = await conn.runAndReadAll(`SELECT * FROM parquet_schema('${path.replaceAll("'", "''")}')`);
  const root = schemaTree(r.getRowObjects());
  return root.children.map((c, i) => (/^Float16Type/.test(c.logical) ? i : -1)).filter((i) => i >= 0);
}

const firstDiffers = (a, b) => a.length !== b.length || a.some((l, i) => l !== b[i]);

const without = (lines, drop) => lines.map((l) => JSON.stringify(JSON.parse(l).filter((_, i) => !drop.includes(i))));

// MISREAD lists the sources a reader reads otherwise than DuckDB and
// pqcodec while it reads their copies as they do (checked against DuckDB and pqcodec, which agree on the
// source): [reader, pattern of the source path, reason]. Their differences
// are counted apart, not as the copy's.
const MISREAD = [
  ['hyparquet', /parquet-go\/dict_v1_snappy\.parquet$/, "hyparquet reads parquet-go's dictionary-encoded required BOOLEAN b of the source as nulls"],
  ['arrow-rs', /repeated_no_annotation\.parquet$/, 'the source footer declares 0 rows and holds 6: parquet-wasm 0.8 believes the footer, DuckDB and pqcodec read the 6 rows, the copy declares 6'],
  ['hyparquet', /duckdb\/v2[^/]*\.parquet$/, "hyparquet reads DuckDB's DELTA_BINARY_PACKED INT32 of miniblock width 33 (UINTEGER 4294967295) as 2147483647"],
  // Polars reads a null list or map nested in a list, map or struct of these
  // sources as empty (nested_maps row 2: DuckDB and pqcodec read {c=NULL},
  // Polars {c=[]}), and the repeated fields without LIST of
  // repeated_primitive_no_list (and the legacy list of old_list_structure)
  // as empty; it reads pqarrow.WriteTable's copies as it reads ours.
  ['polars', /(nested_maps\.snappy|nullable\.impala|old_list_structure|repeated_primitive_no_list|duckdb\/(deep|nested|nested_v2))\.parquet$/,
    'Polars 0.25 reads nested null lists and maps of the source as empty, and repeated fields without LIST as empty lists (pqarrow\'s copies read as ours)'],
];

// OPTIONS stands for the options of TestWriteForReaders' option sets in the
// tests of readers.mjs KNOWN: any codec and encoding may be used.
const OPTIONS = { any: true };

async function main() {
  const argv = process.argv.slice(2);
  const manifest = argv.find((a) => !a.startsWith('--'));
  if (!manifest) throw new Error('usage: node readback.mjs MANIFEST [--readers duckdb,arrow-rs,polars,hyparquet]');
  const ri = argv.indexOf('--readers');
  const readers = (ri >= 0 ? argv[ri + 1] : 'duckdb,arrow-rs,polars,hyparquet').split(',');
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  await conn.run('SET threads = 1');
  const read = (reader, path) => (reader === 'duckdb' ? duckdbRows(conn, path) : canonicalRows(reader, path));
  const st = Object.fromEntries(readers.map((r) => [r, { same: 0, differ: 0, refused: 0, misread: 0, skipped: 0, why: {} }]));
  // The manifest lists a source's copies together: each reader reads a
  // source once.
  let wants = new Map(), cur = '';
  for (const line of readFileSync(manifest, 'utf8').split('\n').filter(Boolean)) {
    const [src, out, opts] = line.split('\t');
    if (src !== cur) {
      wants = new Map();
      cur = src;
    }
    for (const reader of readers) {
      const s = st[reader];
      if (!wants.has(reader)) {
        try {
          wants.set(reader, await read(reader, src));
        } catch (e) {
          wants.set(reader, null);
        }
      }
      const want = wants.get(reader);
      if (want === null) {
        s.skipped++;
        continue;
      }
      let got;
      try {
        got = await read(reader, out);
      } catch (e) {
        const msg = String(e.message || e).split('\n')[0];
        const why = refusal(reader, msg, OPTIONS, { emptyPages: 0 });
        if (why) {
          s.refused++;
          s.why[why] = (s.why[why] || 0) + 1;
          continue;
        }
        s.differ++;
        console.log(`DIFFER ${reader} ${src} (${opts}): cannot read the copy: ${msg.slice(0, 300)}`);
        continue;
      }
      let i = got.findIndex((l, i) => l !== want[i]);
      if (i >= 0 && reader === 'polars' && got.length === want.length) {
        const drop = await float16Columns(conn, out);
        if (drop.length && !firstDiffers(without(got, drop), without(want, drop))) {
          const why = 'Polars 0.25 reads FLOAT16 as bytes without ARROW:schema (the other columns compared)';
          s.refused++;
          s.why[why] = (s.why[why] || 0) + 1;
          continue;
        }
      }
      const misread = MISREAD.find(([r, re]) => r === reader && re.test(src));
      if ((got.length !== want.length || i >= 0) && misread) {
        s.misread++;
        s.why[misread[2]] = (s.why[misread[2]] || 0) + 1;
        continue;
      }
      if (got.length !== want.length || i >= 0) {
        s.differ++;
        const at = i < 0 ? Math.min(got.length, want.length) : i;
        console.log(`DIFFER ${reader} ${src} (${opts}): rows ${got.length} vs ${want.length}, first difference at row ${at}:\n  copy:   ${(got[at] ?? '<none>').slice(0, 400)}\n  source: ${(want[at] ?? '<none>').slice(0, 400)}`);
      } else {
        s.same++;
      }
    }
  }
  let differ = 0;
  for (const [reader, s] of Object.entries(st)) {
    differ += s.differ;
    const why = Object.entries(s.why).map(([k, v]) => `${v} ${k}`).join('; ');
    console.log(`readback ${reader}: ${s.same} identical, ${s.differ} differ, ${s.refused} refused, ${s.misread} with a source the reader misreads${why ? ` (${why})` : ''}, ${s.skipped} skipped (source not read)`);
  }
  process.exit(differ > 0 ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(2); });
