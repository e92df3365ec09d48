// Feeds a TSV log to a running observer, one request at a time as a node does (for benchmarks).
import { Pool } from 'undici';
import { readTsvRows } from '../../src/ingest/tsv/read-tsv.ts';

const [file, url] = process.argv.slice(2);
const pool = new Pool(url, { connections: 1 });
let n = 0;
for await (const row of readTsvRows(file)) {
  const res = await pool.request({ path: row.path, method: 'POST', headers: { 'content-type': 'application/json' }, body: row.payload });
  await res.body.arrayBuffer();
  if (res.statusCode !== 200) throw new Error(`POST ${row.path} answered ${res.statusCode}`);
  n++;
}
await pool.close();
console.log(`fed ${n}`);
