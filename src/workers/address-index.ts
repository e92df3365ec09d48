// Address-index rows written beside the event facts: one principal_events row per party of an
// asset event, STX lock or PoX operation (sql/0004_address_reads.sql). The roles are stacks/roles.ts.
import type { RowSet } from './rows.ts';
import type { EventPlacement } from '../serving/input.ts';

export interface PrincipalEventFields {
  kind: 'stx' | 'ft' | 'nft' | 'stx_lock' | 'pox2' | 'pox3' | 'pox4' | 'inbound';
  asset_event_type: string;
  asset_identifier?: string;
  sender?: string;
  recipient?: string;
  amount?: bigint | string;
  value?: string;
  memo?: string;
  unlock_height?: bigint | string;
  contract_name?: string;
}

/** One row per distinct non-empty principal in `principals`. */
export function addPrincipalEvent(rows: RowSet, at: EventPlacement, event_index: number, principals: string[], f: PrincipalEventFields): void {
  for (const principal of new Set(principals.filter(Boolean))) {
    rows.add('principal_events', {
      principal,
      block_height: at.block_height,
      microblock_sequence: at.microblock_sequence ?? 2147483647,
      tx_index: at.tx_index,
      event_index,
      tx_id: at.tx_id,
      index_block_hash: at.index_block_hash,
      microblock_hash: at.microblock_hash,
      kind: f.kind,
      asset_event_type: f.asset_event_type,
      asset_identifier: f.asset_identifier ?? '',
      sender: f.sender ?? '',
      recipient: f.recipient ?? '',
      amount: f.amount ?? 0n,
      value: f.value ?? '',
      memo: f.memo ?? '',
      unlock_height: f.unlock_height ?? 0n,
      contract_name: f.contract_name ?? '',
    });
  }
}
