// The processor's view of the chain: every block and microblock with its canonical status, the tip,
// and the pending mempool. Rebuilt at start from the overlay tables *as of the committed checkpoint*,
// so that redoing an interrupted batch sees exactly the state it saw the first time.
import type { Store } from '../../storage/client.ts';
import type { BalanceDelta, CountDelta, TxRef } from '../../workers/decoded.ts';

export interface BlockState {
  index_block_hash: string;
  block_hash: string;
  block_height: number;
  parent_index_block_hash: string;
  canonical: boolean;
  burn_block_time: number;
  burn_block_height: number;
  burn_block_hash: string;
  parent_microblock_hash: string;
  parent_microblock_sequence: number;
  /** Event-log entry that delivered the block first. */
  log_id: number;
  /** Loaded lazily for blocks from before this run. */
  txs?: TxRef[];
  deltas?: BalanceDelta[];
  /** STX the block issued and the event counts it changed (see running-totals.ts). */
  supply?: string;
  counts?: CountDelta[];
}

export interface MicroblockState {
  microblock_hash: string;
  microblock_sequence: number;
  microblock_parent_hash: string;
  parent_index_block_hash: string;
  canonical: boolean;
  /** Anchor block that accepted it ('' while unconfirmed). */
  index_block_hash: string;
  block_hash: string;
  block_height: number;
  burn_block_time: number;
  burn_block_height: number;
  burn_block_hash: string;
  tx_ids: string[];
  txs?: TxRef[];
}

const MINED_MEMORY = 512;
const DETAIL_HEIGHTS = 256;

export class ChainState {
  readonly blocks = new Map<string, BlockState>();
  readonly byHeight = new Map<number, string[]>();
  readonly microblocks = new Map<string, MicroblockState>();
  readonly microblocksByParent = new Map<string, Set<string>>();
  /** tx_id -> pending in the mempool */
  readonly mempoolPending = new Set<string>();
  /** Tx ids of recent canonical blocks: a mempool announcement of a tx already mined is ignored. */
  readonly minedRecently = new Set<string>();
  private readonly minedQueue: string[][] = [];

  /** Remembers the txs of the last MINED_MEMORY canonical blocks. */
  rememberMined(txIds: string[]): void {
    this.minedQueue.push(txIds);
    for (const id of txIds) this.minedRecently.add(id);
    while (this.minedQueue.length > MINED_MEMORY) for (const id of this.minedQueue.shift()!) this.minedRecently.delete(id);
  }
  tip: BlockState | null = null;

  addBlock(b: BlockState): void {
    this.blocks.set(b.index_block_hash, b);
    // Keep txs and balance changes in memory only for recent heights (what reorgs touch); older
    // ones are read back from their fact tables if ever needed.
    for (const h of this.byHeight.get(b.block_height - DETAIL_HEIGHTS) ?? []) {
      const old = this.blocks.get(h)!;
      old.txs = undefined;
      old.deltas = undefined;
      old.supply = undefined;
      old.counts = undefined;
    }
    const list = this.byHeight.get(b.block_height);
    if (list) list.push(b.index_block_hash);
    else this.byHeight.set(b.block_height, [b.index_block_hash]);
    if (b.canonical && (!this.tip || b.block_height >= this.tip.block_height)) this.tip = b;
  }

  addMicroblock(m: MicroblockState): void {
    this.microblocks.set(m.microblock_hash, m);
    let set = this.microblocksByParent.get(m.parent_index_block_hash);
    if (!set) this.microblocksByParent.set(m.parent_index_block_hash, (set = new Set()));
    set.add(m.microblock_hash);
  }

  canonicalAt(height: number): BlockState | undefined {
    for (const h of this.byHeight.get(height) ?? []) {
      const b = this.blocks.get(h)!;
      if (b.canonical) return b;
    }
    return undefined;
  }

  microblocksOf(parentIndexBlockHash: string): MicroblockState[] {
    return [...(this.microblocksByParent.get(parentIndexBlockHash) ?? [])].map((h) => this.microblocks.get(h)!);
  }
}

const q = async <T>(store: Store, query: string, params: Record<string, unknown> = {}): Promise<T[]> =>
  (await store.client.query({ query, query_params: params, format: 'JSONEachRow' })).json<T>();

export async function loadChainState(store: Store, committed: number): Promise<ChainState> {
  const state = new ChainState();
  const blocks = await q<Record<string, string>>(
    store,
    `SELECT c.index_block_hash AS index_block_hash, c.canonical AS canonical, c.log_id AS log_id, b.block_hash AS block_hash, b.block_height AS block_height,
            b.parent_index_block_hash AS parent_index_block_hash, b.burn_block_time AS burn_block_time,
            b.burn_block_height AS burn_block_height, b.burn_block_hash AS burn_block_hash,
            b.parent_microblock_hash AS parent_microblock_hash, b.parent_microblock_sequence AS parent_microblock_sequence
     FROM (SELECT index_block_hash, argMax(canonical, version) AS canonical, min(version) AS log_id FROM block_canonical WHERE version <= {c:UInt64} GROUP BY index_block_hash) AS c
     INNER JOIN (SELECT * FROM blocks LIMIT 1 BY index_block_hash) AS b ON b.index_block_hash = c.index_block_hash
     ORDER BY block_height`,
    { c: committed },
  );
  for (const r of blocks) {
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
    });
  }
  const mbs = await q<Record<string, string>>(
    store,
    `SELECT c.*, m.microblock_parent_hash AS microblock_parent_hash, m.tx_ids AS tx_ids
     FROM (SELECT microblock_hash, argMax(tuple(canonical, index_block_hash, block_hash, block_height, burn_block_time, burn_block_height, burn_block_hash, parent_index_block_hash, microblock_sequence), version) AS s
           FROM microblock_canonical WHERE version <= {c:UInt64} GROUP BY microblock_hash) AS c
     INNER JOIN (SELECT * FROM microblocks LIMIT 1 BY microblock_hash) AS m ON m.microblock_hash = c.microblock_hash`,
    { c: committed },
  );
  for (const r of mbs) {
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
  const pending = await q<{ tx_id: string }>(
    store,
    `SELECT tx_id FROM mempool_status WHERE version <= {c:UInt64} GROUP BY tx_id HAVING argMax(status, version) = 'pending'`,
    { c: committed },
  );
  for (const r of pending) state.mempoolPending.add(r.tx_id);
  const canonicalHashes = blocks.filter((b) => Number(b.canonical) === 1).slice(-MINED_MEMORY).map((b) => b.index_block_hash);
  if (canonicalHashes.length) {
    const mined = await q<{ index_block_hash: string; tx_ids: string[] }>(store, `SELECT index_block_hash, tx_ids FROM blocks WHERE index_block_hash IN {h:Array(String)} LIMIT 1 BY index_block_hash`, { h: canonicalHashes });
    const byHash = new Map(mined.map((m) => [m.index_block_hash, m.tx_ids]));
    for (const h of canonicalHashes) state.rememberMined(byHash.get(h) ?? []);
  }
  return state;
}
