// Seeded PRNG for the synthetic chain generator: sfc32 (Chris Doty-Humphrey's Small Fast Counter,
// 128-bit state, passes PractRand) seeded through cyrb128 of a string. Every random choice of the
// generator comes from here (and from `derive` hashes), so a seed fully determines the output.
import * as crypto from 'node:crypto';

function cyrb128(str: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(readonly seed: string) {
    [this.a, this.b, this.c, this.d] = cyrb128(seed);
    for (let i = 0; i < 16; i++) this.u32();
  }

  /** An independent stream for one concern (adding draws to one stream leaves the others unchanged). */
  fork(label: string): Rng {
    return new Rng(`${this.seed}/${label}`);
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1) with 32 bits of resolution. */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** Index drawn with probability proportional to `weights[i]`. */
  weighted(weights: readonly number[], total?: number): number {
    let r = this.float() * (total ?? weights.reduce((a, b) => a + b, 0));
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i];
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /** log-uniform integer in [lo, hi] (amounts and fees spread over orders of magnitude). */
  logUniform(lo: number, hi: number): number {
    return Math.floor(Math.exp(Math.log(lo) + this.float() * (Math.log(hi + 1) - Math.log(lo))));
  }

  bytes(n: number): Buffer {
    const out = Buffer.allocUnsafe(n);
    let i = 0;
    for (; i + 4 <= n; i += 4) out.writeUInt32BE(this.u32(), i);
    if (i < n) {
      const last = this.u32();
      for (let k = 0; i < n; i++, k++) out[i] = (last >>> (24 - 8 * k)) & 0xff;
    }
    return out;
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = items[i];
      items[i] = items[j];
      items[j] = t;
    }
    return items;
  }
}

/** SHA-512/256 (the Stacks txid / block id hash). */
export function sha512_256(...parts: Uint8Array[]): Buffer {
  const h = crypto.createHash('sha512-256');
  for (const p of parts) h.update(p);
  return h.digest();
}

/** A deterministic pseudo-random hash of `n` bytes for a label (block hashes, consensus hashes, commits …). */
export function derive(n: number, seed: string, label: string, ...nums: number[]): Buffer {
  const h = crypto.createHash('sha512').update(seed).update('\u0000').update(label);
  for (const x of nums) h.update('\u0000' + x);
  const d = h.digest();
  return n <= 64 ? d.subarray(0, n) : Buffer.concat([d, derive(n - 64, seed, label + '+', ...nums)]);
}

export const hex0x = (b: Uint8Array): string => '0x' + Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
