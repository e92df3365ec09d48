// Stored rows -> the reference API's Transaction and MempoolTransaction objects. The fields that
// come from the transaction bytes are rendered by our decoder (formatTxBase / formatTxMetadata);
// block, status, result and event fields come from the row.
import {
  decodeTransaction,
  formatTxBase,
  formatTxMetadata,
  type ApiTxBase,
  type ApiTxMetadata,
  type DecodedTransaction,
} from '../stacks/codec/index.ts';
import type { EventRow, MempoolRow, PlacedTx } from './rows.ts';
import { syntheticTxFields } from './synthetic.ts';
import { clarityValue, isoTime } from './values.ts';


/** Anchored txs: the reference's placeholders for "no microblock". */
export const ANCHORED_MICROBLOCK_HASH = '0x';
export const ANCHORED_MICROBLOCK_SEQUENCE = 2147483647;

export interface RenderOptions {
  /** The called contract's ABI (JSON text), for contract calls. */
  abi?: string | null;
  excludeFunctionArgs?: boolean;
  /** The tx already decoded (the decode workers have it). */
  decoded?: DecodedTransaction;
}

/** Decoded-tx part of a tx object (tx_id … anchor_mode, then tx_type and the payload). */
export interface DecodedParts {
  base: ApiTxBase;
  metadata: ApiTxMetadata;
}

/** Decodes raw tx bytes into the base and payload parts, or undefined when not a Stacks tx. */
export function decodeParts(txId: string, rawTx: string, opts: RenderOptions): DecodedParts | undefined {
  let tx: DecodedTransaction;
  try {
    tx = opts.decoded ?? decodeTransaction(rawTx, { txId });
  } catch {
    return undefined;
  }
  return { base: formatTxBase(tx), metadata: formatTxMetadata(tx, { abi: opts.abi, excludeFunctionArgs: opts.excludeFunctionArgs }) };
}

/** Extra context: an unconfirmed microblock row's parent block hash; a synthetic tx's events. */
export interface MinedContext {
  parentBlockHash?: string;
  events?: readonly EventRow[];
}

/**
 * A mined tx as the reference renders it (`events` left empty; callers fill them). Unconfirmed
 * microblock rows show what the reference knows before an anchor block accepts them: no block hash,
 * burn block time and height -1.
 */
export function formatMinedTx(p: PlacedTx, opts: RenderOptions = {}, ctx: MinedContext = {}): Record<string, unknown> {
  const parts = p.raw_tx === '0x00' ? syntheticTxFields(p, ctx.events) : decodeParts(p.tx_id, p.raw_tx, opts);
  const unanchored = p.unanchored;
  const burnTime = unanchored ? -1 : p.burn_block_time;
  const burnHeight = unanchored ? -1 : p.burn_block_height;
  const blockTime = p.block_time || (unanchored ? p.burn_block_time : burnTime);
  const tx = txObject(parts?.base, p.tx_id);
  tx.block_hash = unanchored ? '0x' : p.block_hash;
  tx.block_height = p.block_height;
  tx.block_time = blockTime;
  tx.block_time_iso = blockTime > 0 ? isoTime(blockTime) : '';
  tx.burn_block_time = burnTime;
  tx.burn_block_height = burnHeight;
  tx.burn_block_time_iso = burnTime > 0 ? isoTime(burnTime) : '';
  tx.parent_burn_block_time = p.parent_burn_block_time;
  tx.parent_burn_block_time_iso = p.parent_burn_block_time > 0 ? isoTime(p.parent_burn_block_time) : '';
  tx.canonical = p.canonical;
  tx.tx_index = p.shown_tx_index ?? p.tx_index;
  tx.tx_status = p.status;
  tx.tx_result = clarityValue(p.raw_result);
  tx.event_count = p.event_count;
  tx.parent_block_hash = unanchored ? (ctx.parentBlockHash ?? '') : p.parent_block_hash;
  tx.is_unanchored = unanchored;
  tx.microblock_hash = p.microblock_hash || ANCHORED_MICROBLOCK_HASH;
  tx.microblock_sequence = p.microblock_hash ? p.microblock_sequence : ANCHORED_MICROBLOCK_SEQUENCE;
  tx.microblock_canonical = p.microblock_canonical;
  tx.execution_cost_read_count = p.execution_cost_read_count;
  tx.execution_cost_read_length = p.execution_cost_read_length;
  tx.execution_cost_runtime = p.execution_cost_runtime;
  tx.execution_cost_write_count = p.execution_cost_write_count;
  tx.execution_cost_write_length = p.execution_cost_write_length;
  tx.vm_error = p.vm_error ?? null;
  tx.events = [] as unknown[];
  return withMetadata(tx, parts?.metadata);
}

