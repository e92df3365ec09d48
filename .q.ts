// dev-only query helper (not committed)
import { openStore } from './src/storage/client.ts';
const [dir, ...q] = process.argv.slice(2);
const store = await openStore({ database: 'stacks' } as never, dir);
const rs = await store.client.query({ query: q.join(' '), format: 'TSVWithNames' });
console.log(await rs.text());
process.exit(0);
