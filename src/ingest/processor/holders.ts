// FT and STX holders per asset (the reference's ft_balances): the running balances again, keyed by
// asset first so that one token's holders are read by key. As the reference keeps a row for every
// principal a change touched (a tx's fee payer even at fee 0), `touches` counts every change applied
// and only grows (an orphaned block's negated changes add one too): no row ever sums away.
import type { Batch } from './batch.ts';
import type { TxRef } from '../../workers/decoded.ts';
import { negatedAmount, type BalanceDelta } from '../../serving/input.ts';

export function addHolderRows(batch: Batch, deltas: BalanceDelta[], txs: readonly TxRef[], sign: 1 | -1): void {
  const rows = deltas.map((d) => ({ asset: d.asset, principal: d.principal, balance: sign === 1 ? d.balance : negatedAmount(d.balance), touches: 1 }));
  const changed = new Set(deltas.filter((d) => d.asset === 'stx').map((d) => d.principal));
  for (const t of txs) {
    const payer = t.sponsor_address || t.sender_address;
    if (payer && !changed.has(payer)) {
      changed.add(payer);
      rows.push({ asset: 'stx', principal: payer, balance: 0, touches: 1 });
    }
  }
  batch.addRows('ft_holders', rows);
}
