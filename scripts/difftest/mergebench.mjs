// Merges Parquet files with DuckDB, as pqcodec merge does, for timing the
// two side by side:
//
//   node mergebench.mjs OUT IN...
//
// runs COPY (SELECT * FROM read_parquet([IN...])) TO 'OUT' (FORMAT parquet)
// with DuckDB's default threads and prints the rows written.

import { DuckDBInstance } from '@duckdb/node-api';

const q = (s) => `'${s.replaceAll("'", "''")}'`;

async function main() {
  const [out, ...inputs] = process.argv.slice(2);
  if (!out || inputs.length === 0) throw new Error('usage: node mergebench.mjs OUT IN...');
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  await conn.run(`COPY (SELECT * FROM read_parquet([${inputs.map(q).join(', ')}])) TO ${q(out)} (FORMAT parquet)`);
  const r = await conn.runAndReadAll(`SELECT count(*) FROM read_parquet(${q(out)})`);
  console.log(`mergebench: ${r.getRows()[0][0]} rows`);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
