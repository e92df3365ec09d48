// Tx documents rendered at ingest from the txs and event rows a payload decoded into — the rows
// ClickHouse stores — with the same formatter the ClickHouse read path uses, so both answer alike.
import type { Row } from '../rows.ts';
import type { EventKind, EventRow, PlacedTx } from '../../render/rows.ts';
import { formatMinedTx } from '../../render/tx.ts';
import { formatEvent } from '../../render/events.ts';
import { INLINE_EVENTS, TX_FLAGS, type CallPart, type StoredEvent, type TxDoc } from '../../serving/docs.ts';
import { decodedTxOf } from './decoded-txs.ts';
import { packTxDoc, storedEvent } from '../../serving/codec.ts';
import { hexBytes } from '../../serving/bytes.ts';
import type { EntryBlock, ServedTx } from '../../serving/input.ts';

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** An event table row -> the uniform EventRow the renderer reads (as the ClickHouse union selects it). */
const EVENT_ROW: Record<string, (r: Row) => Pick<EventRow, 'kind' | 'a' | 'b' | 'c' | 'd' | 'e'>> = {
  stx_events: (r) => ({ kind: 'stx_asset', a: str(r.asset_event_type), b: str(r.sender), c: str(r.recipient), d: str(r.amount), e: str(r.memo) }),
  stx_lock_events: (r) => ({ kind: 'stx_lock', a: str(r.locked_amount), b: str(r.unlock_height), c: str(r.locked_address), d: str(r.contract_name), e: '' }),
  ft_events: (r) => ({ kind: 'fungible_token_asset', a: str(r.asset_event_type), b: str(r.asset_identifier), c: str(r.sender), d: str(r.recipient), e: str(r.amount) }),
  nft_events: (r) => ({ kind: 'non_fungible_token_asset', a: str(r.asset_event_type), b: str(r.asset_identifier), c: str(r.sender), d: str(r.recipient), e: str(r.value) }),
  contract_logs: (r) => ({ kind: 'smart_contract_log', a: str(r.contract_identifier), b: str(r.topic), c: str(r.value), d: '', e: '' }),
};

export const EVENT_TABLES = Object.keys(EVENT_ROW);

const placementKey = (r: Row): string => `${r.tx_id}|${r.index_block_hash}|${r.microblock_hash}`;

/** Event rows of every table, per placement, in event_index order. */
export function eventsByPlacement(captured: ReadonlyMap<string, Row[]>): Map<string, EventRow[]> {
  const out = new Map<string, EventRow[]>();
  for (const table of EVENT_TABLES) {
    for (const r of captured.get(table) ?? []) {
      const e: EventRow = {
        tx_id: str(r.tx_id),
        index_block_hash: str(r.index_block_hash),
        microblock_hash: str(r.microblock_hash),
        event_index: Number(r.event_index),
        block_height: Number(r.block_height),
        tx_index: Number(r.tx_index),
        ...EVENT_ROW[table](r),
      } as EventRow & { kind: EventKind };
      const key = placementKey(r);
      let list = out.get(key);
      if (!list) out.set(key, (list = []));
      list.push(e);
    }
  }
  for (const list of out.values()) list.sort((a, b) => a.event_index - b.event_index);
  return out;
}

/** A txs row as the renderer reads it (numbers parsed), with placeholder canonical flags. */
function placedTx(r: Row): PlacedTx {
  return {
    tx_id: str(r.tx_id),
    index_block_hash: str(r.index_block_hash),
    microblock_hash: str(r.microblock_hash),
    block_hash: str(r.block_hash),
    block_height: Number(r.block_height),
    burn_block_time: Number(r.burn_block_time),
    burn_block_height: Number(r.burn_block_height),
    parent_burn_block_time: Number(r.parent_burn_block_time),
    block_time: Number(r.block_time),
    parent_block_hash: str(r.parent_block_hash),
    parent_index_block_hash: str(r.parent_index_block_hash),
    microblock_sequence: Number(r.microblock_sequence),
    microblock_parent_hash: str(r.microblock_parent_hash),
    tx_index: Number(r.tx_index),
    status: str(r.status),
    raw_tx: str(r.raw_tx),
    raw_result: str(r.raw_result),
    type_id: str(r.type_id),
    sender_address: str(r.sender_address),
    sponsor_address: str(r.sponsor_address),
    nonce: Number(r.nonce),
    fee_rate: str(r.fee_rate),
    contract_id: str(r.contract_id),
    function_name: str(r.function_name),
    event_count: Number(r.event_count),
    event_tables: Number(r.event_tables),
    execution_cost_read_count: Number(r.execution_cost_read_count),
    execution_cost_read_length: Number(r.execution_cost_read_length),
    execution_cost_runtime: Number(r.execution_cost_runtime),
    execution_cost_write_count: Number(r.execution_cost_write_count),
    execution_cost_write_length: Number(r.execution_cost_write_length),
    vm_error: r.vm_error === null || r.vm_error === undefined ? null : str(r.vm_error),
    burnchain_op: r.burnchain_op === null || r.burnchain_op === undefined ? null : str(r.burnchain_op),
    canonical: true,
    microblock_canonical: true,
    unanchored: str(r.index_block_hash) === '',
  };
}

/** The members of an object as JSON text without its braces. */
export function jsonMembers(obj: Record<string, unknown>): string {
  return JSON.stringify(obj).slice(1, -1);
}

