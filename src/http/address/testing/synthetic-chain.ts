// Test helper: a chain of /new_block payloads in which one sender makes many signed STX transfers
// (real transactions, so the service decodes them like a node's), with the expected answers.
import { createHash } from 'node:crypto';
import { makeSTXTokenTransfer, privateKeyToAddress } from '@stacks/transactions';

// Fixed keys (testnet), so runs are reproducible.
const SENDER_KEY = '7287ba251d44a4d3fd9276c88ce34c5c52a038955511cccaf77e61068649c17801';
const RECIPIENT_KEYS = ['753b7cc01a1a2e86221266a154af739463fce51219d97e4f856cd7200c3bd2a601', 'f9d7206a47f14d2870c163ebab4bf3e70d18f5d14ce1031f3902fbbc894fe4c701'];

export interface SyntheticTx {
  tx_id: string;
  block_height: number;
  tx_index: number;
  nonce: number;
  recipient: string;
  amount: bigint;
  fee: bigint;
}

export interface SyntheticChain {
  sender: string;
  recipients: string[];
  /** Minted to the sender in block 1. */
  minted: bigint;
  /** /new_block bodies, in height order. */
  blocks: Array<Record<string, unknown>>;
  /** Every transfer, oldest first. */
  txs: SyntheticTx[];
}

const hash = (s: string): string => `0x${createHash('sha256').update(s).digest('hex')}`;
const ZERO = `0x${'0'.repeat(64)}`;
const COST = { read_count: 0, read_length: 0, runtime: 0, write_count: 0, write_length: 0 };

export async function buildSyntheticChain(opts: { blocks: number; txsPerBlock: number }): Promise<SyntheticChain> {
  const sender = privateKeyToAddress(SENDER_KEY, 'testnet');
  const recipients = RECIPIENT_KEYS.map((k) => privateKeyToAddress(k, 'testnet'));
  const minted = 10_000_000_000_000n;
  const blocks: Array<Record<string, unknown>> = [];
  const txs: SyntheticTx[] = [];
  let nonce = 0;
  for (let h = 1; h <= opts.blocks; h++) {
    const transactions: Array<Record<string, unknown>> = [];
    const events: Array<Record<string, unknown>> = [];
    for (let i = 0; i < opts.txsPerBlock; i++) {
      const recipient = recipients[(h + i) % recipients.length];
      const amount = BigInt(1000 + h * 10 + i);
      const fee = BigInt(180 + (i % 7));
      const tx = await makeSTXTokenTransfer({ recipient, amount, senderKey: SENDER_KEY, network: 'testnet', nonce, fee, memo: i % 3 === 0 ? `m${h}-${i}` : '' });
      const tx_id = `0x${tx.txid()}`;
      transactions.push({ txid: tx_id, tx_index: i, status: 'success', raw_tx: `0x${tx.serialize()}`, raw_result: '0x0703', execution_cost: COST, microblock_hash: null, microblock_sequence: null, microblock_parent_hash: null });
      if (h === 1 && i === 0) events.push({ txid: tx_id, event_index: events.length, committed: true, type: 'stx_mint_event', stx_mint_event: { recipient: sender, amount: minted.toString() } });
      events.push({ txid: tx_id, event_index: events.length, committed: true, type: 'stx_transfer_event', stx_transfer_event: { sender, recipient, amount: amount.toString(), memo: '' } });
      txs.push({ tx_id, block_height: h, tx_index: i, nonce, recipient, amount, fee });
      nonce++;
    }
    blocks.push({
      block_hash: hash(`block ${h}`),
      block_height: h,
      index_block_hash: hash(`index ${h}`),
      parent_block_hash: h === 1 ? ZERO : hash(`block ${h - 1}`),
      parent_index_block_hash: hash(`index ${h - 1}`),
      parent_microblock: ZERO,
      parent_microblock_sequence: 0,
      burn_block_hash: hash(`burn ${h}`),
      burn_block_height: 100 + h,
      burn_block_time: 1_700_000_000 + h * 600,
      parent_burn_block_hash: hash(`burn ${h - 1}`),
      parent_burn_block_height: 99 + h,
      parent_burn_block_timestamp: 1_700_000_000 + (h - 1) * 600,
      miner_txid: ZERO,
      matured_miner_rewards: [],
      anchored_cost: COST,
      confirmed_microblocks_cost: COST,
      events,
      transactions,
    });
  }
  return { sender, recipients, minted, blocks, txs };
}

/** A signed transfer from the chain's sender that no block holds (a mempool tx): its id and bytes. */
export async function pendingTransfer(nonce: number, recipient: string, amount: bigint): Promise<{ tx_id: string; raw_tx: string }> {
  const tx = await makeSTXTokenTransfer({ recipient, amount, senderKey: SENDER_KEY, network: 'testnet', nonce, fee: 300n, memo: 'pending' });
  return { tx_id: `0x${tx.txid()}`, raw_tx: `0x${tx.serialize()}` };
}

/** POSTs the blocks to a running observer, in order. */
export async function postBlocks(eventUrl: string, blocks: Array<Record<string, unknown>>): Promise<void> {
  for (const b of blocks) {
    const res = await fetch(`${eventUrl}/new_block`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
    if (res.status !== 200) throw new Error(`POST /new_block ${String(b.block_height)}: ${res.status} ${await res.text()}`);
  }
}

/** The sender's txs as the address lists order them: newest first. */
export const newestFirst = (txs: SyntheticTx[]): SyntheticTx[] => [...txs].sort((a, b) => b.block_height - a.block_height || b.tx_index - a.tx_index);
