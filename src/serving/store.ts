// The serving store: a memory-mapped key-value store (LMDB) beside ClickHouse, in the data
// directory, holding what point reads need ready-made: rendered documents and per-principal keys.
// ClickHouse stays the system of record; everything here is derived from the event log and is
// written in the same processor batch as the ClickHouse rows (see writer.ts).
//
// Why: a ClickHouse query costs >= 0.4 ms of engine CPU however small, a wide row by key 11-15 ms;
// an LMDB get of a rendered document costs a few microseconds.
import { open, type Database, type RootDatabase } from 'lmdb';
import { join } from 'node:path';
import { releaseOverBudget } from './resident.ts';
import { readStoreResidentMb } from '../config/tuning.ts';
import { counter } from '../metrics/registry.ts';
import type { BlockDoc, LockFact, MempoolDoc, MempoolState, PendingEntry, PrincipalTxFact, TxDoc } from './docs.ts';
import { unpack, unpackPrincipalFact, unpackTxDoc } from './codec.ts';

/** Where a placement id points: enough to decide canonical status without reading the document. */
export interface PlacementRef {
  index_block_hash: string;
  microblock_hash: string;
  block_height: number;
}

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

/** Running totals of one principal in one asset ('stx' or an FT asset id), decimal strings. */
export interface BalanceTotals {
  balance: string;
  total_sent: string;
  total_received: string;
  total_fees_sent: string;
  total_miner_rewards: string;
}

/** Per-principal lists: dense ordinals in chain order, one list per reference list's role filter. */
export const LIST = { V1: 1, WITH_TRANSFERS: 2, V2: 3, OWN: 4 } as const;
export type ListId = (typeof LIST)[keyof typeof LIST];

export interface ServingStore {
  /** The store's directory. */
  dir: string;
  env: RootDatabase;
  /** 'applied' (AppliedMarker), 'view' (ViewMeta). */
  meta: Database<unknown, string>;
  /** placement id -> tx document (packTxDoc, see codec.ts). */
  txDocs: Database<Buffer, number>;
  /** [placement id, event_index] -> event JSON, for txs with more events than a document keeps. */
  txEvents: Database<string, [number, number]>;
  /** [tx_id, placement id] -> where. */
  txPlacements: Database<PlacementRef, [string, number]>;
  /** tx_id -> raw tx bytes (mined or mempool; see rawTxOf). */
  rawTxs: Database<Buffer, string>;
  blockDocs: Database<BlockDoc, string>;
  /** index_block_hash -> the v1 block answer's members after `canonical` (blocks without
   *  microblock txs; the answer of a canonical block no microblock followed). */
  blockV1Bodies: Database<string, string>;
  /** [block_hash, index_block_hash] */
  blockHashes: Database<null, [string, string]>;
  /** [block_height, index_block_hash] */
  heights: Database<null, [number, string]>;
  /** index_block_hash -> height, of blocks not canonical now (forks, the boot block). */
  nonCanonical: Database<number, string>;
  microblocks: Database<MicroblockRef, string>;
  /** [parent_index_block_hash, microblock_hash]: the microblocks streamed after a block. */
  microblocksByParent: Database<null, [string, string]>;
  /** tx_id -> mempool document (packed). */
  mempoolDocs: Database<Buffer, string>;
  mempoolStates: Database<MempoolState, string>;
  /** tx_id -> entry, of the pending mempool only. */
  pending: Database<PendingEntry, string>;
  /** [principal, placement id] -> what the principal did in it (packPrincipalFact, see codec.ts). */
  principalTxs: Database<Buffer, [string, number]>;
  /** [list, principal, ordinal] -> placement id: the principal's canonical txs in chain order. */
  lists: Database<number, [number, string, number]>;
  /** ordinal -> placement id: every canonical anchored tx in chain order. */
  txList: Database<number, number>;
  /** [principal, asset] -> running totals of the canonical chain. */
  balances: Database<BalanceTotals, [string, string]>;
  /** [principal, asset identifier] -> [sent, received] NFT counts of the canonical chain. */
  nftCounts: Database<[number, number], [string, string]>;
  /** [principal, block_height, microblock_sequence, tx_index, event_index, index_block_hash, microblock_hash] */
  locks: Database<LockFact, [string, number, number, number, number, string, string]>;
  /** contract_id -> ABI JSON of its deploy with one at the greatest height. */
  abis: Database<{ h: number; abi: string }, string>;
  /** log id -> the real-time messages of that entry (src/realtime/journal.ts). */
  journal: Database<unknown, number>;
  close(): Promise<void>;
}

