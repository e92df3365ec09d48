// Block answers from the serving store: each block's stored document and whether it is canonical.
// A block that took part in an epoch 2.x microblock stream (it accepted one, or one was streamed
// after it) also lists the canonical microblocks, read from the store's microblock refs.
import { blockDocAt, blockDocOf, blockRecordOf, blocksAt, indexHashesAt, indexHashesDown, indexHashesOfBlockHash } from '../../serving/block-reads.ts';
import { blockV1JsonOfRecord } from '../../serving/block-record.ts';
import { writeMinedTxItem } from '../tx/served.ts';
import { lendWriter, returnWriter } from '../../server/json-bytes.ts';
import { JsonText } from '../../server/json-text.ts';
import { identityTagOf } from '../conventions/etag.ts';
import { acceptsMicroblocks, type BlockDoc } from '../../serving/docs.ts';
import type { BlockRow, MicroblockInfo } from '../../render/rows.ts';
import { formatBlockV1, formatBlockV2 } from '../../render/block.ts';
import type { Serving } from '../reads/source.ts';

export type StoredBlock = BlockDoc & { canonical: boolean };

function withStatus(s: Serving, doc: BlockDoc | undefined): StoredBlock | undefined {
  if (!doc) return undefined;
  // Set on the fresh document rather than spread into a copy (a spread copy this wide is slow to make).
  const b = doc as StoredBlock;
  b.canonical = s.view.isCanonical(doc.index_block_hash);
  return b;
}

/** A block with this block hash, the canonical one if there is one (as the reference picks). */
export function blockByHash(s: Serving, blockHash: string): StoredBlock | undefined {
  const ibh = canonicalIndexHashOf(s, blockHash);
  if (ibh !== undefined) return blockByIndexHash(s, ibh);
  for (const any of indexHashesOfBlockHash(s.store, blockHash)) return blockByIndexHash(s, any);
  return undefined;
}

/** The index block hash of the canonical block with this block hash, if there is one. */
export function canonicalIndexHashOf(s: Serving, blockHash: string): string | undefined {
  for (const ibh of indexHashesOfBlockHash(s.store, blockHash)) if (s.view.isCanonical(ibh)) return ibh;
  return undefined;
}

export const blockByIndexHash = (s: Serving, indexBlockHash: string): StoredBlock | undefined => withStatus(s, blockDocOf(s.store, indexBlockHash));

/** The index block hash of the canonical block at a height, if there is one. */
export function canonicalIndexHashAt(s: Serving, height: number): string | undefined {
  for (const ibh of indexHashesAt(s.store, height)) if (s.view.isCanonical(ibh)) return ibh;
  return undefined;
}

/** The canonical block at a height; undefined when there is none (the reference then shows another). */
export function canonicalBlockAt(s: Serving, height: number): StoredBlock | undefined {
  // Read by the log id its heights key holds: no index lookup of its hash.
  for (const [ibh, logId] of blocksAt(s.store, height)) if (s.view.isCanonical(ibh)) return withStatus(s, blockDocAt(s.store, logId));
  return undefined;
}

/** A canonical block's v1 answer as text; undefined when the block has microblock txs or a
 *  microblock was streamed after it (then the answer lists microblocks: blockV1 decides). */
export function blockV1Text(s: Serving, indexBlockHash: string): string | undefined {
  if (!s.view.isCanonical(indexBlockHash)) return undefined;
  if (streamedAfter(s, indexBlockHash)) return undefined;
  const record = blockRecordOf(s.store, indexBlockHash);
  return record && blockV1JsonOfRecord(record);
}

function streamedAfter(s: Serving, indexBlockHash: string): boolean {
  for (const _ of s.store.microblocksByParent.getKeys({ start: [indexBlockHash], end: [indexBlockHash, '\uffff'], limit: 1 })) return true;
  return false;
}

export function tipBlock(s: Serving): StoredBlock | undefined {
  const tip = s.view.meta.tip;
  return tip ? blockByIndexHash(s, tip.index_block_hash) : undefined;
}

/** Whether a microblock stream touches the block: it accepted one, or one was streamed after it. */
export function touchesMicroblocks(s: Serving, b: BlockDoc): boolean {
  return acceptsMicroblocks(b) || streamedAfter(s, b.index_block_hash);
}

/** Whether a block's own order is the list's: no microblock txs, and positions that only rise (a
 *  block without microblocks, nearly every one: no sort). */
function inListOrder(b: StoredBlock): boolean {
  for (let i = 0; i < b.pids.length; i++) {
    if (b.tx_microblock_hashes[i]) return false;
    if (i > 0) {
      const [q, r] = b.positions[i - 1];
      const [x, y] = b.positions[i];
      if (x < q || (x === q && y <= r)) return false;
    }
  }
  return true;
}

const row = (b: StoredBlock): BlockRow => b as unknown as BlockRow;

/** The canonical microblocks streamed after `anchor`, by sequence; undefined when one was stored
 *  without its tx count (an older store: the caller asks ClickHouse). */
