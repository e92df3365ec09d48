// Rosetta blocks and block transactions from the store: a block's identifier, parent and time, and
// its transactions' operations with the miner rewards that matured in it and the PoX locks that
// ended with it (on its coinbase), as the reference assembles them.
import type { Store } from '../../storage/client.ts';
import type { ApiContext } from '../context.ts';
import { chainTip } from '../address/scope.ts';
import { blockByHash, type BlockRow } from '../blocks/queries.ts';
import { decodeTransaction } from '../../stacks/codec/index.ts';
import { keyOf, type TxRow } from '../tx/queries.ts';
import { contractAbis } from '../tx/abi-cache.ts';
import { blockTxRows, canonicalBlockAt, minerRewardsAt, stxEvents } from './queries.ts';
import { unlocksAt } from './unlocks.ts';
import { opTxOf, txOperations, type MinerReward, type OpTx, type Operation, type StxEvent, type Unlock } from './operations.ts';
import { postgresSort } from './pg-order.ts';
import { relocksIn, type LockEvent, type Relock } from './relock.ts';
import { correctionTransaction, correctionTxId, noCorrections, type Corrections } from './corrections.ts';

export interface BlockIdentifier {
  index: number;
  hash: string;
}

export interface RosettaTransaction {
  transaction_identifier: { hash: string };
  operations: Operation[];
  related_transactions?: Array<{ transaction_identifier: { hash: string }; direction: 'forward' | 'backward' }>;
  metadata?: Record<string, unknown>;
}

export interface RosettaBlock {
  block_identifier: BlockIdentifier;
  parent_block_identifier: BlockIdentifier;
  timestamp: number;
  transactions: RosettaTransaction[];
  metadata: { burn_block_height: number };
}

export const identifierOf = (b: Pick<BlockRow, 'block_height' | 'block_hash'>): BlockIdentifier => ({ index: b.block_height, hash: b.block_hash });

/** Epoch 2.x blocks carry no consensus time of their own: their burn block's stands in (ms). */
export const blockTimestamp = (b: Pick<BlockRow, 'signer_bitvec' | 'block_time' | 'burn_block_time'>): number => (b.signer_bitvec ? b.block_time : b.burn_block_time) * 1000;

/** The parent's identifier; the genesis block (height 1, or the boot block) is its own parent. */
export async function parentOf(store: Store, b: BlockRow): Promise<BlockIdentifier | undefined> {
  if (b.block_height <= 1) return identifierOf(b);
  const parent = await blockByHash(store, 'block_hash', b.parent_block_hash);
  return parent ? identifierOf(parent) : undefined;
}

const NODE_STATUS = new Set(['success', 'abort_by_response', 'abort_by_post_condition']);

/** A mined tx row as the input of its operations; a Bitcoin-originated one (no bytes) from its events. */
export function minedOpTx(row: TxRow, events: readonly StxEvent[], abis: ReadonlyMap<string, string>): OpTx | undefined {
  const status = NODE_STATUS.has(row.status) ? row.status : '';
  if (row.raw_tx !== '0x00') {
    try {
      return opTxOf(decodeTransaction(row.raw_tx, { txId: row.tx_id }), status, { result: row.raw_result, abi: abis.get(row.contract_id) });
    } catch {
      return undefined;
    }
  }
  // As the reference's stand-in txs: an STX transfer event makes a token transfer, a lock a stack-stx call.
  const common = { tx_id: row.tx_id, status, fee: 0n, result: row.raw_result };
  for (const e of events) {
    if (e.kind === 'transfer') return { ...common, type: 'token_transfer', sender: e.sender, feePayer: e.sender, transfer: { recipient: e.recipient, amount: e.amount } };
    if (e.kind === 'lock') {
      const boot = /^S[PM]/.test(e.locked_address) ? 'SP000000000000000000002Q6VF78' : 'ST000000000000000000002AMW42H';
      return { ...common, type: 'contract_call', sender: e.locked_address, feePayer: e.locked_address, call: { contract_id: `${boot}.pox`, function_name: 'stack-stx', function_signature: '', function_args: [] } };
    }
  }
  return undefined;
}

