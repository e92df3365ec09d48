// /new_block → block, transaction, event, contract, reward and address-index fact rows, plus the
// block's balance changes and the metadata the processor's chain state needs.
import { RowSet, checkedRow } from './rows.ts';
import type { BlockMeta, DecodedText, MicroblockMeta, ServeLater, TxRef } from './decoded.ts';
import { BalanceSheet, touch, u128Amount, writeTxEvents, type NodeEvent, type TouchMap } from './decode-tx-events.ts';
import { summarizeDecoded, burnchainOpSummary, principalsOf, type TxSummary } from '../stacks/tx-summary.ts';
import { decodeTransaction, type DecodedTransaction } from '../stacks/codec/transaction.ts';
import { decodedTxOf } from './serving/decoded-txs.ts';
import { writePoxEvents } from './decode-pox.ts';
import { ROLE } from '../stacks/roles.ts';
import { addPrincipalEvent } from './address-index.ts';
import { analyticsChanges } from './analytics-changes.ts';
import { SERVED_TABLES, servedRows } from './serving/served-rows.ts';
import { NOTHING_SERVED, amountOf } from '../serving/input.ts';

interface Cost {
  read_count?: number;
  read_length?: number;
  runtime?: number;
  write_count?: number;
  write_length?: number;
}

interface NodeTx {
  txid: string;
  tx_index: number;
  status: string;
  raw_tx: string;
  raw_result: string;
  contract_abi?: unknown;
  contract_interface?: unknown;
  execution_cost?: Cost;
  microblock_sequence?: number | null;
  microblock_hash?: string | null;
  microblock_parent_hash?: string | null;
  burnchain_op?: Record<string, unknown> | null;
  vm_error?: string | null;
}

export interface NodeBlock {
  block_hash: string;
  block_height: number;
  block_time?: number | null;
  burn_block_hash: string;
  burn_block_height: number;
  burn_block_time: number;
  miner_txid: string;
  index_block_hash: string;
  parent_block_hash: string;
  parent_index_block_hash: string;
  parent_microblock: string;
  parent_microblock_sequence: number;
  parent_burn_block_hash?: string;
  parent_burn_block_height?: number;
  parent_burn_block_timestamp?: number;
  matured_miner_rewards?: Array<Record<string, string | undefined>>;
  events: NodeEvent[];
  transactions: NodeTx[];
  anchored_cost?: Cost;
  pox_v1_unlock_height?: number;
  pox_v2_unlock_height?: number;
  pox_v3_unlock_height?: number;
  pox_v4_unlock_height?: number;
  signer_bitvec?: string | null;
  reward_set?: unknown;
  cycle_number?: number | null;
  tenure_height?: number | null;
  consensus_hash?: string;
  signer_signature_hash?: string | null;
  miner_signature?: string | null;
  signer_signature?: string[] | null;
}

const ZERO_HASH = `0x${'0'.repeat(64)}`;

const costColumns = (c: Cost | undefined) => ({
  execution_cost_read_count: c?.read_count ?? 0,
  execution_cost_read_length: c?.read_length ?? 0,
  execution_cost_runtime: c?.runtime ?? 0,
  execution_cost_write_count: c?.write_count ?? 0,
  execution_cost_write_length: c?.write_length ?? 0,
});

function sumCosts(costs: Array<Cost | undefined>): Cost {
  const total = { read_count: 0, read_length: 0, runtime: 0, write_count: 0, write_length: 0 };
  for (const c of costs) for (const k of Object.keys(total) as Array<keyof typeof total>) total[k] += c?.[k] ?? 0;
  // Each cost is at most 2^53-1 (the schema): a sum past that would serialize as 1e+21 one day.
  for (const k of Object.keys(total) as Array<keyof typeof total>) total[k] = Math.min(total[k], Number.MAX_SAFE_INTEGER);
  return total;
}

