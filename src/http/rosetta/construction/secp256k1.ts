// secp256k1 public keys and recoverable signatures, as far as the construction endpoints need them:
// validating a public key (Node's ECDH decodes and checks the point) and recovering the key a
// recoverable ECDSA signature was made with, to check it before a tx carries it. Node's crypto
// cannot verify a signature over a given 32-byte digest, so recovery is done here, on BigInt
// affine arithmetic (a few milliseconds; nothing here handles secrets).
import { ECDH } from 'node:crypto';

const P = 2n ** 256n - 2n ** 32n - 977n;
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const G = { x: 0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n, y: 0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8n };

/** Jacobian coordinates (x = X/Z², y = Y/Z³); Z = 0 is the point at infinity. */
type Jacobian = [bigint, bigint, bigint];
const INFINITY: Jacobian = [0n, 1n, 0n];

const mod = (a: bigint, m: bigint): bigint => ((a % m) + m) % m;

function inverse(a: bigint, m: bigint): bigint {
  let [r0, r1] = [mod(a, m), m];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  return mod(s0, m);
}

function pow(b: bigint, e: bigint, m: bigint): bigint {
  let r = 1n;
  b = mod(b, m);
  for (; e > 0n; e >>= 1n, b = (b * b) % m) if (e & 1n) r = (r * b) % m;
  return r;
}

function double([x, y, z]: Jacobian): Jacobian {
  if (z === 0n || y === 0n) return INFINITY;
  const a = (x * x) % P;
  const b = (y * y) % P;
  const c = (b * b) % P;
  const d = mod(2n * ((x + b) * (x + b) - a - c), P);
  const e = (3n * a) % P;
  const x3 = mod(e * e - 2n * d, P);
  return [x3, mod(e * (d - x3) - 8n * c, P), (2n * y * z) % P];
}

function add(p: Jacobian, q: Jacobian): Jacobian {
  if (p[2] === 0n) return q;
  if (q[2] === 0n) return p;
  const z1z1 = (p[2] * p[2]) % P;
  const z2z2 = (q[2] * q[2]) % P;
  const u1 = (p[0] * z2z2) % P;
  const u2 = (q[0] * z1z1) % P;
  const s1 = (p[1] * q[2] * z2z2) % P;
  const s2 = (q[1] * p[2] * z1z1) % P;
  if (u1 === u2) return s1 === s2 ? double(p) : INFINITY;
  const h = mod(u2 - u1, P);
  const i = (4n * h * h) % P;
  const j = (h * i) % P;
  const r = mod(2n * (s2 - s1), P);
  const v = (u1 * i) % P;
  const x3 = mod(r * r - j - 2n * v, P);
  return [x3, mod(r * (v - x3) - 2n * s1 * j, P), mod(((p[2] + q[2]) ** 2n - z1z1 - z2z2) * h, P)];
}

function multiply(p: Jacobian, k: bigint): Jacobian {
  let r = INFINITY;
  for (let q = p; k > 0n; k >>= 1n, q = double(q)) if (k & 1n) r = add(r, q);
  return r;
}

function affine([x, y, z]: Jacobian): { x: bigint; y: bigint } | undefined {
  if (z === 0n) return undefined;
  const zi = inverse(z, P);
  const zi2 = (zi * zi) % P;
  return { x: (x * zi2) % P, y: (y * zi2 * zi) % P };
}

const toBig = (b: Uint8Array): bigint => BigInt(`0x${Buffer.from(b).toString('hex') || '0'}`);
const to32 = (n: bigint): Buffer => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');

/** The 65-byte uncompressed form of a valid public key (33 or 65 bytes), or undefined. */
export function uncompressed(publicKey: Uint8Array): Buffer | undefined {
  if (publicKey.length !== 33 && publicKey.length !== 65) return undefined;
  try {
    return ECDH.convertKey(Buffer.from(publicKey), 'secp256k1', undefined, undefined, 'uncompressed') as Buffer;
  } catch {
    return undefined;
  }
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/**
 * Whether `signature` (65 bytes: r, s, recovery id — Mesh's ecdsa_recovery order) over `digest`
 * was made by `publicKey`. The node recovers the key from the signature, so the recovery id must
 * be right, and it accepts only low-S signatures.
 */
export function checkRecoverableSignature(digest: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): SignatureCheck {
  const pub = uncompressed(publicKey);
  if (!pub) return { ok: false, reason: 'the public key is not a secp256k1 point' };
  if (digest.length !== 32 || signature.length !== 65) return { ok: false, reason: 'a signature is 65 bytes over a 32-byte payload' };
  const r = toBig(signature.subarray(0, 32));
  const s = toBig(signature.subarray(32, 64));
  const v = signature[64];
  if (r === 0n || r >= N || s === 0n || s >= N) return { ok: false, reason: 'r or s is out of range' };
  if (s > N / 2n) return { ok: false, reason: 'high-S signature (the node takes low-S only)' };
  if (v > 3) return { ok: false, reason: `recovery id ${v} (expected 0-3)` };
  const x = r + (v >= 2 ? N : 0n);
  if (x >= P) return { ok: false, reason: 'r does not name a curve point' };
  let y = pow(mod(x * x * x + 7n, P), (P + 1n) / 4n, P);
  if (mod(y * y, P) !== mod(x * x * x + 7n, P)) return { ok: false, reason: 'r does not name a curve point' };
  if ((y & 1n) !== BigInt(v & 1)) y = P - y;
  const rInv = inverse(r, N);
  const q = affine(add(multiply([x, y, 1n], mod(s * rInv, N)), multiply([G.x, G.y, 1n], mod(-toBig(digest) * rInv, N))));
  if (!q) return { ok: false, reason: 'the signature recovers no key' };
  const recovered = Buffer.concat([Buffer.of(4), to32(q.x), to32(q.y)]);
  return recovered.equals(pub) ? { ok: true } : { ok: false, reason: 'the signature was not made with this public key' };
}