/**
 * A contract_call object rendered without an ABI -> its parts: without an ABI each argument is
 * shown with its value's own type and no name, which the answer replaces when the ABI is known.
 */
export function callPartOf(call: Record<string, unknown>): CallPart {
  const args = (call.function_args as Array<{ hex: string; repr: string; type: string }> | undefined) ?? [];
  return { contract_id: str(call.contract_id), function_name: str(call.function_name), args: args.map((a) => [a.hex, a.repr, a.type]) };
}

/** The members of a tx answer its block gives (the same in each of its txs), in the answer's order. */
const PLACEMENT_MEMBERS = ['block_hash', 'block_height', 'block_time', 'block_time_iso', 'burn_block_time', 'burn_block_height', 'burn_block_time_iso', 'parent_burn_block_time', 'parent_burn_block_time_iso', 'parent_block_hash', 'is_unanchored'] as const;

/** The placement members of a rendered tx object as JSON text; they are left out of the object. */
function takePlacement(obj: Record<string, unknown>): string {
  const placement: Record<string, unknown> = {};
  for (const m of PLACEMENT_MEMBERS) {
    placement[m] = obj[m];
    obj[m] = undefined;
  }
  return jsonMembers(placement);
}

/** The documents of the captured txs rows, in row order, and the placement members they share with
 *  their block (`block`'s frame: block-record.ts), '' when the payload has no block. */
export function renderTxDocs(captured: ReadonlyMap<string, Row[]>, events = eventsByPlacement(captured), bootFrom = Infinity, block?: EntryBlock): { txs: ServedTx[]; placement: string } {
  let shared: string | undefined;
  const txs = (captured.get('txs') ?? []).map((r, index) => {
    const p = placedTx(r);
    const txEvents = events.get(placementKey(r)) ?? [];
    // Bitcoin-originated txs are shown from their events (the read path fetches the first 100).
    const obj = formatMinedTx(p, { abi: null, decoded: decodedTxOf.get(r) }, { events: p.raw_tx === '0x00' ? txEvents.filter((e) => e.event_index < 100) : undefined });
    const call = obj.contract_call as Record<string, unknown> | undefined;
    const nonce = Number(obj.nonce ?? 0);
    const sponsorNonce = obj.sponsor_nonce === undefined ? undefined : Number(obj.sponsor_nonce);
    // Left out of the body (undefined members are not serialized; `delete` would slow the object down).
    obj.canonical = obj.microblock_canonical = obj.events = obj.contract_call = undefined;
    const inBlock = !!block && !p.unanchored && p.index_block_hash === block.index_block_hash && p.block_height === block.block_height;
    let flags = p.unanchored ? TX_FLAGS.UNANCHORED : inBlock ? 0 : TX_FLAGS.OWN_PLACEMENT;
    if (inBlock) {
      // The block's txs share these members: the block's frame holds them once (one whose members
      // differ keeps its own).
      const placement = takePlacement(obj);
      shared ??= placement;
      if (placement !== shared) {
        Object.assign(obj, JSON.parse(`{${placement}}`));
        flags |= TX_FLAGS.FULL_BODY;
      }
    } else flags |= TX_FLAGS.FULL_BODY;
    const nft: Array<[number, string, string]> = [];
    const stored = txEvents.map((e): StoredEvent => {
      const obj = formatEvent(e);
      if (e.kind === 'non_fungible_token_asset') {
        const asset = obj.asset as { asset_id: string; value: { hex: string } };
        nft.push([e.event_index, asset.asset_id, asset.value.hex]);
      }
      const json = JSON.stringify(obj);
      const ev = storedEvent(e.event_index, e.kind, p.tx_id, json);
      if (!ev) throw new Error(`event ${e.event_index} of ${p.tx_id} is not rendered as expected: ${json.slice(0, 120)}`);
      return ev;
    });
    const body = jsonMembers(obj);
    if (!body.startsWith(`"tx_id":"${p.tx_id}"`) || p.tx_id.length !== 66) throw new Error(`tx ${p.tx_id}: its answer does not begin with its id`);
    const doc: TxDoc = {
      flags,
      body,
      event_count: p.event_count,
      sender_address: str(obj.sender_address),
      fee_rate: str(obj.fee_rate ?? '0'),
      microblock_hash: p.microblock_hash,
      microblock_sequence: p.microblock_sequence,
      tx_index: p.tx_index,
    };
    if (call) doc.call = callPartOf(call);
    doc.cold = { events: stored.filter(([i]) => i < INLINE_EVENTS), raw: hexBytes(p.raw_tx) };
    if (flags & TX_FLAGS.OWN_PLACEMENT) {
      doc.index_block_hash = p.index_block_hash;
      doc.block_height = p.block_height;
    }
    const { tx_id, index_block_hash, microblock_hash, block_height, microblock_sequence, tx_index } = p;
    return {
      doc: { tx_id, index_block_hash, microblock_hash, block_height, microblock_sequence, tx_index },
      packed: packTxDoc(doc),
      moreEvents: p.event_count > INLINE_EVENTS ? stored : undefined,
      nft: nft.length > 0 ? nft : undefined,
      nonce,
      sponsor_nonce: sponsorNonce,
      sponsor_address: p.sponsor_address,
      boot: index >= bootFrom,
    };
  });
  return { txs, placement: shared ?? '' };
}
