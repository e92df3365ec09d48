// Test helper: what a subscriber received, checked against the REST answers and for order.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { SHARED } from '../service.ts';
import type { Interest, Received } from './collect.ts';
import { isValidPrincipal } from '../../stacks/codec/index.ts';

/** The txs and principals a fixture's reference answers name (to subscribe to up front). */
export function interestOf(fixture: string): Interest {
  const txIds = new Set<string>();
  const principals = new Set<string>();
  for (const line of gunzipSync(readFileSync(join(SHARED, 'goldens', `${fixture}.jsonl.gz`))).toString('utf8').split('\n')) {
    if (!line) continue;
    const url = (JSON.parse(line) as { url: string }).url;
    const tx = /^\/extended\/v1\/tx\/(0x[0-9a-f]{64})$/.exec(url);
    if (tx) txIds.add(tx[1]);
    const p = /^\/extended\/v1\/address\/([A-Za-z0-9.\-_]+)\/stx$/.exec(url);
    if (p) principals.add(p[1]);
  }
  // (The goldens also ask about invalid principals; those are refused as topics.)
  return { txIds: [...txIds].sort(), principals: [...principals].filter(isValidPrincipal).sort() };
}

const cursorNumbers = (c: string): [number, number] => c.split(':').map(Number) as [number, number];

/** Cursors strictly increasing: nothing twice, nothing out of order. */
export function assertInOrder(got: readonly Received[], what: string): void {
  for (let i = 1; i < got.length; i++) {
    const [a, ai] = cursorNumbers(got[i - 1].cursor);
    const [b, bi] = cursorNumbers(got[i].cursor);
    assert.ok(b > a || (b === a && bi > ai), `${what}: message ${i} (${got[i].kind} ${got[i].key} at ${got[i].cursor}) comes after ${got[i - 1].cursor}`);
  }
}

export const sequenceOf = (got: readonly Received[]) => got.map((r) => `${r.cursor} ${r.kind} ${r.key}`);

const RPC_EXTRAS: Record<string, string[]> = { 'address-transaction': ['address', 'tx_id', 'tx_status', 'tx_type'], 'address-stx-balance': ['address'] };

function restUrl(r: Received): string | undefined {
  switch (r.kind) {
    case 'block':
      return `/extended/v1/block/by_height/${r.key}`;
    case 'microblock':
      return `/extended/v1/microblock/${r.key}`;
    case 'mempool':
    case 'transaction':
      return `/extended/v1/tx/${r.key}?unanchored=true`;
    case 'address-transaction': {
      const [p, tx] = r.key.split('|');
      return `/extended/v1/address/${p}/${tx}/with_transfers`;
    }
    case 'address-stx-balance':
      return `/extended/v1/address/${r.key}/stx`;
    case 'nft-event': {
      const [tx, index] = r.key.split('|');
      return `/extended/v1/tx/${tx}?event_offset=${index}&event_limit=1`;
    }
    default:
      return undefined;
  }
}

/** The reference's NftEvent as the tx's answer (one event page) shows it. */
function nftEventOf(tx: Record<string, unknown>): Record<string, unknown> {
  const e = (tx.events as Array<{ event_index: number; asset: Record<string, unknown> }>)[0];
  const { asset_id, asset_event_type, value, sender, recipient } = e.asset;
  return { asset_identifier: asset_id, asset_event_type, value, tx_id: tx.tx_id, tx_index: tx.tx_index, block_height: tx.block_height, event_index: e.event_index, ...(sender ? { sender } : {}), ...(recipient ? { recipient } : {}) };
}

/**
 * The last message about each object equals the REST answer for it fetched now (a block: the last
 * one at its height). `rpc`: the JSON-RPC notification adds the reference's extra members.
 */
export async function assertMatchesRest(apiUrl: string, got: readonly Received[], rpc: boolean): Promise<number> {
  const last = new Map<string, Received>();
  for (const r of got) {
    const url = restUrl(r);
    if (url) last.set(url, r);
  }
  for (const [url, r] of last) {
    const res = await fetch(`${apiUrl}${url}`);
    assert.equal(res.status, 200, `GET ${url}`);
    const payload = { ...r.payload };
    if (rpc) for (const k of RPC_EXTRAS[r.kind] ?? []) delete payload[k];
    const body = (await res.json()) as Record<string, unknown>;
    // A block's microblock lists grow as streams build on it after it joined; the `microblock`
    // topic announces those (the reference does not announce the block again either).
    if (r.kind === 'block' && (body.microblocks_streamed as unknown[]).length > 0) {
      for (const k of ['microblocks_streamed', 'microblocks_accepted', 'microblock_tx_count']) {
        delete payload[k];
        delete body[k];
      }
    }
    assert.deepEqual(payload, r.kind === 'nft-event' ? nftEventOf(body) : body, `${r.kind} message at ${r.cursor} vs GET ${url}`);
  }
  return last.size;
}

/** Waits until no message arrived for `quietMs`. */
export async function settle(lists: ReadonlyArray<readonly unknown[]>, quietMs = 700, timeoutMs = 30_000): Promise<void> {
  const total = () => lists.reduce((n, l) => n + l.length, 0);
  const until = Date.now() + timeoutMs;
  let seen = -1;
  while (total() !== seen && Date.now() < until) {
    seen = total();
    await new Promise((r) => setTimeout(r, quietMs));
  }
}