export function blockMetaOf(b: NodeBlock): BlockMeta {
  return {
    index_block_hash: b.index_block_hash,
    block_hash: b.block_hash,
    block_height: b.block_height,
    parent_index_block_hash: b.parent_index_block_hash,
    parent_block_hash: b.parent_block_hash,
    parent_microblock_hash: b.parent_microblock === ZERO_HASH ? '' : b.parent_microblock,
    parent_microblock_sequence: b.parent_microblock === ZERO_HASH ? -1 : b.parent_microblock_sequence,
    burn_block_hash: b.burn_block_hash,
    burn_block_height: b.burn_block_height,
    burn_block_time: b.burn_block_time,
    block_time: b.block_time ?? b.burn_block_time,
    parent_burn_block_hash: b.parent_burn_block_hash ?? '',
    parent_burn_block_height: b.parent_burn_block_height ?? 0,
    parent_burn_block_time: b.parent_burn_block_timestamp ?? 0,
  };
}

/** Txs of one payload, decoded and summarized; shared with /new_microblocks. */
export function summarizeNodeTxs(txs: NodeTx[]): Array<{ tx: NodeTx; summary: TxSummary; decoded?: DecodedTransaction }> {
  return txs.map((tx) => {
    if (tx.raw_tx === '0x00') return { tx, summary: burnchainOpSummary(tx.burnchain_op ?? null) };
    const decoded = decodeTransaction(tx.raw_tx, { txId: tx.txid });
    return { tx, summary: summarizeDecoded(decoded), decoded };
  });
}

export function txRefOf(tx: NodeTx, s: TxSummary, withPrincipals = true): TxRef {
  return {
    tx_id: tx.txid,
    microblock_hash: tx.microblock_hash ?? '',
    microblock_sequence: tx.microblock_sequence ?? 2147483647,
    microblock_parent_hash: tx.microblock_parent_hash ?? '',
    tx_index: tx.tx_index,
    raw_tx: tx.raw_tx,
    sender_address: s.sender_address,
    sponsor_address: s.sponsor_address,
    nonce: s.nonce,
    fee_rate: s.fee_rate,
    type_id: s.type_id,
    contract_id: s.contract_id,
    function_name: s.function_name,
    principals: withPrincipals ? principalsOf(s) : undefined,
  };
}

export interface TxContext {
  index_block_hash: string;
  block_hash: string;
  block_height: number;
  burn_block_time: number;
  burn_block_height: number;
  parent_burn_block_time: number;
  block_time: number;
  parent_block_hash: string;
  parent_index_block_hash: string;
}

/** Writes tx, event, contract and address-index rows for txs of one block or microblock payload
 *  (`extraRoles`: ROLE bits added to every principal_txs row, ROLE.BOOT for boot receipts). */
