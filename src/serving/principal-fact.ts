// What a principal did in one tx, as its list entry keeps it (principal-list.ts): STX sent and
// received, its nonces, and which of the tx's events are its asset events (the events themselves
// are the tx's, read from its document when a with_transfers answer lists them).
import { ByteReader, ByteWriter } from './bytes.ts';
import type { PrincipalTxFact } from './docs.ts';

const HAS_NONCE = 1;
const HAS_SPONSOR_NONCE = 2;

export function packFact(f: PrincipalTxFact): Uint8Array {
  const flags = (f.nonce === undefined ? 0 : HAS_NONCE) | (f.sponsor_nonce === undefined ? 0 : HAS_SPONSOR_NONCE);
  const w = new ByteWriter(16 + f.events.length * 3).u8(flags).big(BigInt(f.stx_sent)).big(BigInt(f.stx_received));
  if (f.nonce !== undefined) w.uint(f.nonce);
  if (f.sponsor_nonce !== undefined) w.uint(f.sponsor_nonce);
  w.uint(f.events.length);
  for (const [index, code] of f.events) w.uint(index).u8(code);
  return w.bytes();
}

/** Only the fact's own nonce (undefined without one): the processor reads it per committed entry. */
export function factNonce(bytes: Uint8Array): number | undefined {
  return bytes[0] & HAS_NONCE ? new ByteReader(bytes, 1).skipVarint().skipVarint().uint() : undefined;
}

export function readFact(bytes: Uint8Array, roles: number): PrincipalTxFact {
  const r = new ByteReader(bytes);
  const flags = r.u8();
  const fact: PrincipalTxFact = { roles, stx_sent: r.big().toString(), stx_received: r.big().toString(), events: [] };
  if (flags & HAS_NONCE) fact.nonce = r.uint();
  if (flags & HAS_SPONSOR_NONCE) fact.sponsor_nonce = r.uint();
  const n = r.uint();
  for (let i = 0; i < n; i++) fact.events.push([r.uint(), r.u8()]);
  return fact;
}
