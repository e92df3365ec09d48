// The chain driver: burn blocks, the boot block, an optional epoch-2.x segment (one anchored block
// per burn block, coinbase first, microblock streams confirmed by the next block), then Nakamoto
// tenures (tenure change + coinbase in the first block, several blocks per tenure, tenure extends
// after burn blocks without a sortition), mempool traffic between blocks and occasional abandoned
// forks. Everything is written as it is produced; state is the accounts' typed arrays, the mempool
// window, the last few blocks (for forks) and the last `maturity` tenures (for miner rewards).
import { Accounts, signature } from './accounts.ts';
import { TxFactory, type Era } from './activity.ts';
import { blockPayload, indexBlockHash, microblockHash, microblocksPayload, ZERO_HASH, type BlockHeader, type MicroblockBatch, type Placed } from './blocks.ts';
import { BurnChain, type BurnBlock } from './burn.ts';
import { forkBlocks, nakamotoFields, type RecentBlock } from './forks.ts';
import { Mempool } from './mempool.ts';
import { coinbaseTx, genesisTx, nakamotoCoinbaseTx, tenureChangeTx, type ChainIds } from './system-txs.ts';
import { type GenOptions, type GenStats, type Sink, newStats } from './options.ts';
import { derive, hex0x, Rng } from './rng.ts';
import type { GenTx } from './events.ts';

const BOOT_INDEX = '0x55c9861be5cff984a20ce6d99d4aa65941412889bdc665094136429b84f8c2ee';
const FF_HASH = '0x' + 'ff'.repeat(32);
const COINBASE = 1_000_000_000;

interface Tip {
  hash: string;
  index: string;
  height: number;
  burn: { hash: string; height: number; time: number };
  consensusHash: Buffer;
  blockTime: number;
}

interface RewardRecord {
  miner: number;
  recipient: number;
  blockHash: string;
  index: string;
  fees: number;
}

interface Tenure {
  burn: BurnBlock;
  miner: number;
  consensusHash: Buffer;
  /** Blocks since the last tenure change (the next one's previous_tenure_blocks). */
  blocks: number;
  record: RewardRecord;
}

export class ChainGenerator {
  readonly stats: GenStats = newStats();
  private readonly acc: Accounts;
  private readonly factory: TxFactory;
  private readonly pool: Mempool;
  private readonly burn: BurnChain;
  private readonly rng: Rng;
  private readonly ids: ChainIds;
  private readonly epoch2Total: number;
  private epoch2Started = 0;
  private mined = 0;
  private draining = false;
  private seq = 0;
  private forkSeq = 0;
  private clock: number;
  private burnTime: number;
  private tip!: Tip;
  private tenure: Tenure | null = null;
  private tenureHeight = 0;
  private stream: MicroblockBatch[] | null = null;
  private readonly recent: RecentBlock[] = [];
  private readonly rewards: RewardRecord[] = [];
  private readonly poxUnlock: [number, number, number];

  constructor(
    private readonly opts: GenOptions,
    private readonly sink: Sink,
    private readonly onProgress: (txs: number) => void = () => {},
  ) {
    const root = new Rng(`stacks-gen/${opts.seed}`);
    this.rng = root.fork('chain');
    this.ids = { mainnet: opts.mainnet, chainId: opts.mainnet ? 0x00000001 : 0x80000000 };
    this.acc = new Accounts({ seed: opts.seed, mainnet: opts.mainnet, users: opts.users, miners: opts.miners, sponsors: opts.sponsors, multisigShare: opts.multisigShare });
    const funded = Math.min(opts.users, opts.genesisAccounts);
    this.factory = new TxFactory(
      { mainnet: opts.mainnet, chainId: this.ids.chainId, zipfExponent: opts.zipfExponent, mix: opts.mix, maxContracts: opts.maxContracts },
      this.acc,
      root.fork('txs'),
      funded,
    );
    this.pool = new Mempool(opts.mempool, root.fork('mempool'), this.factory);
    this.burn = new BurnChain({ seed: opts.seed, mainnet: opts.mainnet, startHeight: opts.burnStartHeight, cycleLength: opts.cycleLength, prepareLength: opts.prepareLength }, root.fork('burn'));
    // Every epoch-2 block needs a coinbase: keep the segment short enough that the budget outlasts it.
    const perBlock = opts.blockTxs + opts.microblockRate * opts.maxMicroblocks * opts.microblockTxs + 1;
    this.epoch2Total = Math.max(0, Math.min(opts.epoch2Blocks, Math.floor(opts.txs / (4 * perBlock))));
    this.burnTime = 1_600_000_000 + (derive(4, opts.seed, 'genesis-time').readUInt32BE(0) % 100_000_000);
    this.clock = this.burnTime * 1000;
    const b0 = opts.burnStartHeight;
    this.poxUnlock = [b0 + 2, b0 + 3, b0 + 4];
  }

