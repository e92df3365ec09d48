// The serving store: a memory-mapped key-value store (LMDB) beside ClickHouse, in the data
// directory, holding what point reads need ready-made: rendered documents and per-principal lists.
// ClickHouse stays the system of record; everything here is derived from the event log and is
// written in the same processor batch as the ClickHouse rows (see writer.ts).
//
// Why: a ClickHouse query costs >= 0.4 ms of engine CPU however small, a wide row by key 11-15 ms;
// an LMDB get of a rendered document costs a few microseconds.
//
// Layout (layout.ts names its version). Most of what a tx adds is written under keys that only grow
// — placement ids (log id * 2^20 + index in the entry) and log ids — so LMDB appends to the last
// page instead of copying a page somewhere in a large tree: a random-key write got 4.7x slower as a
// store grew to 1.2M entries, an appending one did not (issue 32). The random-key writes left are
// one per tx (the tx index) and one per principal a batch touches (its list's tail, its totals).
import { open, type Database, type RootDatabase } from 'lmdb';
import { join } from 'node:path';
import { releaseOverBudget } from './resident.ts';
import { readStoreResidentMb } from '../config/tuning.ts';
import { counter } from '../metrics/registry.ts';
import type { LockFact, PendingEntry } from './docs.ts';
import { DOC_DICTIONARY } from './dictionaries.ts';
import type { Lz4Dictionary } from './lz4.ts';
import { checkLayout } from './layout.ts';

export interface MicroblockRef {
  canonical: boolean;
  /** The anchor block that accepted it ('' while unconfirmed). */
  index_block_hash: string;
  parent_index_block_hash: string;
  microblock_sequence: number;
  block_height: number;
  /** Its txs (absent in stores written before it was kept: those blocks are answered from ClickHouse). */
  tx_count?: number;
}

type Bin = Database<Buffer, Buffer>;

export interface ServingStore {
  /** The store's directory. */
  dir: string;
  env: RootDatabase;
  /** 'layout', 'applied' (AppliedMarker), 'view' (ViewMeta), 'journalFrom', 'principalCount', 'dirty:<principal>'. */
  meta: Database<unknown, string>;
  /** placement id -> tx document, the members lists show (codec.ts), compressed against
   *  DOC_DICTIONARY. Read through this handle (lmdb decompresses); written through `writes.txDocs`
   *  (the workers compressed it). */
  txDocs: Database<Buffer, number>;
  /** placement id -> the document's cold part: its events (the first INLINE_EVENTS) and raw bytes,
   *  compressed and written as txDocs. */
  txCold: Database<Buffer, number>;
  /** [placement id, event_index] -> [event_type, members after tx_id], for txs with more events than INLINE_EVENTS. */
  txEvents: Database<[string, string], [number, number]>;
  /** tx id (32 bytes) -> placements and mempool status (tx-index.ts). */
  txs: Bin;
  /** chunk (u32) -> placement ids: every canonical anchored tx in chain order (list-overlay.ts). */
  txList: Bin;
  /** log id (u32) -> the entry's block: frame, then document (block-record.ts), compressed as txDocs
   *  (written through `writes.blocks`). */
  blocks: Database<Buffer, number>;
  /** index block hash (32 bytes) -> log id (u32 big-endian). */
  blockIndex: Bin;
  /** [block_hash, log id] (32 + 4 bytes) -> index block hash (32 bytes). */
  blockHashes: Bin;
  /** [block_height, log id] (u32, u32) -> index block hash. */
  heights: Bin;
  /** index_block_hash -> height, of blocks not canonical now (forks, the boot block). */
  nonCanonical: Database<number, string>;
  microblocks: Database<MicroblockRef, string>;
  /** [parent_index_block_hash, microblock_hash]: the microblocks streamed after a block. */
  microblocksByParent: Database<null, [string, string]>;
  /** tx id (32 bytes) -> mempool document with raw bytes, of txs pending or dropped, against DOC_DICTIONARY. */
  mempoolDocs: Bin;
  /** tx_id -> entry, of the pending mempool only. */
  pending: Database<PendingEntry, string>;
  /** principal -> its id (u32 big-endian), assigned in log order (principal-ids.ts). */
  principals: Database<Buffer, string>;
  /** id (u32) -> principal (the real-time journal names principals by id). */
  principalNames: Database<string, number>;
  /** [principal id, chunk] -> 32 list entries; the header at chunk 0xFFFFFFFF (principal-list.ts). */
  lists: Bin;
  /** [principal id, asset] -> running totals of the canonical chain (totals.ts). */
  balances: Bin;
  /** [principal id, asset identifier] -> [sent, received] NFT counts of the canonical chain. */
  nftCounts: Bin;
  /** [principal, block_height, microblock_sequence, tx_index, event_index, index_block_hash, microblock_hash] */
  locks: Database<LockFact, [string, number, number, number, number, string, string]>;
  /** contract_id -> ABI JSON of its deploy with one at the greatest height. */
  abis: Database<{ h: number; abi: string }, string>;
  /** log id -> the real-time messages of that entry (src/serving/journal/codec.ts). */
  journal: Database<Buffer, number>;
  /** Handles without compression, for values the workers compressed already. */
  writes: { txDocs: Database<Buffer, number>; txCold: Database<Buffer, number>; blocks: Database<Buffer, number>; mempoolDocs: Bin };
  close(): Promise<void>;
}

export const servingDir = (dataDir: string): string => join(dataDir, 'serving');

