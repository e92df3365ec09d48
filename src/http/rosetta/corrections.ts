// A block's correcting transaction. Our blocks list their transactions' operations exactly as the
// reference does; where those do not add up to the balances, one transaction of our own, which the
// block names in `other_transactions` (Mesh's way to name transactions fetched apart, its id derived
// from the block's), sets them right:
// - STX locked again while locked (relock.ts): the part locked before is given back (stx_unlock);
// - an unlock the reference lists though a later operation superseded the lock (unlocks.ts): taken
//   back (stx_lock);
// - a sponsored tx's fee, which the reference's fee operation shows on the origin: given back to the
//   origin and charged to the sponsor (two fee operations).
import { createHash } from 'node:crypto';
import { STX } from './constants.ts';
import type { Operation } from './operations.ts';
import type { Relock } from './relock.ts';

export interface Corrections {
  relocks: readonly Relock[];
  /** Unlocks the block's coinbase lists though superseded, with that coinbase's id. */
  superseded: ReadonlyArray<{ stacker: string; amount: bigint; tx_id: string }>;
  /** Sponsored txs: the fee, the origin its operation names, the sponsor who paid it. */
  sponsored: ReadonlyArray<{ tx_id: string; origin: string; sponsor: string; fee: bigint }>;
}

export const noCorrections = (c: Corrections): boolean => c.relocks.length === 0 && c.superseded.length === 0 && c.sponsored.length === 0;

/** The id of a block's correcting transaction (the label of the first kind it held, so ids stay). */
export function correctionTxId(indexBlockHash: string): string {
  return `0x${createHash('sha512-256').update(`rosetta-relock:${indexBlockHash}`).digest('hex')}`;
}

const stx = (value: bigint) => ({ value: value.toString(), currency: { decimals: STX.decimals, symbol: STX.symbol } });

/** The correcting transaction of a block (see above). */
export function correctionTransaction(indexBlockHash: string, c: Corrections) {
  const ops: Array<Omit<Operation, 'operation_identifier'>> = [
    ...c.relocks.map((r) => ({ type: 'stx_unlock' as const, status: 'success', account: { address: r.stacker }, amount: stx(r.amount), metadata: { tx_id: r.tx_id, relock: true } })),
    ...c.superseded.map((u) => ({ type: 'stx_lock' as const, status: 'success', account: { address: u.stacker }, amount: stx(-u.amount), metadata: { tx_id: u.tx_id, superseded_unlock: true } })),
    ...c.sponsored.flatMap((f) => [
      { type: 'fee' as const, status: 'success', account: { address: f.origin }, amount: stx(f.fee), metadata: { tx_id: f.tx_id, sponsored: true } },
      { type: 'fee' as const, status: 'success', account: { address: f.sponsor }, amount: stx(-f.fee), metadata: { tx_id: f.tx_id, sponsored: true } },
    ]),
  ];
  const related = [...new Set([...c.relocks, ...c.superseded, ...c.sponsored].map((x) => x.tx_id))];
  return {
    transaction_identifier: { hash: correctionTxId(indexBlockHash) },
    operations: ops.map((op, index): Operation => ({ operation_identifier: { index }, ...op })),
    related_transactions: related.map((hash) => ({ transaction_identifier: { hash }, direction: 'backward' as const })),
    metadata: {
      description: 'Corrections of the operations of the related transactions: STX locked again while locked, counted once; unlocks listed for locks a later operation superseded, taken back; sponsored fees, charged to the sponsor',
    },
  };
}
