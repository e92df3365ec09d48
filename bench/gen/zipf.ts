// Zipf-distributed ranks in [1, n] with P(k) ∝ k^-s, drawn in O(1) by rejection-inversion
// (W. Hörmann, G. Derflinger, "Rejection-inversion to generate variates from monotone discrete
// distributions", 1996; the same algorithm as Apache Commons RNG's RejectionInversionZipfSampler).
// No table: works for n in the millions without memory.
import type { Rng } from './rng.ts';

/** (exp(x) - 1) / x, accurate near 0. */
function helper2(x: number): number {
  return Math.abs(x) > 1e-8 ? Math.expm1(x) / x : 1 + x * 0.5 * (1 + (x / 3) * (1 + 0.25 * x));
}

/** log(1 + x) / x, accurate near 0. */
function helper1(x: number): number {
  return Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1 - x * (0.5 - x * (1 / 3 - 0.25 * x));
}

export class Zipf {
  private readonly hIntegralX1: number;
  private readonly hIntegralN: number;
  private readonly sDiv: number;

  constructor(
    readonly n: number,
    readonly s: number,
  ) {
    if (!(n >= 1) || !(s > 0)) throw new Error(`Zipf needs n >= 1 and s > 0 (got n=${n}, s=${s})`);
    this.hIntegralX1 = this.hIntegral(1.5) - 1;
    this.hIntegralN = this.hIntegral(n + 0.5);
    this.sDiv = 2 - this.hIntegralInverse(this.hIntegral(2.5) - this.h(2));
  }

  private h(x: number): number {
    return Math.exp(-this.s * Math.log(x));
  }

  private hIntegral(x: number): number {
    const logX = Math.log(x);
    return helper2((1 - this.s) * logX) * logX;
  }

  private hIntegralInverse(x: number): number {
    let t = x * (1 - this.s);
    if (t < -1) t = -1;
    return Math.exp(helper1(t) * x);
  }

  /** A rank in [1, n]; rank 1 is the most frequent. */
  sample(rng: Rng): number {
    for (;;) {
      const u = this.hIntegralN + rng.float() * (this.hIntegralX1 - this.hIntegralN);
      const x = this.hIntegralInverse(u);
      let k = Math.floor(x + 0.5);
      if (k < 1) k = 1;
      else if (k > this.n) k = this.n;
      if (k - x <= this.sDiv || u >= this.hIntegral(k + 0.5) - this.h(k)) return k;
    }
  }
}

/** Generalized harmonic number H(n, s) = Σ k^-s, k = 1..n (exact sum up to 1e6 terms, then an integral tail). */
export function harmonic(n: number, s: number): number {
  const exact = Math.min(n, 1_000_000);
  let sum = 0;
  for (let k = exact; k >= 1; k--) sum += Math.pow(k, -s);
  if (n > exact) {
    // ∫ x^-s dx over [exact + 0.5, n + 0.5]
    const a = exact + 0.5;
    const b = n + 0.5;
    sum += s === 1 ? Math.log(b / a) : (Math.pow(b, 1 - s) - Math.pow(a, 1 - s)) / (1 - s);
  }
  return sum;
}

/** Expected share of the draws that land on rank k. */
export function zipfShare(n: number, s: number, k = 1): number {
  return Math.pow(k, -s) / harmonic(n, s);
}