/**
 * A tx object's first members, from its decoded base (an absent member is undefined, which JSON
 * leaves out); the caller adds the rest by name, then withMetadata the payload's. Built as
 * Object.assign({}, base, fields, metadata) was, the object went to dictionary mode past 12 added
 * members (V8's limit for keyed stores), and JSON.stringify took ~1.5x as long on it (the serving
 * documents' render ~26% longer: bench/serving-render.bench.ts); with two spreads in a literal it
 * was built 6x slower.
 */
function txObject(b: ApiTxBase | undefined, txId: string): Record<string, unknown> {
  // `satisfies`: a member ApiTxBase gains must be listed here too, or tsc fails (Object.assign
  // copied whatever the base had; a literal copies only what it names).
  const tx = {
    tx_id: b ? b.tx_id : txId,
    nonce: b?.nonce,
    sponsor_nonce: b?.sponsor_nonce,
    fee_rate: b?.fee_rate,
    sender_address: b?.sender_address,
    sponsored: b?.sponsored,
    sponsor_address: b?.sponsor_address,
    post_condition_mode: b?.post_condition_mode,
    post_conditions: b?.post_conditions,
    anchor_mode: b?.anchor_mode,
  } satisfies Record<keyof ApiTxBase, unknown>;
  return tx;
}

/** The payload members (tx_type and the payload's own object) after the rest, in their order. */
function withMetadata(tx: Record<string, unknown>, metadata: object | undefined): Record<string, unknown> {
  if (metadata) for (const [k, v] of Object.entries(metadata)) tx[k] = v;
  return tx;
}

/** The node's drop reasons -> the reference's tx_status of a dropped mempool tx. */
const DROP_STATUS: Record<string, string> = {
  ReplaceByFee: 'dropped_replace_by_fee',
  ReplaceAcrossFork: 'dropped_replace_across_fork',
  TooExpensive: 'dropped_too_expensive',
  StaleGarbageCollect: 'dropped_stale_garbage_collect',
  Problematic: 'dropped_problematic',
};

export function mempoolTxStatus(m: Pick<MempoolRow, 'status' | 'reason'>): string {
  if (m.status !== 'dropped') return 'pending';
  return DROP_STATUS[m.reason] ?? 'dropped_stale_garbage_collect';
}

/**
 * A mempool tx as the reference renders it. A tx that left the mempool by being mined (status
 * `confirmed`) but is served from here anyway (unconfirmed microblock, orphaned block) is pending.
 */
export function formatMempoolTx(m: MempoolRow, opts: RenderOptions = {}): Record<string, unknown> {
  const parts = decodeParts(m.tx_id, m.raw_tx, opts);
  const tx = txObject(parts?.base, m.tx_id);
  tx.tx_status = mempoolTxStatus(m);
  tx.replaced_by_tx_id = m.status === 'dropped' && m.replaced_by ? m.replaced_by : null;
  tx.receipt_time = m.receipt_time;
  tx.receipt_time_iso = isoTime(m.receipt_time);
  return withMetadata(tx, parts?.metadata);
}
