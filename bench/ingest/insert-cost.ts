// `npx tsx bench/ingest/insert-cost.ts --capture <dir> [--txs N]`: what each table's inserts cost
// the engine. An import run with STACKS_API_CAPTURE_INSERTS=<dir> leaves every insert's rows in
// <dir> (one Native file per insert); this replays them into a fresh embedded store, table by table,
// insert by insert as the import made them, and prints the process CPU each table's inserts took,
// then the CPU of merging each table to one part (OPTIMIZE FINAL), its rows and its size on disk.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import { openStore } from '../../src/storage/client.ts';
import { migrate } from '../../src/storage/migrate.ts';

const insertNo = (f: string): number => Number(f.split('.').at(-2));

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { capture: { type: 'string' }, txs: { type: 'string' } } });
  if (!values.capture) throw new Error('usage: insert-cost.ts --capture <dir> [--txs N]');
  const dataDir = mkdtempSync(join(tmpdir(), 'insert-cost-'));
  const store = await openStore({ database: 'stacks' }, dataDir);
  await migrate(store);
  const writer = store.writers()[0];
  const perTx = values.txs ? 1e6 / Number(values.txs) : 0;
  const rows: Array<[string, number, number, number, number]> = [];
  const files = readdirSync(values.capture);
  for (const columnsFile of files.filter((f) => f.endsWith('.columns')).sort()) {
    const name = columnsFile.slice(0, -'.columns'.length);
    const table = name.slice(0, name.lastIndexOf('.'));
    const columns = readFileSync(join(values.capture, columnsFile), 'utf8').split(',');
    const inserts = files.filter((f) => f.startsWith(`${name}.`) && f.endsWith('.native')).sort((a, b) => insertNo(a) - insertNo(b));
    let bytes = 0;
    const t0 = cpu();
    for (const f of inserts) {
      const body = readFileSync(join(values.capture, f));
      bytes += body.length;
      await writer.insertRows(table, columns, body, `cost-${f}`);
    }
    const inserted = cpu() - t0;
    const t1 = cpu();
    await store.client.command({ query: `OPTIMIZE TABLE ${table} FINAL` });
    rows.push([table, 0, inserted, cpu() - t1, bytes]);
  }
  const parts = await (await store.client.query({ query: `SELECT table, sum(bytes_on_disk) AS b, sum(rows) AS r FROM system.parts WHERE active AND database = 'stacks' GROUP BY table`, format: 'JSONEachRow' })).json<{ table: string; b: string; r: string }>();
  const size = new Map(parts.map((p) => [p.table, Number(p.b)]));
  for (const r of rows) r[1] = Number(parts.find((p) => p.table === r[0])?.r ?? 0);
  console.log(`| insert target | rows (merged) | insert CPU-s | merge CPU-s | Native MiB | disk MiB (table) |${perTx ? ' insert+merge µs per tx |' : ''}\n|---|---|---|---|---|---|${perTx ? '---|' : ''}`);
  rows.sort((a, b) => b[2] + b[3] - a[2] - a[3]);
  for (const [t, n, ins, mer, bytes] of rows) {
    const table = t;
    console.log(`| ${table} | ${n.toLocaleString('en-US')} | ${ins.toFixed(2)} | ${mer.toFixed(2)} | ${(bytes / 2 ** 20).toFixed(1)} | ${((size.get(table) ?? 0) / 2 ** 20).toFixed(1)} |${perTx ? ` ${Math.round((ins + mer) * perTx)} |` : ''}`);
  }
  const tot = rows.reduce((a, r) => [a[0] + r[1], a[1] + r[2], a[2] + r[3]], [0, 0, 0]);
  console.log(`| all | ${tot[0].toLocaleString('en-US')} | ${tot[1].toFixed(2)} | ${tot[2].toFixed(2)} | | |${perTx ? ` ${Math.round((tot[1] + tot[2]) * perTx)} |` : ''}`);
  await store.client.close();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