export function writeTxs(items: Array<{ tx: NodeTx; summary: TxSummary; decoded?: DecodedTransaction }>, events: NodeEvent[], ctx: TxContext, rows: RowSet, sheet: BalanceSheet, extraRoles = 0): void {
  const byTx = new Map<string, NodeEvent[]>();
  for (const ev of events) {
    if (ev.committed === false) continue;
    let list = byTx.get(ev.txid);
    if (!list) byTx.set(ev.txid, (list = []));
    list.push(ev);
  }
  for (const { tx, summary: s, decoded } of items) {
    const microblock_hash = tx.microblock_hash ?? '';
    const placement = { tx_id: tx.txid, index_block_hash: ctx.index_block_hash, microblock_hash, block_height: ctx.block_height, tx_index: tx.tx_index, microblock_sequence: tx.microblock_sequence ?? 2147483647 };
    const touched: TouchMap = new Map();
    const success = tx.status === 'success';
    const txEvents = success ? (byTx.get(tx.txid) ?? []) : [];
    const eventsWritten = writeTxEvents(txEvents, placement, rows, sheet, touched);
    writePoxEvents(txEvents, placement, rows);
    const fee = BigInt(s.fee_rate);
    const payer = s.sponsor_address || s.sender_address;
    if (fee > 0n && payer) sheet.fee(payer, fee);
    touch(touched, s.sender_address, payer === s.sender_address ? fee : 0n, 0n, ROLE.SENDER);
    touch(touched, s.sponsor_address || undefined, payer === s.sponsor_address ? fee : 0n, 0n, ROLE.SPONSOR);
    // The reference's address lists count the transfer recipient and the called or deployed
    // contract, not a coinbase's alt recipient nor a burnchain delegate.
    const partyRole = s.type_id === 'coinbase' || (tx.raw_tx === '0x00' && s.function_name !== 'transfer_stx') ? ROLE.OTHER : ROLE.TX_PARTY;
    for (const p of s.principals) touch(touched, p, 0n, 0n, partyRole);
    if (s.token_transfer) {
      // The reference's stx_inbound lists token-transfer txs whatever their status.
      const t = s.token_transfer;
      addPrincipalEvent(rows, placement, 0, [t.recipient], { kind: 'inbound', asset_event_type: 'stx-transfer', sender: s.sender_address, amount: t.amount, memo: t.memo });
    }
    const txRow = {
      tx_id: tx.txid,
      index_block_hash: ctx.index_block_hash,
      microblock_hash,
      block_hash: ctx.block_hash,
      block_height: ctx.block_height,
      burn_block_time: ctx.burn_block_time,
      burn_block_height: ctx.burn_block_height,
      parent_burn_block_time: ctx.parent_burn_block_time,
      block_time: ctx.block_time,
      parent_block_hash: ctx.parent_block_hash,
      parent_index_block_hash: ctx.parent_index_block_hash,
      microblock_sequence: tx.microblock_sequence ?? 2147483647,
      microblock_parent_hash: tx.microblock_parent_hash ?? '',
      tx_index: tx.tx_index,
      status: tx.status,
      raw_tx: tx.raw_tx,
      raw_result: tx.raw_result,
      type_id: s.type_id,
      sender_address: s.sender_address,
      sponsor_address: s.sponsor_address,
      nonce: s.nonce,
      fee_rate: s.fee_rate,
      contract_id: s.contract_id,
      function_name: s.function_name,
      event_count: eventsWritten.count,
      event_tables: eventsWritten.tables,
      ...costColumns(tx.execution_cost),
      vm_error: tx.vm_error == null ? null : tx.vm_error.replace(/\u0000/g, ''),
      burnchain_op: tx.burnchain_op ? JSON.stringify(tx.burnchain_op) : null,
    };
    rows.add('txs', txRow);
    // The serving documents render from the decoded tx instead of decoding its bytes again.
    if (decoded) decodedTxOf.set(txRow, decoded);
    if (s.deploy) {
      rows.add('contracts', {
        contract_id: s.contract_id,
        tx_id: tx.txid,
        index_block_hash: ctx.index_block_hash,
        microblock_hash,
        block_height: ctx.block_height,
        clarity_version: s.deploy.clarity_version,
        source_code: s.deploy.source_code,
        abi: success && (tx.contract_interface ?? tx.contract_abi) ? JSON.stringify(tx.contract_interface ?? tx.contract_abi) : null,
      });
    }
    for (const [principal, t] of touched) {
      rows.add('principal_txs', {
        principal,
        block_height: ctx.block_height,
        microblock_sequence: tx.microblock_sequence ?? 2147483647,
        tx_index: tx.tx_index,
        tx_id: tx.txid,
        index_block_hash: ctx.index_block_hash,
        microblock_hash,
        stx_sent: t.sent,
        stx_received: t.received,
        roles: t.roles | extraRoles,
      });
    }
  }
}

/**
 * Decodes a block. `boot` is the height-0 boot block when `b` is block 1: the reference API shows
 * the boot receipts as block 1's txs (tx_index shifted by one) and hides block 0, so they are
 * decoded again here as part of block 1.
 */