function canonicalMicroblocksAfter(s: Serving, anchor: string): MicroblockInfo[] | undefined {
  const out: MicroblockInfo[] = [];
  for (const { key } of s.store.microblocksByParent.getRange({ start: [anchor], end: [anchor, '\uffff'] })) {
    const hash = (key as [string, string])[1];
    const m = s.view.microblock(hash);
    if (!m?.canonical) continue;
    if (m.tx_count === undefined) return undefined;
    out.push({ microblock_hash: hash, microblock_sequence: m.microblock_sequence, parent_index_block_hash: m.parent_index_block_hash, index_block_hash: m.index_block_hash, tx_count: m.tx_count });
  }
  return out.sort((x, y) => x.microblock_sequence - y.microblock_sequence);
}

/** The v1 block object of a canonical block: the microblocks it accepted are the canonical ones
 *  streamed after its parent, and those streamed after it are listed too (as the ClickHouse path). */
export function blockV1(s: Serving, b: StoredBlock): Record<string, unknown> | undefined {
  if (!b.canonical) return undefined;
  if (!touchesMicroblocks(s, b)) return formatBlockV1(row(b), { accepted: [], streamed: [] });
  const accepted = canonicalMicroblocksAfter(s, b.parent_index_block_hash);
  const streamed = canonicalMicroblocksAfter(s, b.index_block_hash);
  if (!accepted || !streamed) return undefined;
  return formatBlockV1(row(b), { accepted, streamed: streamed.map((m) => m.microblock_hash) });
}

export const blockV2 = (b: StoredBlock): Record<string, unknown> => formatBlockV2(row(b));

/**
 * The v1 block list (each block's answer as JSON text): the canonical chain is one block per height,
 * so a page is heights counted down from the tip. Only when the canonical heights are 1..tip without
 * a gap and every block of the page is stored as text.
 */
export function blockListV1(s: Serving, limit: number, offset: number): { total: number; results: string[] } | undefined {
  const tip = s.view.meta.tip;
  const total = s.view.meta.canonicalBlocks;
  if (!tip || total !== tip.block_height) return undefined;
  const top = tip.block_height - offset;
  const bottom = Math.max(1, top - limit + 1);
  if (top < 1) return { total, results: [] };
  // The page's heights in one cursor; each height's canonical block, in height order.
  const canonicalAt = new Map<number, string>();
  for (const [h, ibh] of indexHashesDown(s.store, top, bottom)) if (!canonicalAt.has(h) && s.view.isCanonical(ibh)) canonicalAt.set(h, ibh);
  const results: string[] = [];
  for (let h = top; h >= bottom; h--) {
    const ibh = canonicalAt.get(h);
    const text = ibh && blockV1Text(s, ibh);
    if (!text) return undefined;
    results.push(text);
  }
  return { total, results };
}

function acceptedBy(s: Serving, microblockHash: string, indexBlockHash: string): boolean {
  const m = s.view.microblock(microblockHash);
  return !!m && m.canonical && m.index_block_hash === indexBlockHash;
}

/** A canonical block's placement ids in the v2 list's order, oldest first (-1: a tx not stored). */
export function blockTxPids(s: Serving, b: StoredBlock): readonly number[] {
  if (inListOrder(b)) return b.pids;
  const order: Array<{ pid: number; i: number; pos: [number, number] }> = [];
  for (let i = 0; i < b.pids.length; i++) {
    // Txs of microblocks this block did not accept are not its txs (normally it accepted them all).
    const mb = b.tx_microblock_hashes[i];
    if (mb && !acceptedBy(s, mb, b.index_block_hash)) continue;
    order.push({ pid: b.pids[i], i, pos: b.positions[i] });
  }
  // By (microblock_sequence, tx_index); a tie (a relabelled boot receipt) keeps the block's own order.
  order.sort((x, y) => x.pos[0] - y.pos[0] || x.pos[1] - y.pos[1] || x.i - y.i);
  return order.map((o) => o.pid);
}

/**
 * A canonical block's v2 txs page, oldest first, without the called contracts' ABIs, as JSON bytes,
 * with its identity tag: the block, the page, its placements (immutable documents) and their flags
 * are all the page depends on. Null when the page lists nothing, undefined when a tx of it is not
 * stored.
 */
export function blockTxsPage(s: Serving, b: StoredBlock, limit: number, offset: number): JsonText | null | undefined {
  const pids = blockTxPids(s, b).slice(offset, offset + limit);
  if (pids.length === 0) return null;
  const w = lendWriter().ascii(`{"limit":${limit},"offset":${offset},"total":${b.tx_count},"results":[`);
  // Each placement id as its step from the one before (nearly always 1: short to write).
  let identity = `v2 block txs ${b.index_block_hash} ${b.tx_count} ${limit} ${offset} ${pids[0]}`;
  for (let i = 0; i < pids.length; i++) {
    if (i > 0) w.ascii(',');
    const flags = pids[i] < 0 ? -1 : writeMinedTxItem(s, pids[i], w, { withAbi: false });
    if (flags < 0) {
      returnWriter(w);
      return undefined;
    }
    identity += ` ${i > 0 ? pids[i] - pids[i - 1] : 0}:${flags}`;
  }
  return new JsonText(w.ascii(']}').written(), false, identityTagOf(identity), () => returnWriter(w));
}
