// User transactions: the mix of STX transfers, token contract deploys and contract calls, with
// Zipf-distributed activity over principals. Every tx is created in the order it will execute on
// the canonical chain, so nonces and balances are applied at creation: each sender's nonces are
// consecutive, no account spends µSTX, tokens or NFTs it does not have, and failures are the
// kinds the contract source really produces.
import { Accounts, signature } from './accounts.ts';
import { Cv, type ClarityValue } from '../../src/stacks/encode/clarity.ts';
import { ftContract, nftContract, failingContract, deployCost } from './contracts.ts';
import { stxTransfer, ftMint, ZERO_COST, type GenTx, type GenEvent, type Cost, type TxStatus } from './events.ts';
import { encodeTxWithId, memoBytes, AnchorMode, PostConditionMode, FungibleCode, type Payload, type PostCondition, type SpendingCondition, type UnsignedTx } from '../../src/stacks/encode/transaction.ts';
import { ftCall, nftCall } from './calls.ts';
import type { Rng } from './rng.ts';
import { Zipf } from './zipf.ts';

export type Era = 'epoch2' | 'nakamoto';

/** Relative weights of the user tx kinds; contract calls split further in calls.ts. */
export interface Mix {
  transfer: number;
  ft: number;
  nft: number;
  deploy: number;
  failedDeploy: number;
  /** Share of transfers and calls sent sponsored (auth 0x05) even when the origin could pay. */
  sponsored: number;
}

export const DEFAULT_MIX: Mix = { transfer: 0.45, ft: 0.3, nft: 0.2, deploy: 0.012, failedDeploy: 0.001, sponsored: 0.03 };

export interface FactoryOptions {
  mainnet: boolean;
  chainId: number;
  /** Zipf exponent s of sender/recipient activity: P(rank k) ∝ k^-s. */
  zipfExponent: number;
  mix: Mix;
  /** Contracts kept callable at once (older ones are replaced, i.e. fall out of use). */
  maxContracts: number;
}

/** What calls need of a deployed contract (not its source or interface: memory stays small). */
export interface ContractRef {
  name: string;
  asset: string;
  codeLength: number;
  mintPrice: number;
}

export interface FtState {
  kind: 'ft';
  spec: ContractRef;
  deployer: number;
  contractId: string;
  assetId: string;
  /** Tokens the deployer still holds of the initial supply and of its own mints. */
  treasury: number;
  /** Recent receipts: holder account and the amount received and not yet spent (a lower bound of its balance). */
  holders: number[];
  amounts: number[];
  cursor: number;
}

export interface NftState {
  kind: 'nft';
  spec: ContractRef;
  deployer: number;
  contractId: string;
  assetId: string;
  lastId: number;
  /** Recently minted or moved tokens and their current owners. */
  ids: number[];
  owners: number[];
  cursor: number;
}

export type ContractState = FtState | NftState;

export const RING = 32;

const MEMOS = ['', '', '', 'gm', 'thanks!', 'invoice 10442', 'rent', 'for the pizza', 'payout', 'withdrawal'];

export class TxFactory {
  readonly contracts: ContractState[] = [];
  deployed = 0;
  readonly stats = new Map<string, number>();
  private readonly zipf: Zipf;
  private readonly kindWeights: number[];
  private fallback = 0;

  constructor(
    readonly opts: FactoryOptions,
    readonly acc: Accounts,
    readonly rng: Rng,
    /** Users funded at genesis (the fallback payers). */
    readonly funded: number,
  ) {
    this.zipf = new Zipf(acc.users, opts.zipfExponent);
    const m = opts.mix;
    this.kindWeights = [m.transfer, m.ft, m.nft, m.deploy, m.failedDeploy];
  }

  /** A user account drawn from the Zipf activity distribution (rank 1 = account 0). */
  user(): number {
    return this.zipf.sample(this.rng) - 1;
  }

  /** A Zipf-drawn user other than `not`. */
  otherUser(not: number): number {
    for (;;) {
      const u = this.user();
      if (u !== not) return u;
      if (this.acc.users === 1) throw new Error('need at least two users');
    }
  }

  /** A Zipf-drawn user holding at least `need` µSTX (a few draws, then the funded accounts in turn). */
  payer(need: number): number {
    const bal = this.acc.balance;
    for (let t = 0; t < 6; t++) {
      const u = this.user();
      if (bal[u] >= need) return u;
    }
    for (let t = 0; t < this.funded; t++) {
      const u = this.fallback++ % this.funded;
      if (bal[u] >= need) return u;
    }
    throw new Error(`no account holds ${need} µSTX`);
  }

  canPay(i: number, need: number): boolean {
    return this.acc.balance[i] >= need;
  }

  fee(lo: number, hi: number): number {
    return this.rng.logUniform(lo, hi);
  }

  principal(i: number): ClarityValue {
    return Cv.principal(this.acc.addr(i));
  }