/** A tx's Rosetta object; `memo` is the token transfer's memo text, shown in its metadata too. */
export function rosettaTransaction(tx: OpTx, ops: Operation[]): RosettaTransaction {
  const out: RosettaTransaction = { transaction_identifier: { hash: tx.tx_id }, operations: ops };
  const memo = ops.find((o) => o.type === 'token_transfer' && tx.type === 'token_transfer')?.metadata?.memo;
  if (typeof memo === 'string' && memo) out.metadata = { memo };
  return out;
}

/**
 * The order the reference lists a block's txs in: by microblock sequence (anchored last) and
 * tx_index, ties as PostgreSQL leaves them (see pg-order.ts). Block 1's tx_ids hold the block's own
 * txs and the boot receipts relabelled into it: among txs sharing a tx_index the block's own comes
 * first, and own txs are exactly those with tx_index below the block's tx_count.
 */
export function referenceTxOrder(block: Pick<BlockRow, 'tx_count'>, txs: readonly TxRow[]): TxRow[] {
  const seq = (t: TxRow) => (t.microblock_hash ? t.microblock_sequence : 2147483647);
  const seen = new Set<string>();
  const own: TxRow[] = [];
  const boot: TxRow[] = [];
  for (const t of txs) {
    const k = `${seq(t)}:${t.tx_index}`;
    if (!seen.has(k) && (t.microblock_hash || t.tx_index < block.tx_count)) own.push(t);
    else boot.push(t);
    seen.add(k);
  }
  const desc = (a: TxRow, b: TxRow) => seq(b) - seq(a) || b.tx_index - a.tx_index;
  return postgresSort([...boot.sort(desc), ...own.sort(desc)], (a, b) => seq(a) - seq(b) || a.tx_index - b.tx_index);
}

/** What the block adds to its coinbase: matured rewards and ended locks (the latter naming the coinbase). */
async function coinbaseExtras(ctx: Pick<ApiContext, 'store' | 'ingest'>, block: BlockRow, coinbaseTxId: string | undefined): Promise<{ minerRewards: MinerReward[]; unlocks: Unlock[] }> {
  const { store } = ctx;
  const [minerRewards, tip, previous] = await Promise.all([minerRewardsAt(store, block.block_height), chainTip(ctx), block.block_height > 1 ? canonicalBlockAt(store, block.block_height - 1) : undefined]);
  const previousBurn = previous?.burn_block_height ?? block.burn_block_height;
  const ended = coinbaseTxId ? await unlocksAt(store, block.block_height, block.burn_block_height, previousBurn, tip) : [];
  return { minerRewards, unlocks: ended.map((u) => ({ ...u, tx_id: coinbaseTxId! })) };
}

/** ABIs of the contracts the txs call (contract_id -> JSON). */
export const callAbis = (store: Store, txs: ReadonlyArray<Pick<TxRow, 'type_id' | 'contract_id'>>) =>
  contractAbis(store, txs.filter((t) => t.type_id === 'contract_call' && t.contract_id).map((t) => t.contract_id));

/** The reference shows no events for block 1 (its boot receipts' genesis allocations included). */
const eventsShown = (block: Pick<BlockRow, 'block_height'>) => block.block_height > 1;

/** Lock events of the block's txs that lock STX already locked (see relock.ts). */
async function blockRelocks(store: Store, block: BlockRow, txs: readonly TxRow[], events: ReadonlyMap<string, StxEvent[]>): Promise<Relock[]> {
  const locks: LockEvent[] = [];
  for (const t of txs) {
    for (const e of events.get(keyOf(t)) ?? []) {
      if (e.kind === 'lock') locks.push({ tx_id: t.tx_id, tx_index: t.tx_index, event_index: e.event_index, stacker: e.locked_address, amount: e.locked_amount });
    }
  }
  return relocksIn(store, block.block_height, block.burn_block_height, locks);
}