export function decodeBlock(b: NodeBlock, boot?: NodeBlock, serve: boolean | ServeLater = true, withRawTxs = false): DecodedText {
  const d = decodeBlockRows(b, boot);
  if (typeof serve === 'object') serve.render = () => servedRows(d.rows, d.ownCount);
  const analytics = analyticsChanges(d.rows.captured, d.deltas);
  return {
    kind: 'block',
    block: d.meta,
    // Raw txs and their principals are left out unless asked for (a block's are copied to the
    // processor for nothing else than an orphaning, which decodes the block again:
    // context.ts blockTxsWithRaw).
    txs: d.items.map(({ tx, summary }) => txRefOf(withRawTxs || tx.raw_tx === '0x00' ? tx : { ...tx, raw_tx: '' }, summary, withRawTxs)),
    microblocks: microblocksOf(b.transactions, b.parent_index_block_hash),
    deltas: d.deltas,
    facts: d.rows.serialize(),
    served: serve === true ? servedRows(d.rows, d.ownCount) : NOTHING_SERVED,
    analytics,
  };
}

/** A block's rows (captured for the serving documents), its txs and its balance changes. */
export function decodeBlockRows(b: NodeBlock, boot?: NodeBlock) {
  const rows = new RowSet(SERVED_TABLES);
  const sheet = new BalanceSheet();
  const meta = blockMetaOf(b);
  const own = summarizeNodeTxs(b.transactions);
  const booted = boot ? summarizeNodeTxs(boot.transactions.map((t) => ({ ...t, tx_index: t.tx_index + 1 }))) : [];
  const items = [...own, ...booted];
  const ctx: TxContext = {
    index_block_hash: b.index_block_hash,
    block_hash: b.block_hash,
    block_height: b.block_height,
    burn_block_time: b.burn_block_time,
    burn_block_height: b.burn_block_height,
    parent_burn_block_time: b.parent_burn_block_timestamp ?? 0,
    block_time: b.block_time ?? 0,
    parent_block_hash: b.parent_block_hash,
    parent_index_block_hash: b.parent_index_block_hash,
  };
  writeTxs(own, b.events, ctx, rows, sheet);
  // The reference moves boot receipts to block 1 but keeps block 0's block_time and
  // parent_burn_block_time on them (its relabel updates neither).
  const bootCtx = boot ? { ...ctx, block_time: boot.block_time ?? boot.burn_block_time, parent_burn_block_time: boot.parent_burn_block_timestamp ?? 0 } : ctx;
  if (boot) writeTxs(booted, boot.events, bootCtx, rows, sheet, ROLE.BOOT);
  const ordered = apiTxOrder(items.map((i) => i.tx));
  rows.add('blocks', {
    index_block_hash: b.index_block_hash,
    block_hash: b.block_hash,
    block_height: b.block_height,
    parent_index_block_hash: b.parent_index_block_hash,
    parent_block_hash: b.parent_block_hash,
    parent_microblock_hash: meta.parent_microblock_hash,
    parent_microblock_sequence: meta.parent_microblock_sequence,
    burn_block_hash: b.burn_block_hash,
    burn_block_height: b.burn_block_height,
    burn_block_time: b.burn_block_time,
    parent_burn_block_hash: b.parent_burn_block_hash ?? '',
    parent_burn_block_height: b.parent_burn_block_height ?? 0,
    parent_burn_block_time: b.parent_burn_block_timestamp ?? 0,
    miner_txid: b.miner_txid,
    // Epoch 2.x blocks have no header time: the burn block's stands in (as in the reference).
    block_time: b.block_time ?? b.burn_block_time,
    // Missing on old payloads: epoch 2.x rules (= height), or unknown (-1) for a Nakamoto block.
    tenure_height: b.tenure_height ?? (b.signer_bitvec ? -1 : b.block_height),
    consensus_hash: b.consensus_hash ?? '',
    // Old nodes send no anchored_cost: the sum of the txs' costs stands in.
    ...costColumns(b.anchored_cost ?? sumCosts(b.transactions.map((t) => t.execution_cost))),
    tx_ids: ordered.map((t) => t.txid),
    tx_microblock_hashes: ordered.map((t) => t.microblock_hash ?? ''),
    tx_count: b.transactions.length,
    signer_bitvec: b.signer_bitvec ?? null,
    signer_signatures: (b.signer_signature ?? []).map((s) => (s.startsWith('0x') ? s : `0x${s}`)),
    signer_signature_hash: b.signer_signature_hash ?? '',
    miner_signature: b.miner_signature ?? '',
    cycle_number: b.cycle_number ?? null,
    reward_set: b.reward_set ? JSON.stringify(b.reward_set) : null,
    pox_v1_unlock_height: b.pox_v1_unlock_height ?? 0,
    pox_v2_unlock_height: b.pox_v2_unlock_height ?? 0,
    pox_v3_unlock_height: b.pox_v3_unlock_height ?? 0,
    pox_v4_unlock_height: b.pox_v4_unlock_height ?? 0,
  });
  for (const [reward_index, r] of (b.matured_miner_rewards ?? []).entries()) {
    const coinbase = u128Amount(r.coinbase_amount ?? '0');
    const anchored = u128Amount(r.tx_fees_anchored ?? '0');
    const confirmed = u128Amount(r.tx_fees_streamed_confirmed ?? '0');
    const produced = u128Amount(r.tx_fees_streamed_produced ?? '0');
    rows.add('miner_rewards', {
      index_block_hash: b.index_block_hash,
      block_height: b.block_height,
      from_index_block_hash: r.from_index_consensus_hash ?? '',
      from_stacks_block_hash: r.from_stacks_block_hash ?? '',
      recipient: r.recipient ?? '',
      miner_address: r.miner_address ?? r.recipient ?? '',
      coinbase_amount: coinbase,
      tx_fees_anchored: anchored,
      tx_fees_streamed_confirmed: confirmed,
      tx_fees_streamed_produced: produced,
      reward_index,
    });
    if (r.recipient) sheet.reward(r.recipient, coinbase + anchored + confirmed + produced);
  }
  const deltas = [...sheet.rows.values()].map((d) => ({
    principal: d.principal,
    asset: d.asset,
    balance: amountOf(d.balance),
    total_sent: amountOf(d.sent),
    total_received: amountOf(d.received),
    total_fees_sent: amountOf(d.fees),
    total_miner_rewards: amountOf(d.rewards),
  }));
  // By principal, for balances as of a height (address reads). A reorg's undo takes them from the
  // block decoded again (processor/context.ts), not from the store.
  for (const d of deltas) rows.add('principal_balance_changes', { ...d, block_height: b.block_height, index_block_hash: b.index_block_hash });
  return { rows, meta, items, ownCount: own.length, deltas };
}