  count(kind: string): void {
    this.stats.set(kind, (this.stats.get(kind) ?? 0) + 1);
  }

  anchorMode(era: Era): number {
    // Epoch-2 user txs may land in microblocks, so they allow either; some Nakamoto txs say on-chain only.
    return era === 'nakamoto' && this.rng.chance(0.1) ? AnchorMode.OnChainOnly : AnchorMode.Any;
  }

  /**
   * Encodes and signs (filler) a tx, uses the origin's (and sponsor's) next nonce and charges the fee.
   * `sponsored`: the fee is paid by one of the sponsor accounts.
   */
  build(
    era: Era,
    sender: number,
    fee: number,
    payload: Payload,
    opts: { sponsored?: boolean; postConditions?: PostCondition[]; deny?: boolean } = {},
  ): { unsigned: UnsignedTx; txid: string; raw: string; sponsor?: number; nonce: number; sponsorNonce?: number } {
    const acc = this.acc;
    const sponsor = opts.sponsored ? acc.sponsor(this.rng.int(acc.sponsors)) : undefined;
    const nonce = acc.nonce[sender];
    const unsigned: UnsignedTx = {
      mainnet: this.opts.mainnet,
      chainId: this.opts.chainId,
      origin: acc.spend(sender, sponsor === undefined ? fee : 0, this.rng),
      sponsor: sponsor === undefined ? undefined : acc.spend(sponsor, fee, this.rng),
      anchorMode: this.anchorMode(era),
      postConditionMode: opts.deny ? PostConditionMode.Deny : PostConditionMode.Allow,
      postConditions: opts.postConditions ?? [],
      payload,
    };
    acc.balance[sponsor ?? sender] -= fee;
    const enc = encodeTxWithId(unsigned);
    return { unsigned, txid: enc.txid, raw: enc.raw, sponsor, nonce, sponsorNonce: sponsor === undefined ? undefined : unsigned.sponsor!.nonce };
  }

  finish(
    b: ReturnType<TxFactory['build']>,
    sender: number,
    fee: number,
    kind: string,
    r: { status?: TxStatus; result: string; cost: Cost; events?: GenEvent[]; abi?: Record<string, unknown> | null; vmError?: string | null },
  ): GenTx {
    this.count(kind);
    return {
      txid: b.txid,
      raw: b.raw,
      status: r.status ?? 'success',
      rawResult: r.result,
      cost: r.cost,
      events: r.events ?? [],
      contractInterface: r.abi ?? null,
      vmError: r.vmError ?? null,
      sender,
      nonce: b.nonce,
      sponsor: b.sponsor,
      sponsorNonce: b.sponsorNonce,
      fee,
      kind,
      unsigned: b.unsigned,
    };
  }

  /** The next user tx, executed in order after every tx created before it. */
  next(era: Era): GenTx {
    for (;;) {
      const k = this.rng.weighted(this.kindWeights);
      let tx: GenTx | null = null;
      if (k === 0) tx = this.transfer(era);
      else if (k === 1) tx = this.contracts.length ? ftCall(this, era) : this.deploy(era);
      else if (k === 2) tx = this.contracts.length ? nftCall(this, era) : this.deploy(era);
      else if (k === 3) tx = this.deploy(era);
      else tx = this.failedDeploy(era);
      if (tx) return tx;
    }
  }

  transfer(era: Era): GenTx {
    const acc = this.acc;
    const fee = this.fee(180, 20_000);
    let sponsored = this.rng.chance(this.opts.mix.sponsored);
    const sender = this.payer(sponsored ? 1 : fee + 1);
    const ownFee = sponsored ? 0 : fee;
    const amount = Math.max(1, Math.min(this.rng.logUniform(10_000, 10_000_000_000), acc.balance[sender] - ownFee));
    // Now and then to a contract principal (a deployed token contract).
    const toContract = this.contracts.length > 0 && this.rng.chance(0.01) ? this.rng.pick(this.contracts) : null;
    const recipient = toContract ? -1 : this.otherUser(sender);
    const recipientCv = toContract ? Cv.principal(acc.addr(toContract.deployer), toContract.spec.name) : this.principal(recipient);
    const memo = memoBytes(this.rng.pick(MEMOS));
    const withPc = this.rng.chance(0.05);
    const b = this.build(era, sender, fee, { type: 'token_transfer', recipient: recipientCv, amount, memo }, {
      sponsored,
      deny: withPc,
      postConditions: withPc ? [{ type: 'stx', principal: { type: 'origin' }, code: FungibleCode.SentEq, amount }] : [],
    });
    acc.balance[sender] -= amount;
    if (recipient >= 0) acc.balance[recipient] += amount;
    const to = toContract ? toContract.contractId : acc.address(recipient);
    sponsored = b.sponsor !== undefined;
    return this.finish(b, sender, fee, sponsored ? 'transfer-sponsored' : 'transfer', {
      result: '0x0703',
      cost: ZERO_COST,
      events: [stxTransfer(acc.address(sender), to, amount, memo.toString('hex'))],
    });
  }

