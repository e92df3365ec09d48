// Abandoned forks: competing blocks at heights the main chain already has, built on a recent main
// block and copying the main blocks' txs (the same mempool txs a competing miner would pick, so
// nonces stay consistent on the fork too); the main chain then continues past them. Also the
// Nakamoto signer fields every Nakamoto block carries.
import { signature } from './accounts.ts';
import { blockPayload, indexBlockHash, type BlockHeader, type NakamotoFields, type Placed } from './blocks.ts';
import { derive, hex0x, type Rng } from './rng.ts';

export interface RecentBlock {
  header: BlockHeader;
  txs: Placed[];
}

const SYSTEM_KINDS = new Set(['coinbase', 'tenure-change', 'tenure-extend', 'genesis']);

/** signer_bitvec (u16 bit length, u32 byte length, bits LSB-first), the signatures of the set bits, a miner signature. */
export function nakamotoFields(rng: Rng, signers: number): NakamotoFields {
  const bytes = Buffer.alloc(Math.ceil(signers / 8));
  const sigs: string[] = [];
  for (let i = 0; i < signers; i++) {
    if (rng.chance(0.05) && sigs.length + (signers - i) > Math.ceil(signers * 0.7)) continue;
    bytes[i >> 3] |= 1 << (i & 7);
    sigs.push(signature(rng).toString('hex'));
  }
  const head = Buffer.alloc(6);
  head.writeUInt16BE(signers, 0);
  head.writeUInt32BE(bytes.length, 2);
  return { signer_bitvec: Buffer.concat([head, bytes]).toString('hex'), miner_signature: hex0x(signature(rng)), signer_signature: sigs };
}

export interface ForkPlan {
  /** Heights back from the tip where the fork branches off (1–3). */
  depth: number;
  /** Competing blocks emitted (≤ depth, so the fork never outgrows the main chain). */
  length: number;
}

/**
 * The /new_block bodies of a fork over `recent` (oldest first, the last one is the main tip):
 * block j competes with recent[len - depth + j]. The last fork block may carry only a prefix of
 * the main block's user txs (not for blocks confirming microblocks, whose execution order differs).
 */
export function forkBlocks(recent: RecentBlock[], plan: ForkPlan, rng: Rng, seed: string, forkSeq: number, signers: number, shuffleEvents: boolean): Array<{ body: Record<string, unknown>; header: BlockHeader }> {
  const out: Array<{ body: Record<string, unknown>; header: BlockHeader }> = [];
  let parentHash = '';
  let parentIndex = '';
  for (let j = 0; j < plan.length; j++) {
    const src = recent[recent.length - plan.depth + j];
    const blockHash = derive(32, seed, 'fork-block', forkSeq, j);
    const ch = Buffer.from(src.header.consensus_hash.slice(2), 'hex');
    const header: BlockHeader = {
      ...src.header,
      block_hash: hex0x(blockHash),
      index_block_hash: hex0x(indexBlockHash(blockHash, ch)),
      parent_block_hash: j === 0 ? src.header.parent_block_hash : parentHash,
      parent_index_block_hash: j === 0 ? src.header.parent_index_block_hash : parentIndex,
      block_time: src.header.block_time === null ? null : src.header.block_time + 1 + j,
      nakamoto: src.header.nakamoto ? nakamotoFields(rng, signers) : null,
    };
    let txs = src.txs;
    if (j === plan.length - 1 && !txs.some((p) => p.mb)) {
      let system = 0;
      while (system < txs.length && SYSTEM_KINDS.has(txs[system].tx.kind)) system++;
      const keep = system + rng.int(txs.length - system + 1);
      if (keep > 0) txs = txs.slice(0, keep);
    }
    out.push({ body: blockPayload(header, txs, rng, shuffleEvents), header });
    parentHash = header.block_hash;
    parentIndex = header.index_block_hash;
  }
  return out;
}
