// What a batch hands the serving store: the documents and facts the decode workers render from the
// rows they decoded (src/workers/serving/), and the balance changes the processor sums. The store's
// writer and its change sets read these; the workers make them.
import type { PackedTxDoc } from './codec.ts';
import type { LockFact, StoredEvent } from './docs.ts';

export interface EventPlacement {
  tx_id: string;
  index_block_hash: string;
  microblock_hash: string;
  block_height: number;
  microblock_sequence?: number;
  tx_index: number;
}

/** Where a rendered tx document belongs (the processor's lists and patches read these; its
 *  microblock_hash is '' for anchored txs). */
export type PlacedDoc = Required<EventPlacement>;

/** Rendered tx placement and the events a document does not keep. */
export interface ServedTx {
  doc: PlacedDoc;
  /** The TxDoc with its events page and raw bytes, packed and compressed (packTxDoc, src/serving/codec.ts). */
  packed: PackedTxDoc;
  /** All events, when there are more than a document keeps. */
  moreEvents?: StoredEvent[];
  /** Its NFT events, [event_index, asset identifier, value hex] (the real-time journal announces them). */
  nft?: Array<[number, string, string]>;
  /** The decoded tx's nonces (for the principal facts). */
  nonce: number;
  sponsor_nonce?: number;
  sponsor_address: string;
  /** A boot receipt shown as block 1's tx. */
  boot: boolean;
}

/** The block a payload's documents belong to (none for a microblock stream's). */
export interface EntryBlock {
  index_block_hash: string;
  block_height: number;
}

/** A payload's block: its record as stored (block-record.ts: the frame its txs' answers read, and
 *  the block document; compressed as the tx documents are), and what the processor and the writer
 *  read of it. */
export interface ServedBlock {
  index_block_hash: string;
  block_hash: string;
  block_height: number;
  record: Uint8Array;
}

export interface ServedRows {
  txs: ServedTx[];
  principalTxs: ServedPrincipalTx[];
  locks: ServedLock[];
  /** [contract_id, ABI JSON] of deploys with an ABI. */
  abis: Array<[string, string]>;
  block?: ServedBlock;
}

/** What a payload gives the serving store when it is not kept (or only checked). */
export const NOTHING_SERVED: ServedRows = { txs: [], principalTxs: [], locks: [], abis: [] };

export interface ServedPrincipalTx {
  principal: string;
  /** Index of the tx in the payload's ServedTx list. */
  tx: number;
  roles: number;
  /** [asset identifier, NFTs sent, NFTs received] in this tx; absent when it moved none. */
  nft?: Array<[string, number, number]>;
  /** The PrincipalTxFact, packed (packFact, src/serving/principal-fact.ts). */
  packed: Uint8Array;
}

export interface ServedLock {
  principal: string;
  microblock_sequence: number;
  tx_index: number;
  event_index: number;
  fact: LockFact;
}

/** An integer amount: a number while it is exact (within ±(2^53 - 1)), else its decimal string. */
export type Amount = number | string;

/** Balance change of one principal in one asset ('stx' or an FT asset id). Amounts are numbers
 *  while exact: five strings a change were ~10 objects a tx to copy to the processor and keep. */
export interface BalanceDelta {
  principal: string;
  asset: string;
  balance: Amount;
  total_sent: Amount;
  total_received: Amount;
  total_fees_sent: Amount;
  total_miner_rewards: Amount;
}

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

/** `v` as an Amount. */
export const amountOf = (v: bigint): Amount => (v >= -MAX_EXACT && v <= MAX_EXACT ? Number(v) : v.toString());

/** `v` negated, as an Amount. */
export const negatedAmount = (v: Amount): Amount => (typeof v === 'number' ? -v || 0 : amountOf(-BigInt(v)));