  deploy(era: Era): GenTx {
    const fee = this.fee(10_000, 2_000_000);
    const deployer = this.payer(fee);
    const k = this.deployed++;
    const clarity = era === 'nakamoto' ? 3 : 2;
    const epoch = era === 'nakamoto' ? 'Epoch30' : 'Epoch21';
    const spec = this.rng.chance(0.6) ? ftContract(k, clarity, epoch) : nftContract(k, clarity, epoch);
    // Mostly versioned deploys (0x06); a few unversioned (0x01), which take the epoch's default version.
    const versioned = this.rng.chance(0.95);
    const b = this.build(era, deployer, fee, { type: 'smart_contract', name: spec.name, code: spec.code, clarityVersion: versioned ? clarity : undefined });
    const contractId = this.acc.contractId(deployer, spec.name);
    const assetId = `${contractId}::${spec.asset}`;
    const ref: ContractRef = { name: spec.name, asset: spec.asset, codeLength: spec.code.length, mintPrice: spec.mintPrice };
    const state: ContractState =
      spec.kind === 'ft'
        ? { kind: 'ft', spec: ref, deployer, contractId, assetId, treasury: Number(spec.supply), holders: [], amounts: [], cursor: 0 }
        : { kind: 'nft', spec: ref, deployer, contractId, assetId, lastId: 0, ids: [], owners: [], cursor: 0 };
    if (this.contracts.length < this.opts.maxContracts) this.contracts.push(state);
    else this.contracts[this.rng.int(this.contracts.length)] = state;
    const events = spec.kind === 'ft' ? [ftMint(assetId, this.acc.address(deployer), spec.supply)] : [];
    return this.finish(b, deployer, fee, `deploy-${spec.kind}`, { result: '0x0703', cost: deployCost(spec.code.length), events, abi: spec.abi });
  }

  failedDeploy(era: Era): GenTx {
    const fee = this.fee(10_000, 500_000);
    const deployer = this.payer(fee);
    const c = failingContract(this.deployed++);
    const b = this.build(era, deployer, fee, { type: 'smart_contract', name: c.name, code: c.code, clarityVersion: era === 'nakamoto' ? 3 : 2 });
    const cost = deployCost(c.code.length);
    return this.finish(b, deployer, fee, 'deploy-failed', {
      status: 'abort_by_response',
      result: '0x0809',
      cost: { ...cost, write_count: 0, write_length: 0 },
      vmError: c.vmError,
    });
  }

  /**
   * A tx that is announced to the mempool but never mined: a transfer with a nonce `gap` ahead of
   * the sender's next one. Changes no state (nonce, balance).
   */
  staleTx(era: Era, gap: number): GenTx {
    const acc = this.acc;
    const sender = this.user();
    const fee = this.fee(180, 5_000);
    const unsigned: UnsignedTx = {
      mainnet: this.opts.mainnet,
      chainId: this.opts.chainId,
      origin: acc.spend(sender, fee, this.rng, acc.nonce[sender] + gap),
      anchorMode: this.anchorMode(era),
      postConditionMode: PostConditionMode.Deny,
      postConditions: [],
      payload: { type: 'token_transfer', recipient: this.principal(this.otherUser(sender)), amount: this.rng.logUniform(1_000, 1_000_000_000), memo: memoBytes('') },
    };
    const enc = encodeTxWithId(unsigned);
    return { txid: enc.txid, raw: enc.raw, status: 'success', rawResult: '0x0703', cost: ZERO_COST, events: [], contractInterface: null, vmError: null, sender, nonce: acc.nonce[sender] + gap, fee, kind: 'stale' };
  }

  /** The tx `tx` replaced by fee: the same tx (same nonce) with a lower fee, as first submitted. */
  replacedOriginal(tx: GenTx): { txid: string; raw: string } {
    const u = tx.unsigned!;
    // Half the fee, and fresh (filler) signatures since the signed bytes changed.
    const resign = (c: SpendingCondition, fee: number): SpendingCondition =>
      c.kind === 'single' ? { ...c, fee, signature: signature(this.rng) } : { ...c, fee, signatures: c.signatures.map(() => signature(this.rng)) };
    const lower = (fee: number) => Math.max(1, Math.floor(fee / 2));
    const clone: UnsignedTx = u.sponsor ? { ...u, origin: resign(u.origin, 0), sponsor: resign(u.sponsor, lower(u.sponsor.fee)) } : { ...u, origin: resign(u.origin, lower(u.origin.fee)) };
    const enc = encodeTxWithId(clone);
    return { txid: enc.txid, raw: enc.raw };
  }
}
