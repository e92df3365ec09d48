// Decoding of the observer paths other than /new_block.
import { RowSet } from './rows.ts';
import type { DecodedText, MicroblockMeta, ServeLater, TxRef } from './decoded.ts';
import { checkedMicroblocks, summarizeNodeTxs, txRefOf, writeTxs, type NodeBlock } from './decode-block.ts';
import { BalanceSheet, type NodeEvent } from './decode-tx-events.ts';
import { summarizeDecoded } from '../stacks/tx-summary.ts';
import { decodeTransaction } from '../stacks/codec/transaction.ts';
import { SERVED_TABLES, mempoolDoc, servedRows } from './serving/served-rows.ts';
import { pendingEntryOf } from '../serving/pending-entry.ts';
import { NOTHING_SERVED } from '../serving/input.ts';

interface NodeBurnBlock {
  burn_block_hash: string;
  burn_block_height: number;
  burn_amount: number;
  consensus_hash?: string;
  parent_burn_block_hash?: string;
  reward_recipients: Array<{ recipient: string; amt: number }>;
  reward_slot_holders?: string[];
}

export function decodeBurnBlock(b: NodeBurnBlock): DecodedText {
  const rows = new RowSet();
  b.reward_recipients.forEach((r, reward_index) =>
    rows.add('burn_rewards', { burn_block_height: b.burn_block_height, burn_block_hash: b.burn_block_hash, reward_index, reward_recipient: r.recipient, reward_amount: r.amt, burn_amount: b.burn_amount }),
  );
  (b.reward_slot_holders ?? []).forEach((address, slot_index) =>
    rows.add('reward_slot_holders', { burn_block_height: b.burn_block_height, burn_block_hash: b.burn_block_hash, slot_index, address }),
  );
  return { kind: 'burn_block', burnBlock: burnBlockRow(b), facts: rows.serialize() };
}

/** burn_blocks rows get the log id from the processor (the newest delivery at a height wins). */
function burnBlockRow(b: NodeBurnBlock) {
  return {
    burn_block_height: b.burn_block_height,
    burn_block_hash: b.burn_block_hash,
    burn_block_time: 0,
    burn_amount: b.burn_amount,
    consensus_hash: b.consensus_hash ?? '',
    parent_burn_block_hash: b.parent_burn_block_hash ?? '',
  };
}

interface NodeMicroblocks {
  parent_index_block_hash: string;
  burn_block_hash?: string;
  burn_block_height?: number;
  burn_block_timestamp?: number;
  transactions: NodeBlock['transactions'];
  events: NodeEvent[];
}

export function decodeMicroblocks(m: NodeMicroblocks, serve: boolean | ServeLater = true): DecodedText {
  const rows = new RowSet(SERVED_TABLES);
  if (typeof serve === 'object') serve.render = () => servedRows(rows);
  const items = summarizeNodeTxs(m.transactions);
  writeTxs(items, m.events, {
    index_block_hash: '',
    block_hash: '',
    block_height: 0,
    burn_block_time: m.burn_block_timestamp ?? 0,
    burn_block_height: m.burn_block_height ?? 0,
    parent_burn_block_time: m.burn_block_timestamp ?? 0,
    block_time: 0,
    parent_block_hash: '',
    parent_index_block_hash: m.parent_index_block_hash,
  }, rows, new BalanceSheet());
  const byHash = new Map<string, MicroblockMeta>();
  for (const tx of m.transactions) {
    const h = tx.microblock_hash ?? '';
    let mb = byHash.get(h);
    if (!mb) byHash.set(h, (mb = { microblock_hash: h, microblock_sequence: tx.microblock_sequence ?? 0, microblock_parent_hash: tx.microblock_parent_hash ?? '', parent_index_block_hash: m.parent_index_block_hash, tx_ids: [] }));
    mb.tx_ids.push(tx.txid);
  }
  return {
    kind: 'microblocks',
    parent_index_block_hash: m.parent_index_block_hash,
    burn_block_time: m.burn_block_timestamp ?? 0,
    burn_block_height: m.burn_block_height ?? 0,
    burn_block_hash: m.burn_block_hash ?? '',
    microblocks: checkedMicroblocks([...byHash.values()]),
    txs: items.map(({ tx, summary }) => txRefOf(tx, summary)),
    facts: rows.serialize(),
    served: serve === true ? servedRows(rows) : NOTHING_SERVED,
  };
}

/** `docs` false: the caller renders the documents (decodeEntriesMovable). */
export function decodeMempool(rawTxs: string[], serve = true, docs = serve): DecodedText {
  const decoded = rawTxs.map((raw) => ({ raw, d: decodeTransaction(raw) }));
  const txs: TxRef[] = decoded.map(({ raw, d }) => txRefOf({ txid: d.txId, tx_index: 0, status: 'pending', raw_tx: raw, raw_result: '' }, summarizeDecoded(d)));
  return {
    kind: 'mempool',
    txs,
    facts: {},
    docs: serve && docs ? decoded.map(({ raw, d }) => mempoolDoc(d.txId, raw)) : [],
    entries: decoded.map(({ raw, d }, i) => pendingEntryOf(d, raw, txs[i].principals ?? [])),
  };
}

export function decodeDrop(d: { dropped_txids: string[]; reason: string; new_txid?: string | null }): DecodedText {
  return { kind: 'drop_mempool', tx_ids: d.dropped_txids, reason: d.reason, new_tx_id: d.new_txid ?? '' };
}

export function decodeAttachments(list: Array<Record<string, string | number>>): DecodedText {
  const rows = new RowSet();
  for (const a of list) {
    rows.add('attachments', {
      tx_id: a.tx_id,
      index_block_hash: a.index_block_hash,
      attachment_index: a.attachment_index,
      block_height: a.block_height,
      content_hash: a.content_hash,
      contract_id: a.contract_id,
      metadata: a.metadata,
      content: a.content,
    });
  }
  return { kind: 'facts', facts: rows.serialize() };
}
