// Reads the chain state from the overlay tables: at start, the recent heights *as of the committed
// checkpoint* (so that redoing an interrupted batch sees exactly the state it saw the first time);
// later, lower heights on demand, when a late block or a deep reorg reaches below what memory holds.
// Between batches the processor forgets heights far below the tip (forgetOldHeights).
import type { Store } from '../../storage/client.ts';
import { readChainStateHeights } from '../../config/tuning.ts';
import { ChainState, MINED_MEMORY } from './chain-state.ts';
import type { ApplyContext } from './context.ts';
import { heldBlocks } from './held-blocks.ts';

/** Heights below the tip whose blocks stay in memory (tests set 0 to read back at every step). */
const chainStateHeights = () => readChainStateHeights(process.env);

const q = async <T>(store: Store, query: string, params: Record<string, unknown> = {}): Promise<T[]> =>
  (await store.client.query({ query, query_params: params, format: 'JSONEachRow' })).json<T>();

const TOP = 0xffffffff;

/** Adds the stored blocks of heights [from, to), and the microblocks streamed on them and on their
 *  parents, as of log entry `asOf`; what memory holds already stays as it is. */
async function loadHeights(store: Store, state: ChainState, from: number, to: number, asOf: number): Promise<Array<Record<string, string>>> {
  const range = { lo: from, hi: to, v: asOf };
  const blocks = await q<Record<string, string>>(
    store,
    `SELECT c.index_block_hash AS index_block_hash, c.canonical AS canonical, c.log_id AS log_id, b.block_hash AS block_hash, b.block_height AS block_height,
            b.parent_index_block_hash AS parent_index_block_hash, b.burn_block_time AS burn_block_time,
            b.burn_block_height AS burn_block_height, b.burn_block_hash AS burn_block_hash,
            b.parent_microblock_hash AS parent_microblock_hash, b.parent_microblock_sequence AS parent_microblock_sequence, b.block_time AS block_time
     FROM (SELECT index_block_hash, argMax(canonical, version) AS canonical, min(version) AS log_id FROM block_canonical
           WHERE block_height >= {lo:UInt32} AND block_height < {hi:UInt32} AND version <= {v:UInt64} GROUP BY index_block_hash) AS c
     INNER JOIN (SELECT * FROM blocks WHERE index_block_hash IN (SELECT index_block_hash FROM block_canonical WHERE block_height >= {lo:UInt32} AND block_height < {hi:UInt32})
                 LIMIT 1 BY index_block_hash) AS b ON b.index_block_hash = c.index_block_hash
     ORDER BY block_height, log_id`,
    range,
  );
  const added = blocks.filter((r) => !state.blocks.has(r.index_block_hash));
  for (const r of added) {
    state.addBlock({
      index_block_hash: r.index_block_hash,
      block_hash: r.block_hash,
      block_height: Number(r.block_height),
      parent_index_block_hash: r.parent_index_block_hash,
      canonical: Number(r.canonical) === 1,
      burn_block_time: Number(r.burn_block_time),
      burn_block_height: Number(r.burn_block_height),
      burn_block_hash: r.burn_block_hash,
      parent_microblock_hash: r.parent_microblock_hash,
      parent_microblock_sequence: Number(r.parent_microblock_sequence),
      log_id: Number(r.log_id),
      block_time: Number(r.block_time),
    });
  }
  const parents = [...new Set(added.flatMap((r) => [r.index_block_hash, r.parent_index_block_hash]))];
  if (parents.length === 0) return blocks;
  const mbs = await q<Record<string, string>>(
    store,
    `SELECT c.*, m.microblock_parent_hash AS microblock_parent_hash, m.tx_ids AS tx_ids
     FROM (SELECT microblock_hash, argMax(tuple(canonical, index_block_hash, block_hash, block_height, burn_block_time, burn_block_height, burn_block_hash, parent_index_block_hash, microblock_sequence), version) AS s
           FROM microblock_canonical WHERE version <= {v:UInt64} AND parent_index_block_hash IN {p:Array(String)} GROUP BY microblock_hash) AS c
     INNER JOIN (SELECT * FROM microblocks WHERE parent_index_block_hash IN {p:Array(String)} LIMIT 1 BY microblock_hash) AS m ON m.microblock_hash = c.microblock_hash`,
    { v: asOf, p: parents },
  );
  for (const r of mbs) {
    if (state.microblocks.has(r.microblock_hash)) continue;
    const s = r.s as unknown as [number, string, string, number, number, number, string, string, number];
    state.addMicroblock({
      microblock_hash: r.microblock_hash,
      canonical: Number(s[0]) === 1,
      index_block_hash: s[1],
      block_hash: s[2],
      block_height: Number(s[3]),
      burn_block_time: Number(s[4]),
      burn_block_height: Number(s[5]),
      burn_block_hash: s[6],
      parent_index_block_hash: s[7],
      microblock_sequence: Number(s[8]),
      microblock_parent_hash: r.microblock_parent_hash,
      tx_ids: r.tx_ids as unknown as string[],
    });
  }
  return blocks;
}

