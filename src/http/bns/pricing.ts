// BNS prices as the BNS contract computes them (get-namespace-price, get-name-price): a namespace by
// its length's tier; a name by its namespace's price function, its length's bucket exponent and its
// vowel / non-alpha discounts. Both in microSTX.
import type { NamespaceRow } from './queries.ts';

const NAMESPACE_PRICE_TIERS = [640000000000n, 64000000000n, 64000000000n, 6400000000n, 6400000000n, 6400000000n, 6400000000n, 640000000n];

/** The namespace's price, or undefined for a blank one (the contract's error). */
export function namespacePrice(namespace: Buffer): bigint | undefined {
  if (namespace.length === 0) return undefined;
  return NAMESPACE_PRICE_TIERS[Math.min(7, namespace.length - 1)];
}

const isVowel = (c: number) => [0x61, 0x65, 0x69, 0x6f, 0x75, 0x79].includes(c);
const isNonAlpha = (c: number) => (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f;

export function namePrice(name: Buffer, ns: NamespaceRow): bigint | undefined {
  const buckets = ns.buckets.split(',').filter(Boolean).map((b) => BigInt(b));
  if (name.length === 0 || buckets.length === 0) return undefined;
  const exponent = buckets[Math.min(15, name.length - 1)] ?? 0n;
  const noVowelDiscount = [...name].some(isVowel) ? 1n : BigInt(ns.no_vowel_discount);
  const nonAlphaDiscount = [...name].some(isNonAlpha) ? BigInt(ns.nonalpha_discount) : 1n;
  const divisor = nonAlphaDiscount > noVowelDiscount ? nonAlphaDiscount : noVowelDiscount;
  if (divisor === 0n) return undefined;
  return ((BigInt(ns.coeff) * BigInt(ns.base) ** exponent) / divisor) * 10n;
}
