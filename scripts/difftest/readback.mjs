// Reads pairs of Parquet files with DuckDB and checks that both give the
// same rows: a source file and its copy written by pqcodec's writer.
//
//   node readback.mjs MANIFEST
//
// MANIFEST is the manifest.tsv that `PQCODEC_READBACK_DIR=DIR go test
// ./writer -run TestWriteForReaders` writes into DIR: one line per written
// file, "source<TAB>written<TAB>options". Pairs whose source DuckDB cannot
// read are counted and skipped. The last line is "readback: P identical,
// F differ, S skipped"; the exit status is 1 when any pair differs.

import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const big = (k, v) => (typeof v === 'bigint' ? v.toString() + 'n' : v);

async function rows(conn, path) {
  const r = await conn.runAndReadAll(`SELECT * FROM read_parquet('${path.replaceAll("'", "''")}')`);
  return r.getRows().map((vals) => JSON.stringify(vals, big));
}

async function main() {
  const manifest = process.argv[2];
  if (!manifest) throw new Error('usage: node readback.mjs MANIFEST');
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  await conn.run('SET threads = 1');
  let same = 0, differ = 0, skipped = 0;
  for (const line of readFileSync(manifest, 'utf8').split('\n').filter(Boolean)) {
    const [src, out, opts] = line.split('\t');
    let want;
    try {
      want = await rows(conn, src);
    } catch (e) {
      skipped++;
      continue;
    }
    let got;
    try {
      got = await rows(conn, out);
    } catch (e) {
      differ++;
      console.log(`DIFFER ${src} (${opts}): duckdb cannot read the copy: ${String(e.message || e).split('\n')[0]}`);
      continue;
    }
    const i = got.findIndex((l, i) => l !== want[i]);
    if (got.length !== want.length || i >= 0) {
      differ++;
      const at = i < 0 ? Math.min(got.length, want.length) : i;
      console.log(`DIFFER ${src} (${opts}): rows ${got.length} vs ${want.length}, first difference at row ${at}:\n  copy:   ${(got[at] ?? '<none>').slice(0, 400)}\n  source: ${(want[at] ?? '<none>').slice(0, 400)}`);
    } else {
      same++;
    }
  }
  console.log(`readback: ${same} identical, ${differ} differ, ${skipped} skipped`);
  process.exit(differ > 0 ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(2); });
