// Checks with DuckDB that a file `pqcodec merge` wrote holds the rows of its
// inputs, in order: each input read alone, one after the other, against the
// merged file read alone, one DuckDB thread, insertion order preserved.
//
//   node mergecheck.mjs OUT IN...
//
// PQCODEC_MERGE_DIR=DIR go test ./merge -run TestMergeThousand writes 1,000
// random inputs (DIR/in/*.parquet) and their merges (DIR/out-*.parquet).
// The last line is "mergecheck: N rows identical"; the exit status is 1 at
// the first row that differs.

import { DuckDBInstance } from '@duckdb/node-api';

const big = (k, v) => (typeof v === 'bigint' ? v.toString() + 'n' : v);

async function rows(conn, path) {
  const r = await conn.runAndReadAll(`SELECT * FROM read_parquet('${path.replaceAll("'", "''")}')`);
  return r.getRows().map((vals) => JSON.stringify(vals, big));
}

async function main() {
  const [out, ...inputs] = process.argv.slice(2);
  if (!out || inputs.length === 0) throw new Error('usage: node mergecheck.mjs OUT IN...');
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  await conn.run('SET threads = 1');
  await conn.run('SET preserve_insertion_order = true');
  const got = await rows(conn, out);
  let n = 0;
  for (const path of inputs) {
    for (const row of await rows(conn, path)) {
      if (n >= got.length || got[n] !== row) {
        console.log(`MISMATCH ${out} row ${n} (${path}): ${got[n]}, want ${row}`);
        process.exit(1);
      }
      n++;
    }
  }
  if (n !== got.length) {
    console.log(`MISMATCH ${out}: ${got.length} rows, the inputs have ${n}`);
    process.exit(1);
  }
  console.log(`mergecheck: ${n} rows identical`);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