/** The reference's order of a block's txs: anchored ones first, each group by tx_index descending
 *  (stable, so on a tie block 1's own tx precedes a relabelled boot tx). */
export function apiTxOrder<T extends { tx_index: number; microblock_hash?: string | null }>(txs: T[]): T[] {
  return [...txs].sort((a, b) => Number(!!a.microblock_hash) - Number(!!b.microblock_hash) || b.tx_index - a.tx_index);
}

/** Microblocks a block confirms, reconstructed from its txs' microblock fields. */
export function microblocksOf(txs: NodeTx[], parentIndexBlockHash: string): MicroblockMeta[] {
  const byHash = new Map<string, MicroblockMeta>();
  for (const tx of txs) {
    if (!tx.microblock_hash) continue;
    let mb = byHash.get(tx.microblock_hash);
    if (!mb) {
      mb = { microblock_hash: tx.microblock_hash, microblock_sequence: tx.microblock_sequence ?? 0, microblock_parent_hash: tx.microblock_parent_hash ?? '', parent_index_block_hash: parentIndexBlockHash, tx_ids: [] };
      byHash.set(tx.microblock_hash, mb);
    }
    mb.tx_ids.push(tx.txid);
  }
  return checkedMicroblocks([...byHash.values()].sort((a, b) => a.microblock_sequence - b.microblock_sequence));
}

/** Microblock rows are written when the processor places them; whether the store takes their tx
 *  lists is checked now, while the body can still be refused. */
export function checkedMicroblocks(metas: MicroblockMeta[]): MicroblockMeta[] {
  for (const m of metas) checkedRow('microblocks', JSON.stringify(m.tx_ids));
  return metas;
}