export const servingDir = (dataDir: string): string => join(dataDir, 'serving');

const MAP_BYTES = 2 ** 40;
/** Compression settings that compress nothing new but still read values stored compressed. */
const PLAIN = { threshold: 2 ** 31 };

export function openServingStore(dir: string, opts: { readOnly?: boolean } = {}): ServingStore {
  // Values of 512 bytes and more are LZ4-compressed (on the write thread), except the documents
  // that list pages read 50 at a time: decompressing them took a third of a page's read-and-unpack
  // time, to save a fifth of their space (bench/RESULTS.md). Documents stored compressed before
  // still read, since a compressed value is marked as such; a rebuild stores them plain.
  // One map of 1 TiB of address space (not memory): left to grow in chunks, the file was mapped
  // many times over and each resident page counted once per map (RSS twice the file, measured).
  // The writer writes through the map (see free-space.ts for why and for its one risk), which
  // makes the file a sparse 1 TiB: its blocks, not its length, are its size, and a copy must skip
  // holes (cp --sparse, rsync -S, tar -S). It is not cut back on close: pages a write still under
  // way at close commits could lie past any length read before it.
  const env = open({ path: dir, maxDbs: 32, compression: { threshold: 512 }, mapSize: MAP_BYTES, readOnly: opts.readOnly, useWritemap: !opts.readOnly });
  const releases = counter({ name: 'stacks_serving_store_page_releases_total', help: "Times the serving store's mapped pages were given back (file-backed RSS grew by STACKS_API_STORE_RESIDENT_MB)." });
  const stopReleasing = releaseOverBudget(join(dir, 'data.mdb'), readStoreResidentMb(process.env), () => releases.inc());
  const db = <V, K extends import('lmdb').Key>(name: string, extra: Record<string, unknown> = {}) => env.openDB<V, K>({ name, ...extra });
  return {
    dir,
    env,
    meta: db('meta'),
    txDocs: db('txDocs', { encoding: 'binary', compression: PLAIN }),
    txEvents: db('txEvents', { encoding: 'string' }),
    txPlacements: db('txPlacements'),
    rawTxs: db('rawTxs', { encoding: 'binary' }),
    blockDocs: db('blockDocs'),
    blockV1Bodies: db('blockV1Bodies', { encoding: 'string' }),
    blockHashes: db('blockHashes'),
    heights: db('heights'),
    nonCanonical: db('nonCanonical'),
    microblocks: db('microblocks'),
    microblocksByParent: db('microblocksByParent'),
    mempoolDocs: db('mempoolDocs', { encoding: 'binary', compression: PLAIN }),
    mempoolStates: db('mempoolStates'),
    pending: db('pending'),
    principalTxs: db('principalTxs', { encoding: 'binary' }),
    lists: db('lists'),
    txList: db('txList'),
    balances: db('balances'),
    nftCounts: db('nftCounts'),
    locks: db('locks'),
    abis: db('abis'),
    journal: db('journal'),
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

// Typed reads of the packed values.
export function txDocOf(s: ServingStore, pid: number): TxDoc | undefined {
  const b = s.txDocs.getBinaryFast(pid);
  return b ? unpackTxDoc(b) : undefined;
}

export function mempoolDocOf(s: ServingStore, txId: string): MempoolDoc | undefined {
  const b = s.mempoolDocs.getBinaryFast(txId);
  return b ? unpack<MempoolDoc>(b) : undefined;
}

export function principalFactOf(s: ServingStore, principal: string, pid: number): PrincipalTxFact | undefined {
  const b = s.principalTxs.getBinaryFast([principal, pid]);
  return b ? unpackPrincipalFact(b) : undefined;
}

/** Raw tx bytes are kept as bytes (half the size of their hex). */
export const rawTxBytes = (hex: string): Buffer => Buffer.from(hex.startsWith('0x') ? hex.slice(2) : hex, 'hex');

export function rawTxOf(s: ServingStore, txId: string): string | undefined {
  const b = s.rawTxs.get(txId);
  return b ? `0x${b.toString('hex')}` : undefined;
}
