// The node's per-block events[] → event fact rows, the balance changes they make, and the
// principals each tx touches. Events are grouped per tx and renumbered 0..n-1 in node order; only
// events of successful txs count (the reference API drops the rest).
import type { RowSet } from './rows.ts';
import { DecodeError } from '../stacks/codec/bytes.ts';
import { ROLE, SEND_MANY_CONTRACTS } from '../stacks/roles.ts';
import { addPrincipalEvent } from './address-index.ts';
import { EVENT_TABLE_BIT, type EventTable } from '../storage/event-tables.ts';

export interface NodeEvent {
  txid: string;
  event_index: number;
  committed?: boolean;
  type: string;
  [key: string]: unknown;
}

export interface TxPlacement {
  tx_id: string;
  index_block_hash: string;
  microblock_hash: string;
  block_height: number;
  tx_index: number;
  /** For the address index's order (anchored txs: 2147483647). */
  microblock_sequence?: number;
}

/** Per tx: principal -> STX moved and the roles it plays (ROLE bits), for the address-history index. */
export type TouchMap = Map<string, { sent: bigint; received: bigint; roles: number }>;

export class BalanceSheet {
  readonly rows = new Map<string, { principal: string; asset: string; balance: bigint; sent: bigint; received: bigint; fees: bigint; rewards: bigint }>();

  private entry(principal: string, asset: string) {
    const key = `${principal}\u0000${asset}`;
    let e = this.rows.get(key);
    if (!e) this.rows.set(key, (e = { principal, asset, balance: 0n, sent: 0n, received: 0n, fees: 0n, rewards: 0n }));
    return e;
  }
  send(principal: string, asset: string, amount: bigint): void {
    const e = this.entry(principal, asset);
    e.balance -= amount;
    e.sent += amount;
  }
  receive(principal: string, asset: string, amount: bigint): void {
    const e = this.entry(principal, asset);
    e.balance += amount;
    e.received += amount;
  }
  fee(principal: string, amount: bigint): void {
    const e = this.entry(principal, 'stx');
    e.balance -= amount;
    e.fees += amount;
  }
  reward(principal: string, amount: bigint): void {
    const e = this.entry(principal, 'stx');
    e.balance += amount;
    e.rewards += amount;
  }
}

