// `npm run db-digest`: each table's row count and content hash, as JSON (to compare two stores).
// No layout check: it only reads, and digests whatever tables the store has (of any layout).
import { loadConfig } from '../config/config.ts';
import { openStore } from '../storage/client.ts';
import { digestStore } from '../storage/digest.ts';

const config = loadConfig();
const store = await openStore(config.store, config.dataDir);
console.log(JSON.stringify(await digestStore(store)));
await store.client.close();
