// The burn chain: /new_burn_block payloads (EVENT-OBSERVER.md §6) with PoX reward data — reward
// phases pay two slot holders per block-commit, prepare phases burn — and the block-commit txids
// that become a Stacks block's miner_txid. Also the reward_set a Nakamoto block carries once per cycle.
import { derive, hex0x, type Rng } from './rng.ts';
import { base58CheckEncode } from '../../src/stacks/encode/btc-address.ts';

export interface BurnBlock {
  height: number;
  /** Unix seconds. */
  time: number;
  hash: string;
  parentHash: string;
  consensusHash: Buffer;
  /** The winning block-commit's txid (the tenure's / block's miner_txid); zeros when no sortition. */
  winnerCommit: string;
  payload: Record<string, unknown>;
}

export interface BurnChainOptions {
  seed: string;
  mainnet: boolean;
  startHeight: number;
  /** PoX reward cycle length and prepare phase length, in burn blocks. */
  cycleLength: number;
  prepareLength: number;
}

export class BurnChain {
  private readonly pox: string[] = [];
  private tipHash: string;
  height: number;

  constructor(
    private readonly opts: BurnChainOptions,
    private readonly rng: Rng,
  ) {
    for (let i = 0; i < 16; i++) this.pox.push(base58CheckEncode(opts.mainnet ? 0x00 : 0x6f, derive(20, opts.seed, 'pox-addr', i)));
    this.height = opts.startHeight - 1;
    this.tipHash = this.hashAt(this.height);
  }

  private hashAt(height: number): string {
    const h = Buffer.from(derive(32, this.opts.seed, 'burn', height));
    if (this.opts.mainnet) h.fill(0, 0, 8); // Bitcoin mainnet-like difficulty
    return hex0x(h);
  }

  consensusHash(height: number): Buffer {
    return derive(20, this.opts.seed, 'consensus', height);
  }

  inPrepare(height: number): boolean {
    return height % this.opts.cycleLength >= this.opts.cycleLength - this.opts.prepareLength;
  }

  /** The first burn block of a prepare phase: the next cycle's reward set is computed there. */
  startsPrepare(height: number): boolean {
    return height % this.opts.cycleLength === this.opts.cycleLength - this.opts.prepareLength;
  }

  cycleOf(height: number): number {
    return Math.floor(height / this.opts.cycleLength);
  }

  /** The next burn block at `time`; `commits` miners sent block-commits, one of them wins unless `sortition` is false. */
  next(time: number, commits: number, sortition: boolean): BurnBlock {
    const height = ++this.height;
    const hash = this.hashAt(height);
    const parentHash = this.tipHash;
    this.tipHash = hash;
    const consensusHash = this.consensusHash(height);
    const commitTxids = Array.from({ length: commits }, (_, k) => hex0x(derive(32, this.opts.seed, 'commit', height, k)));
    const prepare = this.inPrepare(height);
    const cycle = this.cycleOf(height);
    const holders = prepare ? [] : [this.pox[(2 * cycle) % this.pox.length], this.pox[(2 * cycle + 1) % this.pox.length]];
    const perSlot = commits > 0 ? this.rng.range(10_000, 60_000) : 0;
    const poxTransactions = commitTxids.map((txid) => ({
      txid,
      reward_recipients: holders.map((recipient, utxo_idx) => ({ amt: perSlot, utxo_idx: utxo_idx + 1, recipient })),
    }));
    const payload = {
      burn_amount: prepare ? commits * perSlot * 2 : 0,
      consensus_hash: hex0x(consensusHash),
      burn_block_hash: hash,
      pox_transactions: poxTransactions,
      burn_block_height: height,
      reward_recipients: commits > 0 ? holders.map((recipient) => ({ amt: perSlot * commits, recipient })) : [],
      reward_slot_holders: holders,
      parent_burn_block_hash: parentHash,
    };
    const winnerCommit = sortition && commits > 0 ? commitTxids[this.rng.int(commits)] : hex0x(Buffer.alloc(32));
    return { height, time, hash, parentHash, consensusHash, winnerCommit, payload };
  }

  /** The reward set of `cycle` as a block computing it reports it (Nakamoto: with signers). */
  rewardSet(cycle: number, signers: number): Record<string, unknown> {
    const addrs = [this.pox[(2 * cycle) % this.pox.length], this.pox[(2 * cycle + 1) % this.pox.length]];
    return {
      signers: Array.from({ length: signers }, (_, i) => {
        const key = Buffer.from(derive(33, this.opts.seed, 'signer-key', i));
        key[0] = 2 + (key[0] & 1);
        return { weight: 1 + (i % 3), signing_key: key.toString('hex'), stacked_amt: String(1_000_000_000_000 * (1 + (i % 3))) };
      }),
      start_cycle_state: { missed_reward_slots: [] },
      pox_ustx_threshold: '100000000000',
      rewarded_addresses: [addrs[0], addrs[0], addrs[1], addrs[1]],
    };
  }
}