/**
 * The lowest height memory must start at: `keep` below the canonical tip, and below every block
 * whose parent is not stored (a held block and what hangs off it stay in memory, so that the held
 * set can be found from memory alone: see mustHold).
 */
async function startHeight(store: Store, committed: number, keep: number): Promise<number> {
  const [row] = await q<{ tip: string; root: string; roots: string }>(
    store,
    `WITH stored AS (SELECT index_block_hash, block_height, argMax(canonical, version) AS canonical FROM block_canonical WHERE version <= {c:UInt64} GROUP BY index_block_hash, block_height)
     SELECT (SELECT max(block_height) FROM stored WHERE canonical = 1) AS tip,
            count() AS roots, min(b.block_height) AS root
     FROM blocks AS b
     WHERE b.block_height > 1 AND cityHash64(b.index_block_hash) IN (SELECT cityHash64(index_block_hash) FROM stored)
       AND cityHash64(b.parent_index_block_hash, toUInt32(b.block_height - 1)) NOT IN (SELECT cityHash64(index_block_hash, block_height) FROM stored)`,
    { c: committed },
  );
  const low = Math.max(0, Number(row?.tip ?? 0) - keep);
  return Number(row?.roots ?? 0) > 0 ? Math.max(0, Math.min(low, Number(row.root) - 1)) : low;
}

export async function loadChainState(store: Store, committed: number, keep = chainStateHeights()): Promise<ChainState> {
  const state = new ChainState();
  // At least the heights whose txs the mempool check remembers (rememberMined below).
  const low = await startHeight(store, committed, Math.max(keep, MINED_MEMORY));
  const blocks = await loadHeights(store, state, low, TOP, committed);
  state.low = low;
  const pending = await q<{ tx_id: string }>(
    store,
    `SELECT tx_id FROM mempool_status WHERE version <= {c:UInt64} GROUP BY tx_id HAVING argMax(status, version) = 'pending'`,
    { c: committed },
  );
  for (const r of pending) state.mempoolPending.add(r.tx_id);
  if (pending.length) {
    const info = await q<{ tx_id: string; sender_address: string; sponsor_address: string; nonce: string; fee_rate: string; receipt_time: string }>(
      store,
      `SELECT tx_id, sender_address, sponsor_address, toString(nonce) AS nonce, toString(fee_rate) AS fee_rate, receipt_time FROM mempool_txs
       WHERE tx_id IN {ids:Array(String)} AND log_id <= {c:UInt64} ORDER BY log_id DESC LIMIT 1 BY tx_id`,
      { ids: pending.map((p) => p.tx_id), c: committed },
    );
    for (const m of info) {
      state.pendingNonces.add(m.tx_id, { sender: m.sender_address, sponsor: m.sponsor_address, sponsored: m.sponsor_address !== '', nonce: Number(m.nonce), fee: BigInt(m.fee_rate), receipt: Number(m.receipt_time) });
    }
  }
  const canonicalHashes = blocks.filter((b) => Number(b.canonical) === 1).slice(-MINED_MEMORY).map((b) => b.index_block_hash);
  if (canonicalHashes.length) {
    const mined = await q<{ index_block_hash: string; tx_id: string; sender_address: string; nonce: string; raw_tx: string }>(
      store,
      `SELECT index_block_hash, tx_id, sender_address, toString(nonce) AS nonce, if(raw_tx = '0x00', '0x00', '') AS raw_tx FROM txs
       WHERE tx_id IN (SELECT arrayJoin(tx_ids) FROM blocks WHERE index_block_hash IN {h:Array(String)}) AND index_block_hash IN {h:Array(String)}
       LIMIT 1 BY tx_id, index_block_hash, microblock_hash`,
      { h: canonicalHashes },
    );
    const byHash = new Map<string, typeof mined>();
    for (const m of mined) byHash.set(m.index_block_hash, [...(byHash.get(m.index_block_hash) ?? []), m]);
    for (const h of canonicalHashes) state.rememberMined(byHash.get(h) ?? []);
  }
  return state;
}

/** Makes sure memory holds every block of `height` and above (reading lower heights back from the
 *  store as earlier entries left them). */
export async function ensureHeight(ctx: ApplyContext, height: number): Promise<void> {
  const { state } = ctx;
  if (height < 0 || height >= state.low) return;
  // Forgotten heights were changed only by batches already handed to the store.
  await ctx.earlierBatchesStored();
  await loadHeights(ctx.store, state, height, state.low, ctx.logId - 1);
  state.low = height;
  state.loads++;
}

/** Between batches: forgets heights more than `keep` below the tip, but never a held block (nor the
 *  height below it), so that the held set stays what memory shows. */
export function forgetOldHeights(state: ChainState, keep = chainStateHeights()): void {
  if (!state.tip) return;
  let cut = state.tip.block_height - keep;
  for (const hash of heldBlocks(state)) cut = Math.min(cut, (state.blocks.get(hash)?.block_height ?? cut + 1) - 1);
  if (cut > state.low) state.forgetBelow(cut);
}
