// Microblock reads and the reference's Microblock object: the fact row (stream position, parent
// block and burn block), the overlay state (canonical, the anchor block that accepted it) and its
// canonical txs, newest tx_index first.
import type { Store } from '../../storage/client.ts';
import { rows } from '../reads/query.ts';
import { isoTime } from '../../render/values.ts';

export interface MicroblockView {
  microblock_hash: string;
  microblock_sequence: number;
  microblock_parent_hash: string;
  parent_index_block_hash: string;
  parent_block_height: number;
  parent_block_hash: string;
  parent_burn_block_hash: string;
  parent_burn_block_height: number;
  parent_burn_block_time: number;
  tx_ids: string[];
  canonical: boolean;
  /** Accepting anchor block ('' while unconfirmed). */
  index_block_hash: string;
  block_hash: string;
  block_height: number;
}

interface StateRow {
  microblock_hash: string;
  microblock_sequence: number;
  canonical: boolean;
  index_block_hash: string;
  block_hash: string;
  block_height: number;
}

const parseState = (r: Record<string, unknown>): StateRow => ({
  microblock_hash: r.microblock_hash as string,
  microblock_sequence: Number(r.microblock_sequence),
  canonical: Number(r.canonical) === 1,
  index_block_hash: r.index_block_hash as string,
  block_hash: r.block_hash as string,
  block_height: Number(r.block_height),
});

const STATE_COLUMNS = 'microblock_hash, microblock_sequence, canonical, index_block_hash, block_hash, block_height';

/** Joins fact rows to states (in the states' order). */
async function withFacts(store: Store, states: StateRow[]): Promise<MicroblockView[]> {
  if (states.length === 0) return [];
  const facts = await rows<Record<string, unknown>>(
    store,
    `SELECT microblock_hash, microblock_parent_hash, parent_index_block_hash, parent_block_height, parent_block_hash, parent_burn_block_hash,
            parent_burn_block_height, parent_burn_block_time, tx_ids
     FROM microblocks WHERE microblock_hash IN {h:Array(String)} LIMIT 1 BY microblock_hash`,
    { h: states.map((s) => s.microblock_hash) },
  );
  const byHash = new Map(facts.map((f) => [f.microblock_hash as string, f]));
  return states
    .filter((s) => byHash.has(s.microblock_hash))
    .map((s) => {
      const f = byHash.get(s.microblock_hash)!;
      return {
        ...s,
        microblock_parent_hash: f.microblock_parent_hash as string,
        parent_index_block_hash: f.parent_index_block_hash as string,
        parent_block_height: Number(f.parent_block_height),
        parent_block_hash: f.parent_block_hash as string,
        parent_burn_block_hash: f.parent_burn_block_hash as string,
        parent_burn_block_height: Number(f.parent_burn_block_height),
        parent_burn_block_time: Number(f.parent_burn_block_time),
        tx_ids: f.tx_ids as string[],
      };
    });
}

export async function microblockByHash(store: Store, hash: string): Promise<MicroblockView | undefined> {
  const states = await rows<Record<string, unknown>>(store, `SELECT ${STATE_COLUMNS} FROM microblock_canonical FINAL WHERE microblock_hash = {h:String}`, { h: hash });
  return (await withFacts(store, states.map(parseState)))[0];
}

