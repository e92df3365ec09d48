// ABIs of called contracts, for rendering contract-call args (names, types, function_signature).
// As the reference: any stored deploy of the contract id, one with an ABI first, newest first.
// A contract's ABI never changes once deployed, so found ABIs are cached (bounded, oldest out);
// misses are not cached (the contract may be deployed later).
import type { Store } from '../../storage/client.ts';
import { rows } from '../reads/query.ts';

const MAX_ENTRIES = 10_000;
const cache = new Map<string, string>();

function remember(id: string, abi: string): void {
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(id, abi);
}

/** contract_id -> ABI JSON text, for those of `contractIds` that have one. */
export async function contractAbis(store: Store, contractIds: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const missing: string[] = [];
  for (const id of new Set(contractIds)) {
    if (!id) continue;
    const hit = cache.get(id);
    if (hit !== undefined) out.set(id, hit);
    else missing.push(id);
  }
  if (missing.length) {
    const found = await rows<{ contract_id: string; abi: string }>(
      store,
      `SELECT contract_id, abi FROM contracts WHERE contract_id IN {ids:Array(String)} AND abi IS NOT NULL AND abi != 'null'
       ORDER BY block_height DESC LIMIT 1 BY contract_id`,
      { ids: missing },
    );
    for (const r of found) {
      remember(r.contract_id, r.abi);
      out.set(r.contract_id, r.abi);
    }
  }
  return out;
}

/** For tests: forget everything. */
export function clearAbiCache(): void {
  cache.clear();
}
