// Generator parameters, their defaults and the statistics a run reports.
import { DEFAULT_MIX, type Mix } from './activity.ts';
import type { MempoolOptions } from './mempool.ts';

export interface GenOptions {
  /** Transactions on the canonical chain (boot genesis receipt, coinbases and tenure changes included). */
  txs: number;
  seed: string;
  mainnet: boolean;

  /** User principals; activity over them is Zipf(zipfExponent). */
  users: number;
  /**
   * Zipf exponent s: the rank-k principal is chosen as sender (and, independently, as recipient)
   * with probability k^-s / H(users, s). s = 1 with users = txs / 10 puts ~7% of all txs on the
   * top principal at 10M txs (≈ 700k), ≥ 100k txs on the top ~7 ranks, and a median principal
   * in the low single digits.
   */
  zipfExponent: number;
  miners: number;
  sponsors: number;
  /** Share of users that are 2-of-3 multi-sig (hash modes 0x01 and 0x05, half each). */
  multisigShare: number;
  /** Users funded by the boot block's genesis mints (by rank). */
  genesisAccounts: number;
  mix: Mix;
  maxContracts: number;

  /** Epoch-2.x anchored blocks before Nakamoto (capped so the tx budget outlasts them). */
  epoch2Blocks: number;
  /** Chance an epoch-2 block gets a microblock stream; its length and txs per microblock. */
  microblockRate: number;
  maxMicroblocks: number;
  microblockTxs: number;

  /** Mean user txs per block (exponentially distributed, at least 1, at most 10×). */
  blockTxs: number;
  /** Mean Nakamoto blocks per tenure (uniform 1 … 2×mean−1). */
  tenureBlocks: number;
  /** Chance a burn block has no sortition (the running tenure is extended, cause 0x01). */
  noSortitionRate: number;

  /** Chance, after each main block, of an abandoned fork. */
  forkRate: number;
  /** Forks branch 1 … maxForkDepth blocks below the tip (epoch-2: 1). */
  maxForkDepth: number;

  /** Blocks' worth of txs created ahead of mining (announced to the mempool meanwhile). */
  mempoolWindow: number;
  mempool: MempoolOptions;

  /** Signers per Nakamoto block (signer_bitvec length). */
  signers: number;
  /** Tenures before a miner's coinbase and fees mature (matured_miner_rewards). */
  maturity: number;
  burnStartHeight: number;
  cycleLength: number;
  prepareLength: number;
  /** Shuffle events[] as the node's dispatch does (event_index keeps the order). */
  shuffleEvents: boolean;
}

export function defaultOptions(txs: number, seed: string): GenOptions {
  return {
    txs,
    seed,
    mainnet: true,
    users: Math.max(100, Math.ceil(txs / 10)),
    zipfExponent: 1.0,
    miners: 5,
    sponsors: 8,
    multisigShare: 0.04,
    genesisAccounts: 2000,
    mix: { ...DEFAULT_MIX },
    maxContracts: 4096,
    epoch2Blocks: 100,
    microblockRate: 0.5,
    maxMicroblocks: 3,
    microblockTxs: 8,
    blockTxs: 25,
    tenureBlocks: 8,
    noSortitionRate: 0.05,
    forkRate: 0.02,
    maxForkDepth: 3,
    mempoolWindow: 3,
    mempool: { announceShare: 0.9, rbfRate: 0.01, staleRate: 0.005, maxBatch: 12 },
    signers: 10,
    maturity: 100,
    burnStartHeight: 880_000,
    cycleLength: 20,
    prepareLength: 5,
    shuffleEvents: true,
  };
}

export interface GenStats {
  txs: number;
  blocks: number;
  burnBlocks: number;
  microblocks: number;
  forks: number;
  forkBlocks: number;
  maxForkDepth: number;
  entries: Record<string, number>;
  kinds: Record<string, number>;
  mempool: { announced: number; replaced: number; stale: number; dropped: number };
  /** Users that sent at least one tx, of all users; the most active users' tx counts; the median count of active ones. */
  senders: { active: number; of: number; top: number[]; median: number };
}

export const newStats = (): GenStats => ({
  txs: 0,
  blocks: 0,
  burnBlocks: 0,
  microblocks: 0,
  forks: 0,
  forkBlocks: 0,
  maxForkDepth: 0,
  entries: {},
  kinds: {},
  mempool: { announced: 0, replaced: 0, stale: 0, dropped: 0 },
  senders: { active: 0, of: 0, top: [], median: 0 },
});

/** Receives each row: observer path, JSON body, receive time (ms). */
export type Sink = (path: string, body: unknown, receivedMs: number) => Promise<void>;
