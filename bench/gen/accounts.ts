// The generator's principals: users (ranked by activity, rank 1 = index 0), miners and sponsors.
// Per account it keeps only fixed-size typed-array state — hash160, hash mode, next nonce and an
// exact µSTX balance — so memory is O(accounts), independent of the chain length.
import * as crypto from 'node:crypto';
import { c32address } from '../../src/stacks/codec/c32.ts';
import type { Address } from '../../src/stacks/encode/clarity.ts';
import { HashMode, type SpendingCondition } from '../../src/stacks/encode/transaction.ts';
import { derive, type Rng } from './rng.ts';

export interface AccountsOptions {
  seed: string;
  mainnet: boolean;
  users: number;
  miners: number;
  sponsors: number;
  /** Share of users that are 2-of-3 multi-sig accounts (half ordered P2SH 0x01, half order-independent 0x05). */
  multisigShare: number;
}

const HOT = 1 << 16;

export class Accounts {
  readonly count: number;
  readonly users: number;
  readonly minerBase: number;
  readonly sponsorBase: number;
  readonly miners: number;
  readonly sponsors: number;
  private readonly hashes: Buffer;
  readonly hashMode: Uint8Array;
  /** Next nonce per account. */
  readonly nonce: Uint32Array;
  /** µSTX (integers below 2^53, exact in a double). */
  readonly balance: Float64Array;
  private readonly hot: (string | undefined)[] = [];
  private readonly pubkeys: Buffer[] = [];
  readonly boot: Address;
  readonly bootAddress: string;

  constructor(private readonly opts: AccountsOptions) {
    this.users = opts.users;
    this.miners = opts.miners;
    this.sponsors = opts.sponsors;
    this.minerBase = opts.users;
    this.sponsorBase = opts.users + opts.miners;
    this.count = opts.users + opts.miners + opts.sponsors;
    this.hashes = Buffer.allocUnsafe(20 * this.count);
    this.hashMode = new Uint8Array(this.count);
    this.nonce = new Uint32Array(this.count);
    this.balance = new Float64Array(this.count);
    for (let i = 0; i < this.count; i++) {
      const h = crypto.createHash('sha256').update(opts.seed).update('/account/').update(String(i)).digest();
      h.copy(this.hashes, 20 * i, 0, 20);
      // Users only: miners and sponsors are single-sig. The choice uses bytes past the hash160.
      const u = h.readUInt32BE(24) / 4294967296;
      if (i < this.users && u < opts.multisigShare) this.hashMode[i] = u < opts.multisigShare / 2 ? HashMode.P2SH : HashMode.P2SHNonSequential;
      else this.hashMode[i] = HashMode.P2PKH;
    }
    for (let k = 0; this.pubkeys.length < 32; k++) {
      try {
        const ecdh = crypto.createECDH('secp256k1');
        ecdh.setPrivateKey(derive(32, opts.seed, 'pubkey', k));
        this.pubkeys.push(ecdh.getPublicKey(null, 'compressed'));
      } catch {
        /* a private key >= n: try the next */
      }
    }
    this.boot = { version: opts.mainnet ? 22 : 26, hash160: Buffer.alloc(20) };
    this.bootAddress = c32address(this.boot.version, '00'.repeat(20));
  }

  hash160(i: number): Buffer {
    return this.hashes.subarray(20 * i, 20 * i + 20);
  }

  version(i: number): number {
    const single = this.hashMode[i] === HashMode.P2PKH;
    return this.opts.mainnet ? (single ? 22 : 20) : single ? 26 : 21;
  }

  addr(i: number): Address {
    return { version: this.version(i), hash160: this.hash160(i) };
  }

  /** c32 address ("SP…", "SM…"). */
  address(i: number): string {
    if (i < HOT) {
      const a = this.hot[i];
      if (a !== undefined) return a;
    }
    const a = c32address(this.version(i), this.hashes.toString('hex', 20 * i, 20 * i + 20));
    if (i < HOT) this.hot[i] = a;
    return a;
  }

  contractId(i: number, name: string): string {
    return `${this.address(i)}.${name}`;
  }

  isMultisig(i: number): boolean {
    return this.hashMode[i] !== HashMode.P2PKH;
  }

  miner(k: number): number {
    return this.minerBase + k;
  }

  sponsor(k: number): number {
    return this.sponsorBase + k;
  }

  /** Uses the account's next nonce and returns its spending condition with filler signatures. */
  spend(i: number, fee: number, rng: Rng, nonce = this.nonce[i]++): SpendingCondition {
    const mode = this.hashMode[i];
    if (mode === HashMode.P2PKH) return { kind: 'single', hashMode: mode, signer: this.hash160(i), nonce, fee, signature: signature(rng) };
    return {
      kind: 'multi',
      hashMode: mode,
      signer: this.hash160(i),
      nonce,
      fee,
      signatures: [signature(rng), signature(rng)],
      publicKeys: [this.pubkeys[(i * 3 + 2) % this.pubkeys.length]],
      required: 2,
    };
  }

  /** The 20-byte hash of a miner's block-signing key (tenure-change pubkey_hash). */
  minerKeyHash(i: number): Buffer {
    return derive(20, this.opts.seed, 'miner-key', i);
  }
}

/** 65 bytes shaped like a recoverable secp256k1 signature (recovery id, r, s); not a valid signature. */
export function signature(rng: Rng): Buffer {
  const s = rng.bytes(65);
  s[0] = s[0] & 1;
  return s;
}