/** Canonical txs of microblocks (keyed by microblock hash), tx_index descending. */
export async function microblockTxIds(store: Store, mbs: readonly MicroblockView[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(mbs.map((m) => [m.microblock_hash, []]));
  const live = mbs.filter((m) => m.canonical);
  const ids = live.flatMap((m) => m.tx_ids);
  if (ids.length === 0) return out;
  const list = await rows<{ tx_id: string; microblock_hash: string; index_block_hash: string; tx_index: number }>(
    store,
    `SELECT tx_id, microblock_hash, index_block_hash, tx_index FROM txs
     WHERE tx_id IN {ids:Array(String)} AND microblock_hash IN {mbs:Array(String)} LIMIT 1 BY tx_id, index_block_hash, microblock_hash`,
    { ids: [...new Set(ids)], mbs: live.map((m) => m.microblock_hash) },
  );
  const placement = new Map(live.map((m) => [m.microblock_hash, m.index_block_hash]));
  const byMb = new Map<string, Array<{ tx_id: string; tx_index: number }>>();
  for (const r of list) {
    // The placement that is canonical: the accepting block's, or the streamed one while unconfirmed.
    if (placement.get(r.microblock_hash) !== r.index_block_hash) continue;
    byMb.set(r.microblock_hash, [...(byMb.get(r.microblock_hash) ?? []), { tx_id: r.tx_id, tx_index: Number(r.tx_index) }]);
  }
  for (const [mb, txs] of byMb) out.set(mb, txs.sort((a, b) => b.tx_index - a.tx_index).map((t) => t.tx_id));
  return out;
}

/** Canonical microblocks newest first (block height, then sequence, descending). */
export async function canonicalMicroblockStates(store: Store): Promise<StateRow[]> {
  const list = await rows<Record<string, unknown>>(store, `SELECT ${STATE_COLUMNS} FROM microblock_canonical FINAL WHERE canonical = 1`);
  return list.map(parseState).sort((a, b) => b.block_height - a.block_height || b.microblock_sequence - a.microblock_sequence);
}

/**
 * A page of the reference's microblock list: it pages over (microblock, tx) rows, so `limit` counts
 * txs, and microblocks without canonical txs are left out.
 */
export async function microblockPage(store: Store, limit: number, offset: number): Promise<{ total: number; results: Array<{ mb: MicroblockView; txs: string[] }> }> {
  const states = await canonicalMicroblockStates(store);
  const results: Array<{ mb: MicroblockView; txs: string[] }> = [];
  let skipped = 0;
  let taken = 0;
  for (let i = 0; i < states.length && taken < limit; i += 50) {
    const views = await withFacts(store, states.slice(i, i + 50));
    const txs = await microblockTxIds(store, views);
    for (const mb of views) {
      let list = txs.get(mb.microblock_hash) ?? [];
      if (skipped < offset) {
        const skip = Math.min(offset - skipped, list.length);
        skipped += skip;
        list = list.slice(skip);
      }
      if (list.length === 0 || taken >= limit) continue;
      list = list.slice(0, limit - taken);
      taken += list.length;
      results.push({ mb, txs: list });
    }
  }
  return { total: await streamedMicroblockCount(store), results };
}

/**
 * The reference's microblock counter: it counts microblocks as they are streamed on the canonical
 * tip (never those that arrive inside an anchor block, nor un-counting reorged ones). Streamed
 * microblocks are the ones with unconfirmed placements (index_block_hash '', stored at height 0).
 */
async function streamedMicroblockCount(store: Store): Promise<number> {
  const r = await rows<{ n: string }>(store, `SELECT uniqExact(microblock_hash) AS n FROM txs WHERE block_height = 0 AND index_block_hash = '' AND microblock_hash != ''`);
  return Number(r[0]?.n ?? 0);
}

/** The reference's Microblock object. */
export function formatMicroblock(m: MicroblockView, txs: string[]): Record<string, unknown> {
  const accepted = m.index_block_hash !== '';
  return {
    canonical: m.canonical,
    microblock_canonical: m.canonical,
    microblock_hash: m.microblock_hash,
    microblock_sequence: m.microblock_sequence,
    microblock_parent_hash: m.microblock_parent_hash,
    block_height: m.block_height,
    parent_block_height: m.parent_block_height,
    parent_block_hash: m.parent_block_hash,
    parent_burn_block_hash: m.parent_burn_block_hash,
    parent_burn_block_time: m.parent_burn_block_time,
    parent_burn_block_time_iso: m.parent_burn_block_time > 0 ? isoTime(m.parent_burn_block_time) : '',
    parent_burn_block_height: m.parent_burn_block_height,
    block_hash: accepted ? m.block_hash : '0x',
    txs,
  };
}
