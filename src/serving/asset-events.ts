// A principal's asset events in one tx, for the with_transfers answers: its list entry names them
// (event index and kind), the tx's stored events hold them (cold documents, and txEvents past the
// first INLINE_EVENTS); each is read back into the shape the principal_events rows have.
import type { ServingStore } from './store.ts';
import type { AssetEvent, ColdDoc, StoredEvent } from './docs.ts';
import { INLINE_EVENTS } from './docs.ts';
import { coldDocOf } from './reads.ts';

const KINDS: Record<string, AssetEvent['kind']> = { stx_asset: 'stx', fungible_token_asset: 'ft', non_fungible_token_asset: 'nft' };

interface AssetJson {
  asset_event_type?: string;
  asset_id?: string;
  sender?: string;
  recipient?: string;
  amount?: string;
  value?: { hex?: string };
}

/** A stored STX, FT or NFT event as a principal_events row shows it; undefined for other kinds. */
export function assetEventOf([index, type, rest]: StoredEvent): AssetEvent | undefined {
  const kind = KINDS[type];
  if (!kind) return undefined;
  const a = (JSON.parse(`{${rest}}`) as { asset?: AssetJson }).asset ?? {};
  return {
    event_index: index,
    kind,
    asset_event_type: a.asset_event_type ?? '',
    asset_identifier: a.asset_id ?? '',
    sender: a.sender ?? '',
    recipient: a.recipient ?? '',
    amount: kind === 'nft' ? '0' : (a.amount ?? '0'),
    value: a.value?.hex ?? '',
  };
}

/** The events of placement `pid` named by `refs` ([event_index, code]), in their order. */
export function assetEventsOf(s: ServingStore, p: { pid: number; doc?: { cold?: ColdDoc } }, refs: ReadonlyArray<[number, number]>): AssetEvent[] {
  if (refs.length === 0) return [];
  const out: AssetEvent[] = [];
  // The placement's cold part when it was read with it; else the document is read for it.
  const inline = refs.some(([i]) => i < INLINE_EVENTS) ? ((p.doc?.cold ?? coldDocOf(s, p.pid))?.events ?? []) : [];
  for (const [index] of refs) {
    let stored: StoredEvent | undefined;
    if (index < INLINE_EVENTS) stored = inline.find((e) => e[0] === index);
    else {
      const v = s.txEvents.get([p.pid, index]);
      stored = v && [index, v[0], v[1]];
    }
    const e = stored && assetEventOf(stored);
    if (e) out.push(e);
  }
  return out;
}
