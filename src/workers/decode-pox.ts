// PoX-2/3/4 operations: the boot contracts print `(ok (tuple (name ..) (stacker ..) (locked ..)
// (balance ..) (burnchain-unlock-height ..) (data (tuple ..))))` for every stacking call.
import type { RowSet } from './rows.ts';
import type { NodeEvent, TxPlacement } from './decode-tx-events.ts';
import { decodePoxPrint } from '../stacks/pox-print.ts';
import { poxLockState } from '../stacks/roles.ts';
import { addPrincipalEvent } from './address-index.ts';

const POX_CONTRACT = /^S[PT]000000000000000000002(Q6VF78|AMW42H)\.(pox-[234])$/;

export function writePoxEvents(events: NodeEvent[], at: TxPlacement, rows: RowSet): void {
  const sorted = [...events].sort((a, b) => a.event_index - b.event_index);
  sorted.forEach((ev, event_index) => {
    if (ev.type !== 'contract_event') return;
    const body = ev.contract_event as { contract_identifier?: string; topic?: string; raw_value?: string } | undefined;
    const m = POX_CONTRACT.exec(body?.contract_identifier ?? '');
    if (!m || body?.topic !== 'print' || !body.raw_value) return;
    const op = decodePoxPrint(body.raw_value);
    if (!op) return;
    rows.add('pox_events', {
      pox_version: m[2].replace('-', ''),
      block_height: at.block_height,
      tx_index: at.tx_index,
      event_index,
      tx_id: at.tx_id,
      index_block_hash: at.index_block_hash,
      microblock_hash: at.microblock_hash,
      ...op,
    });
    const { locked, unlock } = poxLockState(op);
    const kind = m[2].replace('-', '') as 'pox2' | 'pox3' | 'pox4';
    addPrincipalEvent(rows, at, event_index, [op.stacker], { kind, asset_event_type: op.name, amount: locked, unlock_height: unlock });
  });
}