  private async emit(path: string, body: unknown, atMs?: number): Promise<void> {
    this.clock = Math.max(this.clock + 1 + this.rng.int(20), atMs ?? this.clock + 50 + this.rng.int(1500));
    await this.sink(path, body, this.clock);
    this.stats.entries[path] = (this.stats.entries[path] ?? 0) + 1;
  }

  async run(): Promise<GenStats> {
    let first: BurnBlock | null = null;
    for (let i = 0; i < 3; i++) {
      this.burnTime += this.rng.range(300, 900);
      const bb = this.burn.next(this.burnTime, 0, false);
      first ??= bb;
      await this.emit('/new_burn_block', bb.payload, bb.time * 1000);
    }
    await this.bootBlock(first!);
    for (let i = 0; i < this.epoch2Total; i++) await this.epoch2Block(i === this.epoch2Total - 1);
    while (this.mined < this.opts.txs || this.pool.size > 0) await this.nakamotoTenure();
    this.stats.txs = this.mined;
    this.stats.kinds = Object.fromEntries([...this.factory.stats].sort());
    this.stats.mempool = { ...this.pool.stats };
    // Txs sent per user (its nonce count): the Zipf head and the typical principal.
    const sent = Array.from(this.acc.nonce.subarray(0, this.acc.users)).filter((n) => n > 0).sort((a, b) => b - a);
    this.stats.senders = { active: sent.length, of: this.acc.users, top: sent.slice(0, 5), median: sent[Math.floor(sent.length / 2)] ?? 0 };
    return this.stats;
  }

  /** Creates user txs for the mempool window, keeping the total on the canonical chain exactly `txs`. */
  private async refill(era: Era): Promise<void> {
    const target = this.opts.mempoolWindow * this.opts.blockTxs;
    let want = Math.max(0, target - this.pool.size);
    const reserve = this.draining ? 0 : era === 'epoch2' ? this.epoch2Total - this.epoch2Started + 2 : 2;
    let room = this.opts.txs - this.mined - this.pool.size - reserve;
    if (!this.draining && era === 'nakamoto' && room <= want) {
      // The last txs: no more tenures (each needs system txs), fill the budget exactly.
      this.draining = true;
      room += reserve;
      want = room;
    }
    const create = Math.max(0, Math.min(want, room));
    for (const e of this.pool.refill(era, this.seq, create, 2 * this.opts.blockTxs)) await this.emit(e.path, e.body);
  }

  private blockSize(): number {
    return Math.min(10 * this.opts.blockTxs, Math.max(1, Math.round(-Math.log(1 - this.rng.float()) * this.opts.blockTxs)));
  }

  private matured(): Record<string, string>[] {
    const out: Record<string, string>[] = [];
    while (this.rewards.length > this.opts.maturity) {
      const r = this.rewards.shift()!;
      this.acc.balance[r.recipient] += COINBASE + r.fees;
      out.push({
        recipient: this.acc.address(r.recipient),
        miner_address: this.acc.address(r.miner),
        coinbase_amount: String(COINBASE),
        tx_fees_anchored: String(r.fees),
        from_stacks_block_hash: r.blockHash,
        from_index_consensus_hash: r.index,
        tx_fees_streamed_produced: '0',
        tx_fees_streamed_confirmed: '0',
      });
    }
    return out;
  }

