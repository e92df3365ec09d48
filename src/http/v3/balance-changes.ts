// A principal's balance changes in one tx, by asset, as the reference records them: the fee payer
// sent the fee (a row even for a zero fee), each STX/FT event moves its amount, each NFT event
// one token. Sorted by asset type (STX 1, FT 2, NFT 3), then asset identifier.
import type { V1Event } from './event-shape.ts';
import type { V1Tx } from './tx-shape.ts';

export const ASSET_TYPE = { stx: 1, ft: 2, nft: 3 } as const;
type AssetType = keyof typeof ASSET_TYPE;

export interface BalanceChange {
  type: AssetType;
  identifier: string;
  sent: bigint;
  received: bigint;
}

/** The principal's balance changes in the tx (all of its events given). */
export function balanceChangesIn(principal: string, tx: V1Tx, events: readonly V1Event[]): BalanceChange[] {
  const changes = new Map<string, BalanceChange>();
  const add = (type: AssetType, identifier: string, sent: bigint, received: bigint) => {
    const key = `${type}|${identifier}`;
    const c = changes.get(key) ?? { type, identifier, sent: 0n, received: 0n };
    c.sent += sent;
    c.received += received;
    changes.set(key, c);
  };
  const feePayer = tx.sponsored && tx.sponsor_address ? tx.sponsor_address : tx.sender_address;
  if (feePayer === principal) add('stx', 'stx', BigInt(tx.fee_rate), 0n);
  for (const e of events) {
    const a = e.asset;
    if (!a) continue;
    const type: AssetType | undefined = e.event_type === 'stx_asset' ? 'stx' : e.event_type === 'fungible_token_asset' ? 'ft' : e.event_type === 'non_fungible_token_asset' ? 'nft' : undefined;
    if (!type) continue;
    const amount = type === 'nft' ? 1n : BigInt(a.amount ?? '0');
    const id = type === 'stx' ? 'stx' : (a.asset_id ?? '');
    if (a.asset_event_type !== 'mint' && a.sender === principal) add(type, id, amount, 0n);
    if (a.asset_event_type !== 'burn' && a.recipient === principal) add(type, id, 0n, amount);
  }
  return [...changes.values()].sort((x, y) => ASSET_TYPE[x.type] - ASSET_TYPE[y.type] || (x.identifier < y.identifier ? -1 : x.identifier > y.identifier ? 1 : 0));
}

/** The `asset_type:asset_identifier` cursor of a change. */
export const assetCursorOf = (c: BalanceChange): string => `${ASSET_TYPE[c.type]}:${c.identifier}`;

/** The change as the v3 lists show it. */
export function changeJson(c: BalanceChange) {
  return {
    asset: c.type === 'stx' ? { type: 'stx' } : { type: c.type, identifier: c.identifier },
    balance_change: { sent: c.sent.toString(), received: c.received.toString(), net: (c.received - c.sent).toString() },
  };
}

/** Whether `c` is at or after the asset cursor `type:identifier` (in list order). */
export function atOrAfterAsset(c: BalanceChange, cursor: string): boolean {
  const i = cursor.indexOf(':');
  const type = Number(cursor.slice(0, i));
  const id = cursor.slice(i + 1);
  return ASSET_TYPE[c.type] > type || (ASSET_TYPE[c.type] === type && c.identifier >= id);
}