/** A block's transactions as operations are built from them, with what its correcting transaction needs. */
async function blockContent(ctx: Pick<ApiContext, 'store' | 'ingest' | 'config'>, block: BlockRow) {
  const { store } = ctx;
  const ordered = referenceTxOrder(block, await blockTxRows(store, block));
  const coinbase = ordered.find((t) => t.type_id === 'coinbase');
  const [events, extras, abis] = await Promise.all([
    eventsShown(block) ? stxEvents(store, ordered) : new Map<string, StxEvent[]>(),
    coinbase ? coinbaseExtras(ctx, block, coinbase.tx_id) : { minerRewards: [], unlocks: [] },
    callAbis(store, ordered),
  ]);
  const mainnet = ctx.config.isMainnet;
  const txs = ordered.flatMap((row) => {
    const evs = events.get(keyOf(row)) ?? [];
    const tx = minedOpTx(row, evs, abis);
    return tx ? [{ tx, ops: txOperations(tx, { ...extras, events: evs, mainnet }) }] : [];
  });
  const corrections: Corrections = {
    relocks: await blockRelocks(store, block, ordered, events),
    // Each coinbase lists the block's unlocks (the reference hands them to every tx).
    superseded: txs.filter((t) => t.tx.type === 'coinbase').flatMap(() => extras.unlocks.filter((u) => u.superseded)),
    sponsored: txs.filter((t) => t.tx.feePayer !== t.tx.sender && t.tx.fee > 0n).map(({ tx }) => ({ tx_id: tx.tx_id, origin: tx.sender, sponsor: tx.feePayer, fee: tx.fee })),
  };
  return { txs, corrections };
}

/** The block's correcting transaction (corrections.ts), when it has one, by its id. */
export async function correctionTransactionOf(ctx: Pick<ApiContext, 'store' | 'ingest' | 'config'>, block: BlockRow, txId: string): Promise<RosettaTransaction | undefined> {
  if (correctionTxId(block.index_block_hash) !== txId) return undefined;
  const { corrections } = await blockContent(ctx, block);
  return noCorrections(corrections) ? undefined : correctionTransaction(block.index_block_hash, corrections);
}

export interface RosettaBlockAnswer {
  block: RosettaBlock;
  /** Transactions to fetch apart with /block/transaction (the block's correcting transaction). */
  other_transactions?: Array<{ hash: string }>;
}

/** The Rosetta block; undefined when its parent is not stored. */
export async function rosettaBlock(ctx: Pick<ApiContext, 'store' | 'ingest' | 'config'>, block: BlockRow): Promise<RosettaBlockAnswer | undefined> {
  const [parent, { txs, corrections }] = await Promise.all([parentOf(ctx.store, block), blockContent(ctx, block)]);
  if (!parent) return undefined;
  const out: RosettaBlockAnswer = {
    block: {
      block_identifier: identifierOf(block),
      parent_block_identifier: parent,
      timestamp: blockTimestamp(block),
      transactions: txs.map(({ tx, ops }) => rosettaTransaction(tx, ops)),
      metadata: { burn_block_height: block.burn_block_height },
    },
  };
  if (!noCorrections(corrections)) out.other_transactions = [{ hash: correctionTxId(block.index_block_hash) }];
  return out;
}

/**
 * One mined tx's Rosetta object at its placement in `block`. As the reference, only an epoch 2.x
 * coinbase (not a Nakamoto one) lists the block's rewards and unlocks here.
 */
export async function rosettaBlockTransaction(ctx: Pick<ApiContext, 'store' | 'ingest' | 'config'>, block: BlockRow, row: TxRow): Promise<RosettaTransaction | undefined> {
  const [events, abis] = await Promise.all([eventsShown(block) ? stxEvents(ctx.store, [row]) : undefined, callAbis(ctx.store, [row])]);
  const evs = events?.get(keyOf(row)) ?? [];
  const tx = minedOpTx(row, evs, abis);
  if (!tx) return undefined;
  let extras: { minerRewards: MinerReward[]; unlocks: Unlock[] } = { minerRewards: [], unlocks: [] };
  if (tx.type === 'coinbase' && row.raw_tx !== '0x00') {
    const kind = decodeTransaction(row.raw_tx, { txId: row.tx_id }).payload.type;
    if (kind === 'coinbase' || kind === 'coinbase_to_alt_recipient') extras = await coinbaseExtras(ctx, block, await firstCoinbaseOf(ctx, block, row.tx_id));
  }
  return rosettaTransaction(tx, txOperations(tx, { ...extras, events: evs, mainnet: ctx.config.isMainnet }));
}

/** The block's first coinbase tx (the one the reference names in unlock operations). */
async function firstCoinbaseOf(ctx: Pick<ApiContext, 'store'>, block: BlockRow, fallback: string): Promise<string> {
  const list = referenceTxOrder(block, await blockTxRows(ctx.store, block));
  return list.find((t) => t.type_id === 'coinbase')?.tx_id ?? fallback;
}