  private header(h: Partial<BlockHeader> & Pick<BlockHeader, 'block_hash' | 'block_height' | 'burn_block_hash' | 'burn_block_height' | 'burn_block_time' | 'miner_txid' | 'index_block_hash' | 'tenure_height' | 'consensus_hash'>): BlockHeader {
    return {
      block_time: null,
      parent_block_hash: this.tip.hash,
      parent_index_block_hash: this.tip.index,
      parent_microblock: ZERO_HASH,
      parent_microblock_sequence: 0,
      parent_burn_block_hash: this.tip.burn.hash,
      parent_burn_block_height: this.tip.burn.height,
      parent_burn_block_timestamp: this.tip.burn.time,
      matured_miner_rewards: [],
      reward_set: null,
      cycle_number: null,
      pox_unlock: this.poxUnlock,
      nakamoto: null,
      ...h,
    };
  }

  /** Emits a main-chain block and makes it the tip. */
  private async mainBlock(header: BlockHeader, txs: Placed[], atMs: number): Promise<void> {
    await this.emit('/new_block', blockPayload(header, txs, this.rng, this.opts.shuffleEvents), atMs);
    this.tip = {
      hash: header.block_hash,
      index: header.index_block_hash,
      height: header.block_height,
      burn: { hash: header.burn_block_hash, height: header.burn_block_height, time: header.burn_block_time },
      consensusHash: Buffer.from(header.consensus_hash.slice(2), 'hex'),
      blockTime: header.block_time ?? header.burn_block_time,
    };
    this.recent.push({ header, txs });
    if (this.recent.length > this.opts.maxForkDepth) this.recent.shift();
    this.seq++;
    this.stats.blocks++;
    this.onProgress(this.mined);
  }

  private async bootBlock(bb: BurnBlock): Promise<void> {
    const balances: Array<[number, number]> = [];
    const funded = Math.min(this.opts.users, this.opts.genesisAccounts);
    for (let i = 0; i < funded; i++) balances.push([i, Math.floor(2e13 / Math.sqrt(i + 1))]);
    for (let k = 0; k < this.opts.sponsors; k++) balances.push([this.acc.sponsor(k), 1e13]);
    for (const [i, amount] of balances) this.acc.balance[i] = amount;
    const genesis = genesisTx(this.acc, this.opts.mainnet, balances);
    this.mined++;
    this.tip = { hash: FF_HASH, index: FF_HASH, height: -1, burn: { hash: bb.hash, height: bb.height, time: bb.time }, consensusHash: Buffer.alloc(20), blockTime: bb.time };
    const header = this.header({
      block_hash: ZERO_HASH,
      block_height: 0,
      burn_block_hash: bb.hash,
      burn_block_height: bb.height,
      burn_block_time: bb.time,
      miner_txid: ZERO_HASH,
      index_block_hash: BOOT_INDEX,
      tenure_height: 0,
      consensus_hash: hex0x(Buffer.alloc(20)),
    });
    await this.mainBlock(header, [{ tx: genesis }], this.clock + 1000);
    this.recent.length = 0; // never fork the boot block
  }

  private pickMiner(): number {
    return this.acc.miner(this.rng.int(this.acc.miners));
  }