const MAP_BYTES = 2 ** 40;
/**
 * The page size of a store this process creates (an existing store keeps the one in its file). A
 * read fault on the map also maps the neighbouring 64 KB that is in the page cache (the kernel's
 * fault-around), so with 4 KB pages each random read of a batch mapped 16 pages, of leaves it never
 * read: a 1M-tx import's peak RSS was 2.6 GB, of which 1.4 GB the map. With 64 KB pages a fault
 * maps one leaf, and a batch touches fewer, larger leaves (measured on the 1M-tx log: peak RSS
 * 2.1 GB, CPU a tx -5%, the store +8% on disk; the read cases' answer CPU within noise). It costs
 * live ingest ~12% of its rate, not explained yet (bench/RESULTS.md, twentieth session).
 */
const STORE_PAGE_BYTES = 64 * 1024;
/** Decompression with a dictionary, compressing nothing on write (the workers did). */
const readCompressed = (d: Lz4Dictionary) => ({ threshold: 2 ** 31, dictionary: Buffer.from(d.bytes) });

export function openServingStore(dir: string, opts: { readOnly?: boolean } = {}): ServingStore {
  // One map of 1 TiB of address space (not memory): left to grow in chunks, the file was mapped
  // many times over and each resident page counted once per map (RSS twice the file, measured).
  // The writer writes through the map (see free-space.ts for why and for its one risk), which
  // makes the file a sparse 1 TiB: its blocks, not its length, are its size, and a copy must skip
  // holes (cp --sparse, rsync -S, tar -S). It is not cut back on close: pages a write still under
  // way at close commits could lie past any length read before it.
  // Values of 512 bytes and more are LZ4-compressed by lmdb (the journal, ABIs), except in the
  // databases opened `plain`: their values are small, or the workers compressed them already.
  // A batch's writes are made in one write transaction (writer.ts). Asynchronous puts issued outside
  // one (tests, tools) start lmdb's write thread only once their turn has issued them all: started
  // after 1,000 of them, it waited for each next one and was woken per write (a native call and a
  // thread switch each; measured: 30-40% more CPU for the batch).
  const env = open({ path: dir, maxDbs: 32, compression: { threshold: 512 }, mapSize: MAP_BYTES, pageSize: STORE_PAGE_BYTES, readOnly: opts.readOnly, useWritemap: !opts.readOnly, batchStartThreshold: 2 ** 31 } as Parameters<typeof open>[0]);
  const db = <V, K extends import('lmdb').Key>(name: string, extra: Record<string, unknown> = {}) => env.openDB<V, K>({ name, ...extra });
  const plain = { compression: false };
  const bin = (name: string, extra: Record<string, unknown> = {}) => db<Buffer, Buffer>(name, { keyEncoding: 'binary', encoding: 'binary', ...plain, ...extra });
  const meta = db<unknown, string>('meta');
  try {
    checkLayout(dir, meta, !!opts.readOnly);
  } catch (e) {
    void env.close();
    throw e;
  }
  const releases = counter({ name: 'stacks_serving_store_page_releases_total', help: "Times the serving store's mapped pages were given back (file-backed RSS grew by STACKS_API_STORE_RESIDENT_MB)." });
  const stopReleasing = releaseOverBudget(join(dir, 'data.mdb'), readStoreResidentMb(process.env), () => releases.inc());
  return {
    dir,
    env,
    meta,
    txDocs: db('txDocs', { encoding: 'binary', compression: readCompressed(DOC_DICTIONARY) }),
    txCold: db('txCold', { encoding: 'binary', compression: readCompressed(DOC_DICTIONARY) }),
    txEvents: db('txEvents'),
    txs: bin('txs'),
    // Binary keys, not lmdb's uint32 ones: a reverse range of those never yields key 0 (lmdb 3.5).
    txList: bin('txList'),
    blocks: db('blocks', { keyEncoding: 'uint32', encoding: 'binary', compression: readCompressed(DOC_DICTIONARY) }),
    blockIndex: bin('blockIndex'),
    blockHashes: bin('blockHashes'),
    heights: bin('heights'),
    nonCanonical: db('nonCanonical'),
    microblocks: db('microblocks'),
    microblocksByParent: db('microblocksByParent'),
    mempoolDocs: bin('mempoolDocs', { compression: readCompressed(DOC_DICTIONARY) }),
    pending: db('pending'),
    principals: db('principals', { encoding: 'binary', ...plain }),
    principalNames: db('principalNames', { keyEncoding: 'uint32', encoding: 'string', ...plain }),
    lists: bin('lists'),
    balances: bin('balances'),
    nftCounts: bin('nftCounts'),
    locks: db('locks'),
    abis: db('abis'),
    journal: db('journal', { encoding: 'binary', ...plain }),
    writes: { txDocs: db('txDocs', { encoding: 'binary', ...plain }), txCold: db('txCold', { encoding: 'binary', ...plain }), blocks: db('blocks', { keyEncoding: 'uint32', encoding: 'binary', ...plain }), mempoolDocs: bin('mempoolDocs') },
    close: () => {
      stopReleasing();
      return env.close();
    },
  };
}

/** The last event-log entry whose writes are in the store. */
export interface AppliedMarker {
  logId: number;
}

export function appliedMarker(s: ServingStore): AppliedMarker {
  const m = s.meta.get('applied') as AppliedMarker | undefined;
  return m ?? { logId: 0 };
}
