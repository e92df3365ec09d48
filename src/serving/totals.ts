// Running totals of the canonical chain per principal and asset ('stx' or an FT asset id), and NFT
// counts per principal and asset: keyed [principal id, asset] (the id's 4 bytes, then the asset's
// UTF-8), values as varints. A batch's changes are summed here and written once at its end.
import type { Database } from 'lmdb';
import { ByteReader, ByteWriter } from './bytes.ts';
import type { Amount } from './input.ts';

/** Running totals of one principal in one asset, decimal strings. */
export interface BalanceTotals {
  balance: string;
  total_sent: string;
  total_received: string;
  total_fees_sent: string;
  total_miner_rewards: string;
}

export const TOTAL_KEYS = ['balance', 'total_sent', 'total_received', 'total_fees_sent', 'total_miner_rewards'] as const;
const ZERO: BalanceTotals = { balance: '0', total_sent: '0', total_received: '0', total_fees_sent: '0', total_miner_rewards: '0' };

export function assetKey(principalId: number, asset: string): Buffer {
  const a = Buffer.from(asset, 'utf8');
  const out = Buffer.allocUnsafe(4 + a.length);
  out.writeUInt32BE(principalId, 0);
  a.copy(out, 4);
  return out;
}

/** The keys of one principal's assets: [start, end). */
export const assetRange = (principalId: number) => ({ start: assetKey(principalId, ''), end: assetKey(principalId + 1, '') });
export const assetOfKey = (key: Buffer): string => key.toString('utf8', 4);

/** Totals in TOTAL_KEYS order. */
type Sums = bigint[];

const packSums = (t: Sums): Uint8Array => {
  const w = new ByteWriter(24);
  for (const v of t) w.signedBig(v);
  return w.bytes();
};

function readSums(bytes: Uint8Array): Sums {
  const r = new ByteReader(bytes);
  return TOTAL_KEYS.map(() => r.signedBig());
}

export const packTotals = (t: BalanceTotals): Uint8Array => packSums(TOTAL_KEYS.map((k) => BigInt(t[k])));

export function readTotals(bytes: Uint8Array): BalanceTotals {
  const sums = readSums(bytes);
  const t = { ...ZERO };
  TOTAL_KEYS.forEach((k, i) => (t[k] = sums[i].toString()));
  return t;
}

export const packNftCounts = ([sent, received]: [number, number]): Uint8Array => new ByteWriter(8).int(sent).int(received).bytes();
export function readNftCounts(bytes: Uint8Array): [number, number] {
  const r = new ByteReader(bytes);
  return [r.int(), r.int()];
}

/** Per principal id, per asset (no key text built per change). */
class ByPrincipal<V> {
  private readonly byId = new Map<number, Map<string, V>>();

  get(id: number, asset: string): V | undefined {
    return this.byId.get(id)?.get(asset);
  }

  set(id: number, asset: string, v: V): V {
    let m = this.byId.get(id);
    if (!m) this.byId.set(id, (m = new Map()));
    m.set(asset, v);
    return v;
  }

  *values(): Generator<V> {
    for (const m of this.byId.values()) yield* m.values();
  }
}

/** Totals and NFT counts of one batch, written once at the end. */
export class TotalsOverlay {
  private readonly balances = new ByPrincipal<{ key: Buffer; t: Sums }>();
  private readonly nft = new ByPrincipal<{ key: Buffer; c: [number, number] }>();

  constructor(
    private readonly balanceDb: Database<Buffer, Buffer>,
    private readonly nftDb: Database<Buffer, Buffer>,
  ) {}

  addBalance(principalId: number, asset: string, d: Record<(typeof TOTAL_KEYS)[number], Amount>, sign: 1 | -1): void {
    let e = this.balances.get(principalId, asset);
    if (!e) {
      const key = assetKey(principalId, asset);
      const stored = this.balanceDb.getBinaryFast(key);
      e = this.balances.set(principalId, asset, { key, t: stored ? readSums(stored) : TOTAL_KEYS.map(() => 0n) });
    }
    for (let i = 0; i < TOTAL_KEYS.length; i++) {
      const v = d[TOTAL_KEYS[i]];
      if (v !== 0 && v !== '0') e.t[i] += sign > 0 ? BigInt(v) : -BigInt(v);
    }
  }

  addNft(principalId: number, asset: string, sent: number, received: number, sign: 1 | -1): void {
    let e = this.nft.get(principalId, asset);
    if (!e) {
      const key = assetKey(principalId, asset);
      const stored = this.nftDb.getBinaryFast(key);
      e = this.nft.set(principalId, asset, { key, c: stored ? readNftCounts(stored) : [0, 0] });
    }
    e.c[0] += sign * sent;
    e.c[1] += sign * received;
  }

  /** Totals back at zero mean no canonical activity left (an orphaned block's): no entry, as a
   *  merged ClickHouse store shows it. */
  flush(tick: () => void = () => {}): void {
    for (const { key, t } of this.balances.values()) {
      tick();
      if (t.every((v) => v === 0n)) void this.balanceDb.remove(key);
      else void this.balanceDb.put(key, packSums(t) as Buffer);
    }
    for (const { key, c } of this.nft.values()) {
      tick();
      if (c[0] === 0 && c[1] === 0) void this.nftDb.remove(key);
      else void this.nftDb.put(key, packNftCounts(c) as Buffer);
    }
  }
}