  private async epoch2Block(last: boolean): Promise<void> {
    this.epoch2Started++;
    this.burnTime += this.rng.range(300, 900);
    const bb = this.burn.next(this.burnTime, this.rng.range(1, this.acc.miners), true);
    this.stats.burnBlocks++;
    await this.emit('/new_burn_block', bb.payload, bb.time * 1000 + this.rng.int(5000));
    const miner = this.pickMiner();
    const alt = this.rng.chance(0.1) ? this.factory.user() : null;
    const coinbase = coinbaseTx(this.acc, this.rng, this.ids, miner, alt);
    this.mined++;
    const matured = this.matured();
    await this.refill('epoch2');
    const user = this.pool.take(this.blockSize());
    this.mined += user.length;
    const stream = this.stream ?? [];
    const lastMb = stream.at(-1)?.ref;
    const txs: Placed[] = [{ tx: coinbase }, ...user.map((tx) => ({ tx }))];
    for (const mb of stream) for (const tx of mb.txs) txs.push({ tx, mb: mb.ref });
    const blockHash = derive(32, this.opts.seed, 'block', this.seq);
    const header = this.header({
      block_hash: hex0x(blockHash),
      block_height: this.tip.height + 1,
      burn_block_hash: bb.hash,
      burn_block_height: bb.height,
      burn_block_time: bb.time,
      miner_txid: bb.winnerCommit,
      index_block_hash: hex0x(indexBlockHash(blockHash, bb.consensusHash)),
      tenure_height: this.tip.height + 1,
      consensus_hash: hex0x(bb.consensusHash),
      parent_microblock: lastMb ? lastMb.hash : ZERO_HASH,
      parent_microblock_sequence: lastMb ? lastMb.sequence : 0,
      matured_miner_rewards: matured,
    });
    this.stream = null;
    await this.mainBlock(header, txs, (bb.time + this.rng.range(1, 30)) * 1000);
    this.tenureHeight = header.tenure_height;
    this.rewards.push({ miner, recipient: alt ?? miner, blockHash: header.block_hash, index: header.index_block_hash, fees: txs.reduce((s, p) => s + p.tx.fee, 0) });
    if (!last && this.rng.chance(this.opts.microblockRate)) await this.microblocks(header, bb);
    await this.maybeFork();
  }

  private async microblocks(anchor: BlockHeader, bb: BurnBlock): Promise<void> {
    const batches: MicroblockBatch[] = [];
    const count = this.rng.range(1, this.opts.maxMicroblocks);
    for (let i = 0; i < count; i++) {
      await this.refill('epoch2');
      const txs = this.pool.take(this.rng.range(1, this.opts.microblockTxs));
      if (txs.length === 0) break;
      this.mined += txs.length;
      const parentHash = i === 0 ? anchor.block_hash : batches[i - 1].ref.hash;
      const hash = microblockHash(i, parentHash, txs.map((t) => t.txid), signature(this.rng));
      batches.push({ ref: { hash, sequence: i, parentHash }, txs });
    }
    if (batches.length === 0) return;
    this.stream = batches;
    this.stats.microblocks += batches.length;
    const burn = { hash: bb.hash, height: bb.height, time: bb.time };
    // Usually one payload per microblock; sometimes the whole stream in one.
    const groups = this.rng.chance(0.3) ? [batches] : batches.map((b) => [b]);
    for (const g of groups) await this.emit('/new_microblocks', microblocksPayload(anchor.index_block_hash, burn, g, this.rng, this.opts.shuffleEvents));
  }

