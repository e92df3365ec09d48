// Node payloads for Stacks blocks and microblocks (EVENT-OBSERVER.md §5, §7): the /new_block body
// of an epoch-2 or Nakamoto block, and /new_microblocks. Keys in Hiro-export (jsonb) order.
import { eventJson, type Cost, type GenTx } from './events.ts';
import { sha512_256, type Rng } from './rng.ts';

export const ZERO_HASH = '0x' + '00'.repeat(32);

/** index_block_hash = SHA-512/256(block_hash ‖ consensus_hash), as the node computes StacksBlockId. */
export function indexBlockHash(blockHash: Buffer, consensusHash: Buffer): Buffer {
  return sha512_256(blockHash, consensusHash);
}

export interface MicroblockRef {
  hash: string;
  sequence: number;
  parentHash: string;
}

/** A tx as placed in a block: its own, or from the confirmed parent microblock stream. */
export interface Placed {
  tx: GenTx;
  mb?: MicroblockRef;
}

export interface NakamotoFields {
  signer_bitvec: string;
  miner_signature: string;
  signer_signature: string[];
}

export interface BlockHeader {
  block_hash: string;
  block_height: number;
  block_time: number | null;
  burn_block_hash: string;
  burn_block_height: number;
  burn_block_time: number;
  miner_txid: string;
  index_block_hash: string;
  parent_block_hash: string;
  parent_index_block_hash: string;
  parent_microblock: string;
  parent_microblock_sequence: number;
  parent_burn_block_hash: string;
  parent_burn_block_height: number;
  parent_burn_block_timestamp: number;
  matured_miner_rewards: Record<string, string>[];
  tenure_height: number;
  consensus_hash: string;
  reward_set: Record<string, unknown> | null;
  cycle_number: number | null;
  pox_unlock: [number, number, number];
  /** Null for epoch-2 blocks. */
  nakamoto: NakamotoFields | null;
}

const sumCosts = (txs: Placed[]): Cost => {
  const c = { runtime: 0, read_count: 0, read_length: 0, write_count: 0, write_length: 0 };
  for (const { tx } of txs) {
    c.runtime += tx.cost.runtime;
    c.read_count += tx.cost.read_count;
    c.read_length += tx.cost.read_length;
    c.write_count += tx.cost.write_count;
    c.write_length += tx.cost.write_length;
  }
  return c;
};

export function txJson(tx: GenTx, txIndex: number, mb?: MicroblockRef): Record<string, unknown> {
  return {
    txid: tx.txid,
    raw_tx: tx.raw,
    status: tx.status,
    tx_index: txIndex,
    vm_error: tx.vmError,
    raw_result: tx.rawResult,
    burnchain_op: null,
    execution_cost: tx.cost,
    microblock_hash: mb ? mb.hash : null,
    contract_interface: tx.contractInterface,
    microblock_sequence: mb ? mb.sequence : null,
    microblock_parent_hash: mb ? mb.parentHash : null,
  };
}

/** events[] of txs in order: event_index counts over all of them; the list itself is shuffled as the node's is. */
export function eventsJson(txs: Placed[], rng: Rng, shuffle: boolean): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const { tx } of txs) for (const ev of tx.events) out.push(eventJson(tx.txid, ev, out.length));
  return shuffle ? rng.shuffle(out) : out;
}

/**
 * The /new_block body. `txs` lists the block's own txs first, then the confirmed microblock txs in
 * stream order (the node's tx_index order); execution order is the stream first.
 */
export function blockPayload(h: BlockHeader, txs: Placed[], rng: Rng, shuffleEvents: boolean): Record<string, unknown> {
  const own = txs.filter((p) => !p.mb);
  const streamed = txs.filter((p) => p.mb);
  const body: Record<string, unknown> = {
    events: eventsJson(txs, rng, shuffleEvents),
    block_hash: h.block_hash,
    block_time: h.block_time,
    miner_txid: h.miner_txid,
    reward_set: h.reward_set,
    block_height: h.block_height,
    cycle_number: h.cycle_number,
    transactions: txs.map((p, i) => txJson(p.tx, i, p.mb)),
    anchored_cost: sumCosts(own),
    signer_bitvec: h.nakamoto ? h.nakamoto.signer_bitvec : null,
    tenure_height: h.tenure_height,
    consensus_hash: h.consensus_hash,
    burn_block_hash: h.burn_block_hash,
    burn_block_time: h.burn_block_time,
  };
  if (h.nakamoto) body.miner_signature = h.nakamoto.miner_signature;
  body.index_block_hash = h.index_block_hash;
  if (h.nakamoto) body.signer_signature = h.nakamoto.signer_signature;
  Object.assign(body, {
    burn_block_height: h.burn_block_height,
    parent_block_hash: h.parent_block_hash,
    parent_microblock: h.parent_microblock,
    pox_v1_unlock_height: h.pox_unlock[0],
    pox_v2_unlock_height: h.pox_unlock[1],
    pox_v3_unlock_height: h.pox_unlock[2],
    matured_miner_rewards: h.matured_miner_rewards,
  });
  if (h.nakamoto) body.signer_signature_hash = h.block_hash;
  Object.assign(body, {
    parent_burn_block_hash: h.parent_burn_block_hash,
    parent_index_block_hash: h.parent_index_block_hash,
    parent_burn_block_height: h.parent_burn_block_height,
    confirmed_microblocks_cost: sumCosts(streamed),
    parent_microblock_sequence: h.parent_microblock_sequence,
    parent_burn_block_timestamp: h.parent_burn_block_timestamp,
  });
  return body;
}

export interface MicroblockBatch {
  ref: MicroblockRef;
  txs: GenTx[];
}

/** The /new_microblocks body: tx_index restarts per microblock, event_index counts over the payload. */
export function microblocksPayload(
  parentIndexBlockHash: string,
  burn: { hash: string; height: number; time: number },
  mbs: MicroblockBatch[],
  rng: Rng,
  shuffleEvents: boolean,
): Record<string, unknown> {
  const placed: Placed[] = [];
  const transactions: Record<string, unknown>[] = [];
  for (const mb of mbs) {
    mb.txs.forEach((tx, i) => {
      placed.push({ tx, mb: mb.ref });
      transactions.push(txJson(tx, i, mb.ref));
    });
  }
  return {
    events: eventsJson(placed, rng, shuffleEvents),
    transactions,
    burn_block_hash: burn.hash,
    burn_block_height: burn.height,
    burn_block_timestamp: burn.time,
    parent_index_block_hash: parentIndexBlockHash,
  };
}

/** A microblock's hash: SHA-512/256 of a header (version, sequence, parent, tx merkle root, signature). */
export function microblockHash(sequence: number, parentHash: string, txids: string[], signature: Buffer): string {
  const root = sha512_256(...txids.map((t) => Buffer.from(t.slice(2), 'hex')));
  const head = Buffer.alloc(1 + 2 + 32 + 32);
  head.writeUInt16BE(sequence, 1);
  Buffer.from(parentHash.slice(2), 'hex').copy(head, 3);
  root.copy(head, 35);
  return '0x' + sha512_256(head, signature).toString('hex');
}