export function touch(map: TouchMap, principal: string | undefined, sent = 0n, received = 0n, roles = 0): void {
  if (!principal) return;
  const t = map.get(principal);
  if (t) {
    t.sent += sent;
    t.received += received;
    t.roles |= roles;
  } else map.set(principal, { sent, received, roles });
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const U128_MAX = (1n << 128n) - 1n;

/** A 128-bit amount; anything larger is malformed (ClickHouse would silently wrap it). */
export const u128Amount = (v: unknown): bigint => {
  const n = BigInt(typeof v === 'string' || typeof v === 'number' ? v : 0);
  if (n < 0n || n > U128_MAX) throw new DecodeError(`amount ${String(v).slice(0, 60)} does not fit in 128 bits`);
  return n;
};

/** Writes the rows of one tx's events; returns how many there were and the tables they went to
 *  (EVENT_TABLE_BIT set). */
export function writeTxEvents(events: NodeEvent[], at: TxPlacement, rows: RowSet, sheet: BalanceSheet, touched: TouchMap): { count: number; tables: number } {
  const sorted = [...events].sort((a, b) => a.event_index - b.event_index);
  let tables = 0;
  const addEvent = (table: EventTable, row: Record<string, unknown>): void => {
    tables |= EVENT_TABLE_BIT[table];
    rows.add(table, row);
  };
  const base = { tx_id: at.tx_id, index_block_hash: at.index_block_hash, microblock_hash: at.microblock_hash, block_height: at.block_height, tx_index: at.tx_index };
  sorted.forEach((ev, event_index) => {
    const body = (ev[ev.type] ?? {}) as Record<string, unknown>;
    const row = { ...base, event_index };
    switch (ev.type) {
      case 'stx_transfer_event': {
        const a = u128Amount(body.amount);
        addEvent('stx_events', { ...row, asset_event_type: 'transfer', sender: str(body.sender), recipient: str(body.recipient), amount: a, memo: str(body.memo) ? `0x${str(body.memo)}` : '' });
        sheet.send(str(body.sender), 'stx', a);
        sheet.receive(str(body.recipient), 'stx', a);
        touch(touched, str(body.sender), a, 0n, ROLE.STX_EVENT);
        touch(touched, str(body.recipient), 0n, a, ROLE.STX_EVENT);
        const memo = str(body.memo) ? `0x${str(body.memo)}` : '';
        addPrincipalEvent(rows, at, event_index, [str(body.sender), str(body.recipient)], { kind: 'stx', asset_event_type: 'transfer', sender: str(body.sender), recipient: str(body.recipient), amount: a, memo });
        if (memo) addPrincipalEvent(rows, at, event_index, [str(body.recipient)], { kind: 'inbound', asset_event_type: 'stx-transfer-memo', sender: str(body.sender), amount: a, memo });
        const next = sorted[event_index + 1];
        const log = next?.type === 'contract_event' ? (next.contract_event as Record<string, unknown> | undefined) : undefined;
        if (log && SEND_MANY_CONTRACTS.has(str(log.contract_identifier))) {
          addPrincipalEvent(rows, at, event_index, [str(body.recipient)], { kind: 'inbound', asset_event_type: 'bulk-send', sender: str(body.sender), amount: a, memo: str(log.raw_value) });
        }
        break;
      }
      case 'stx_mint_event': {
        const a = u128Amount(body.amount);
        addEvent('stx_events', { ...row, asset_event_type: 'mint', sender: '', recipient: str(body.recipient), amount: a, memo: '' });
        sheet.receive(str(body.recipient), 'stx', a);
        touch(touched, str(body.recipient), 0n, a, ROLE.STX_EVENT);
        addPrincipalEvent(rows, at, event_index, [str(body.recipient)], { kind: 'stx', asset_event_type: 'mint', recipient: str(body.recipient), amount: a });
        break;
      }
      case 'stx_burn_event': {
        const a = u128Amount(body.amount);
        addEvent('stx_events', { ...row, asset_event_type: 'burn', sender: str(body.sender), recipient: '', amount: a, memo: '' });
        sheet.send(str(body.sender), 'stx', a);
        touch(touched, str(body.sender), a, 0n, ROLE.STX_EVENT);
        addPrincipalEvent(rows, at, event_index, [str(body.sender)], { kind: 'stx', asset_event_type: 'burn', sender: str(body.sender), amount: a });
        break;
      }
      case 'stx_lock_event': {
        const contract = str(body.contract_identifier);
        const lock = {
          locked_amount: u128Amount(body.locked_amount),
          unlock_height: u128Amount(body.unlock_height),
          locked_address: str(body.locked_address),
          contract_name: contract ? contract.split('.')[1] ?? contract : 'pox',
        };
        addEvent('stx_lock_events', { ...row, ...lock });
        touch(touched, lock.locked_address, 0n, 0n, ROLE.OTHER);
        addPrincipalEvent(rows, at, event_index, [lock.locked_address], { kind: 'stx_lock', asset_event_type: 'lock', sender: lock.locked_address, amount: lock.locked_amount, unlock_height: lock.unlock_height, contract_name: lock.contract_name });
        break;
      }
      case 'ft_transfer_event':
      case 'ft_mint_event':
      case 'ft_burn_event': {
        const kind = ev.type.slice(3, -6);
        const a = u128Amount(body.amount);
        const asset = str(body.asset_identifier);
        addEvent('ft_events', { ...row, asset_event_type: kind, asset_identifier: asset, sender: str(body.sender), recipient: str(body.recipient), amount: a });
        if (body.sender) sheet.send(str(body.sender), asset, a);
        if (body.recipient) sheet.receive(str(body.recipient), asset, a);
        touch(touched, str(body.sender), 0n, 0n, ROLE.FT_EVENT);
        touch(touched, str(body.recipient), 0n, 0n, ROLE.FT_EVENT);
        addPrincipalEvent(rows, at, event_index, [str(body.sender), str(body.recipient)], { kind: 'ft', asset_event_type: kind, asset_identifier: asset, sender: str(body.sender), recipient: str(body.recipient), amount: a });
        break;
      }
      case 'nft_transfer_event':
      case 'nft_mint_event':
      case 'nft_burn_event': {
        const kind = ev.type.slice(4, -6);
        const nft = { asset_event_type: kind, asset_identifier: str(body.asset_identifier), sender: str(body.sender), recipient: str(body.recipient), value: str(body.raw_value) };
        addEvent('nft_events', { ...row, ...nft });
        touch(touched, nft.sender, 0n, 0n, ROLE.NFT_EVENT);
        touch(touched, nft.recipient, 0n, 0n, ROLE.NFT_EVENT);
        addPrincipalEvent(rows, at, event_index, [nft.sender, nft.recipient], { kind: 'nft', ...nft });
        break;
      }
      case 'contract_event':
        addEvent('contract_logs', { ...row, contract_identifier: str(body.contract_identifier), topic: str(body.topic), value: str(body.raw_value) });
        break;
      default:
        // Unknown kinds (e.g. subnet withdraw events) are kept in the raw log only.
        return;
    }
  });
  return { count: sorted.length, tables };
}