  private async nakamotoTenure(): Promise<void> {
    let system: GenTx[] = [];
    let blocks: number;
    if (this.draining && this.tenure) {
      blocks = Infinity; // the budget is spent: finish the window in the current tenure
    } else {
      blocks = this.rng.range(1, 2 * this.opts.tenureBlocks - 1);
      this.burnTime = Math.max(this.burnTime + this.rng.range(300, 900), this.tip.blockTime + blocks * 10 + 30);
      const sortition = !this.tenure || !this.rng.chance(this.opts.noSortitionRate);
      const bb = this.burn.next(this.burnTime, this.rng.range(1, this.acc.miners), sortition);
      this.stats.burnBlocks++;
      await this.emit('/new_burn_block', bb.payload, bb.time * 1000 + this.rng.int(5000));
      const prev = this.tenure;
      if (sortition) {
        const miner = this.pickMiner();
        const alt = this.rng.chance(0.5) ? (this.rng.chance(0.5) ? miner : this.factory.user()) : null;
        const tc = tenureChangeTx(this.acc, this.rng, this.ids, miner, {
          tenureConsensusHash: bb.consensusHash,
          prevTenureConsensusHash: this.tip.consensusHash,
          burnViewConsensusHash: bb.consensusHash,
          previousTenureEnd: Buffer.from(this.tip.index.slice(2), 'hex'),
          previousTenureBlocks: prev ? prev.blocks : 1,
          extend: false,
        });
        system = [tc, nakamotoCoinbaseTx(this.acc, this.rng, this.ids, miner, alt)];
        this.tenureHeight++;
        this.tenure = { burn: bb, miner, consensusHash: bb.consensusHash, blocks: 0, record: { miner, recipient: alt ?? miner, blockHash: '', index: '', fees: 0 } };
        this.rewards.push(this.tenure.record);
      } else {
        const t = prev!;
        system = [
          tenureChangeTx(this.acc, this.rng, this.ids, t.miner, {
            tenureConsensusHash: t.consensusHash,
            prevTenureConsensusHash: t.consensusHash,
            burnViewConsensusHash: bb.consensusHash,
            previousTenureEnd: Buffer.from(this.tip.index.slice(2), 'hex'),
            previousTenureBlocks: t.blocks,
            extend: true,
          }),
        ];
        t.blocks = 0;
      }
      this.mined += system.length;
    }
    const tenure = this.tenure!;
    for (let j = 0; j < blocks; j++) {
      const first = j === 0 && system.length > 0;
      await this.refill('nakamoto');
      const user = this.pool.take(this.blockSize());
      if (user.length === 0 && !first) {
        if (this.draining) return;
        continue;
      }
      this.mined += user.length;
      const txs: Placed[] = [...(first ? system : []), ...user].map((tx) => ({ tx }));
      const newTenure = first && system.length === 2;
      const blockHash = derive(32, this.opts.seed, 'block', this.seq);
      const blockTime = Math.max(this.tip.blockTime + this.rng.range(2, 10), tenure.burn.time + 1);
      const rewardCycle = newTenure && this.burn.startsPrepare(tenure.burn.height) ? this.burn.cycleOf(tenure.burn.height) + 1 : null;
      const header = this.header({
        block_hash: hex0x(blockHash),
        block_height: this.tip.height + 1,
        block_time: blockTime,
        burn_block_hash: tenure.burn.hash,
        burn_block_height: tenure.burn.height,
        burn_block_time: tenure.burn.time,
        miner_txid: tenure.burn.winnerCommit,
        index_block_hash: hex0x(indexBlockHash(blockHash, tenure.consensusHash)),
        tenure_height: this.tenureHeight,
        consensus_hash: hex0x(tenure.consensusHash),
        matured_miner_rewards: newTenure ? this.matured() : [],
        reward_set: rewardCycle === null ? null : this.burn.rewardSet(rewardCycle, this.opts.signers),
        cycle_number: rewardCycle,
        nakamoto: nakamotoFields(this.rng, this.opts.signers),
      });
      await this.mainBlock(header, txs, blockTime * 1000 + 100 + this.rng.int(1400));
      tenure.blocks++;
      if (newTenure) {
        tenure.record.blockHash = header.block_hash;
        tenure.record.index = header.index_block_hash;
      }
      tenure.record.fees += user.reduce((s, tx) => s + tx.fee, 0);
      await this.maybeFork();
      if (this.draining && this.pool.size === 0) return;
    }
  }

  private async maybeFork(): Promise<void> {
    if (this.draining || this.recent.length === 0 || !this.rng.chance(this.opts.forkRate)) return;
    // Epoch-2 blocks fork one deep (a competing block on the same parent, confirming the same stream).
    let maxDepth = 0;
    for (let i = this.recent.length - 1; i >= 0 && this.recent[i].header.nakamoto; i--) maxDepth++;
    if (maxDepth === 0) maxDepth = 1;
    const depth = this.rng.range(1, Math.min(maxDepth, this.opts.maxForkDepth));
    const length = this.rng.range(1, depth);
    const blocks = forkBlocks(this.recent, { depth, length }, this.rng, this.opts.seed, this.forkSeq++, this.opts.signers, this.opts.shuffleEvents);
    for (const b of blocks) await this.emit('/new_block', b.body, (b.header.block_time ?? this.tip.blockTime) * 1000 + 1500 + this.rng.int(1000));
    this.stats.forks++;
    this.stats.forkBlocks += blocks.length;
    this.stats.maxForkDepth = Math.max(this.stats.maxForkDepth, depth);
  }
}
