// The processor's view of the chain: every block and microblock with its canonical status, the tip,
// and the pending mempool. Rebuilt at start from the overlay tables *as of the committed checkpoint*,
// so that redoing an interrupted batch sees exactly the state it saw the first time.
import type { Store } from '../../storage/client.ts';
import type { AnalyticsChange, BalanceDelta, CountDelta, TxRef } from '../../workers/decoded.ts';
import type { ServedRows } from '../../workers/serving/served-rows.ts';
import { PendingNonces, rememberMinedNonces } from './mempool-nonces.ts';

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
  /** Its documents and facts for the serving store (recent blocks; else decoded again from the log). */
  served?: ServedRows;
  /** STX the block issued and the event counts it changed (see running-totals.ts). */
  supply?: string;
  counts?: CountDelta[];
  /** Its header time (the burn block's for epoch 2.x) and its analytics changes (processor/analytics.ts). */
  block_time?: number;
  analytics?: AnalyticsChange[];
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
  /** `sender|nonce` -> tx id, of the same blocks' txs (mempool nonce conflicts). */
  readonly minedNonces = new Map<string, string>();
  /** The pending mempool by account and nonce. */
  readonly pendingNonces = new PendingNonces();
  private readonly minedQueue: Array<{ txIds: string[]; nonces: Array<[string, string]> }> = [];

  /** Remembers the txs of the last MINED_MEMORY canonical blocks. */
  rememberMined(txs: ReadonlyArray<{ tx_id: string; sender_address: string; nonce: string; raw_tx: string }>): void {
    const txIds = txs.map((t) => t.tx_id);
    const keys = rememberMinedNonces(this, txs);
    this.minedQueue.push({ txIds, nonces: keys.map((k) => [k, this.minedNonces.get(k)!]) });
    for (const id of txIds) this.minedRecently.add(id);
    while (this.minedQueue.length > MINED_MEMORY) {
      const old = this.minedQueue.shift()!;
      for (const id of old.txIds) this.minedRecently.delete(id);
      for (const [k, id] of old.nonces) if (this.minedNonces.get(k) === id) this.minedNonces.delete(k);
    }
  }

  /** An orphaned block's txs no longer hold their nonces. */
  forgetMinedNonces(txs: ReadonlyArray<{ tx_id: string; sender_address: string; nonce: string }>): void {
    for (const t of txs) {
      const key = `${t.sender_address}|${Number(t.nonce)}`;
      if (this.minedNonces.get(key) === t.tx_id) this.minedNonces.delete(key);
    }
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
      old.served = undefined;
      old.supply = undefined;
      old.counts = undefined;
      old.analytics = undefined;
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

  /** Whether `block` accepted (confirmed) the microblock, as things stand now. */
  accepted(block: BlockState, microblockHash: string): boolean {
    const m = this.microblocks.get(microblockHash);
    return !!m && m.canonical && m.index_block_hash === block.index_block_hash;
  }

  /** Canonical microblocks streamed on the tip that no block has confirmed yet. */
  liveMicroblocks(): string[] {
    if (!this.tip) return [];
    return this.microblocksOf(this.tip.index_block_hash).filter((m) => m.canonical && !m.index_block_hash).map((m) => m.microblock_hash);
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
            b.parent_microblock_hash AS parent_microblock_hash, b.parent_microblock_sequence AS parent_microblock_sequence, b.block_time AS block_time
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
      block_time: Number(r.block_time),
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
