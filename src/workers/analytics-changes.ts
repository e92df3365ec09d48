// What one block adds to the analytics aggregates (sql/0007_analytics.sql), computed in the decode
// worker from the very rows ClickHouse gets for the block (txs, events, contracts) and its balance
// changes. The processor adds these, with the block's time buckets and a sign, when the block
// becomes canonical and again negated when it is orphaned (src/ingest/processor/analytics.ts); a
// block no longer in memory is decoded again from its event-log entry to undo it.
import type { Row } from './rows.ts';
import type { AnalyticsChanges } from './decoded.ts';
import { amountOf, type BalanceDelta } from '../serving/input.ts';

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
const big = (v: unknown): bigint => BigInt(str(v) || '0');

/** The kinds, as AnalyticsChanges numbers them (the processor's own kinds after them). */
export const ANALYTICS_KINDS = ['tx', 'ptx', 'deploy', 'stx_xfer', 'call', 'caller', 'cevents', 'ft', 'nft', 'flow_in', 'flow_out', 'hold', 'pbal', 'pstx'] as const;
export type AnalyticsKind = (typeof ANALYTICS_KINDS)[number];
const KIND_CODE = new Map<string, number>(ANALYTICS_KINDS.map((k, i) => [k, i]));

/** A change's key: its kind and keys joined by NUL (which none of them holds). */
export const changeKey = (kind: string, a: string, b: string, c: string): string => `${kind}\u0000${a}\u0000${b}\u0000${c}`;
/** [kind, a, b, c] of a key. */
export const keysOf = (key: string): [string, string, string, string] => key.split('\u0000') as [string, string, string, string];

/** A block without changes (never written to). */
export const NO_ANALYTICS: AnalyticsChanges = { keys: [], kinds: [], n: [], amounts: [] };

/** Changes keyed by kind and keys, summed. */
class ChangeSet {
  private readonly byKey = new Map<string, { kind: number; n: number; amount: bigint }>();

  add(kind: AnalyticsKind, a: string, b: string, c: string, n: number, amount: bigint): void {
    const key = changeKey(kind, a, b, c);
    const cur = this.byKey.get(key);
    if (cur) {
      cur.n += n;
      cur.amount += amount;
    } else this.byKey.set(key, { kind: KIND_CODE.get(kind)!, n, amount });
  }

  list(): AnalyticsChanges {
    const out: AnalyticsChanges = { keys: [], kinds: [], n: [], amounts: [] };
    for (const [key, c] of this.byKey) {
      if (c.n === 0 && c.amount === 0n) continue;
      out.keys.push(key);
      out.kinds.push(c.kind);
      out.n.push(c.n);
      out.amounts.push(amountOf(c.amount));
    }
    return out;
  }
}

/**
 * Kinds (a / b / c keys; n and amount summed):
 * - tx: type_id / '' or 'failed' / '' or 'micro' — txs, fees (amount)
 * - ptx: principal — txs it sent (n), fees it paid (amount)
 * - deploy: contracts deployed by successful txs (n)
 * - stx_xfer: STX transfer events (n), STX moved (amount)
 * - call: contract / function — calls (n), fees (amount); caller: contract / sender (n)
 * - cevents: contract — print events it emitted (n)
 * - ft / nft: asset / event type — events (n), amount (ft)
 * - flow_in / flow_out: principal / asset ('stx' or the FT) / counterparty — transfers (n), amount
 * - hold: FT asset / principal — balance change; pbal: principal / 'stx' — STX balance change
 * - pstx: principal / 'in' or 'out' — its STX transfers with all counterparties summed (n), amount
 */
export function analyticsChanges(captured: ReadonlyMap<string, Row[]>, deltas: readonly BalanceDelta[]): AnalyticsChanges {
  const set = new ChangeSet();
  const rows = (table: string) => captured.get(table) ?? [];
  const ok = new Set<string>();
  for (const t of rows('txs')) {
    const success = t.status === 'success';
    if (success) ok.add(`${str(t.tx_id)}|${str(t.microblock_hash)}`);
    const fee = big(t.fee_rate);
    const sender = str(t.sender_address);
    const payer = str(t.sponsor_address) || sender;
    set.add('tx', str(t.type_id), success ? '' : 'failed', t.microblock_hash ? 'micro' : '', 1, fee);
    if (sender) set.add('ptx', sender, '', '', 1, 0n);
    if (payer && fee !== 0n) set.add('ptx', payer, '', '', 0, fee);
    if (t.type_id === 'contract_call') {
      const contract = str(t.contract_id);
      set.add('call', contract, str(t.function_name), '', 1, fee);
      set.add('caller', contract, sender, '', 1, 0n);
    }
  }
  for (const c of rows('contracts')) if (ok.has(`${str(c.tx_id)}|${str(c.microblock_hash)}`)) set.add('deploy', '', '', '', 1, 0n);
  const flow = (asset: string, sender: string, recipient: string, amount: bigint) => {
    set.add('flow_out', sender, asset, recipient, 1, amount);
    set.add('flow_in', recipient, asset, sender, 1, amount);
    if (asset !== 'stx') return;
    set.add('pstx', sender, 'out', '', 1, amount);
    set.add('pstx', recipient, 'in', '', 1, amount);
  };
  for (const e of rows('stx_events')) {
    if (e.asset_event_type !== 'transfer') continue;
    const amount = big(e.amount);
    set.add('stx_xfer', '', '', '', 1, amount);
    flow('stx', str(e.sender), str(e.recipient), amount);
  }
  for (const e of rows('ft_events')) {
    const asset = str(e.asset_identifier);
    const amount = big(e.amount);
    set.add('ft', asset, str(e.asset_event_type), '', 1, amount);
    if (e.asset_event_type === 'transfer') flow(asset, str(e.sender), str(e.recipient), amount);
  }
  for (const e of rows('nft_events')) set.add('nft', str(e.asset_identifier), str(e.asset_event_type), '', 1, 0n);
  for (const e of rows('contract_logs')) set.add('cevents', str(e.contract_identifier), '', '', 1, 0n);
  for (const d of deltas) {
    const change = big(d.balance);
    if (change === 0n) continue;
    if (d.asset === 'stx') set.add('pbal', d.principal, 'stx', '', 0, change);
    else set.add('hold', d.asset, d.principal, '', 0, change);
  }
  return set.list();
}
