// A principal's asset events in one tx -> the with_transfers lists and the v2 per-tx counts.
import { clarityValue } from './values.ts';
import type { PrincipalEventRow } from './rows.ts';

/**
 * The with_transfers lists of one tx: the principal's STX, FT and NFT events, newest first (as the
 * reference joins them). The single-tx view keeps the token lists the reference later dropped.
 */
export function formatTransfers(events: PrincipalEventRow[]) {
  const sorted = [...events].sort((a, b) => b.event_index - a.event_index);
  return {
    stx_transfers: sorted.filter((e) => e.kind === 'stx').map((e) => ({ amount: e.amount, sender: e.sender, recipient: e.recipient })),
    ft_transfers: sorted.filter((e) => e.kind === 'ft').map((e) => ({ asset_identifier: e.asset_identifier, amount: e.amount, sender: e.sender, recipient: e.recipient })),
    nft_transfers: sorted.filter((e) => e.kind === 'nft').map((e) => ({ asset_identifier: e.asset_identifier, value: clarityValue(e.value), sender: e.sender, recipient: e.recipient })),
  };
}

/** Per-kind counts of the principal's STX/FT/NFT events in one tx (v2 address transactions). */
export function eventCounts(events: PrincipalEventRow[]) {
  const count = (kind: string, type: string) => events.filter((e) => e.kind === kind && e.asset_event_type === type).length;
  const of = (kind: string) => ({ transfer: count(kind, 'transfer'), mint: count(kind, 'mint'), burn: count(kind, 'burn') });
  return { stx: of('stx'), ft: of('ft'), nft: of('nft') };
}
