// A block as the serving store keeps it, one value per log entry (keyed by its log id, so written in
// order): first its frame — what each of its txs' answers take from the block (index block hash,
// height, and the placement members every tx of the block shares as one JSON text) — then the block
// document, hashes as bytes. A tx document names its entry through its placement id, and the frame
// is read (and cached: frames.ts) instead of repeating ~480 bytes in every tx document.
import { ByteReader, ByteWriter, bytesHex, hexBytes } from './bytes.ts';
import type { BlockDoc } from './docs.ts';
import { isoTime } from '../render/values.ts';

export interface BlockFrame {
  index_block_hash: string;
  block_height: number;
  /** `"block_hash":…,"is_unanchored":false` of the block's txs (members, no braces). */
  placement: string;
  /** A byte-written list item's opening by its flags (2: canonical, 1: microblock_canonical): the
   *  flags, `placement` and a comma as UTF-8, made when first needed (frames are cached). */
  itemHeads?: Uint8Array[];
}

/** A block document before its txs have placement ids (`txLocal`: indexes into its entry's txs, -1 if none). */
export type BlockRecord = Omit<BlockDoc, 'pids'> & { txLocal: number[] };

const HASH = /^0x[0-9a-f]{64}$/;
const writeHash = (w: ByteWriter, h: string) => w.hash(h);
const readHash = (r: ByteReader): string => r.hash();


const ANCHORED = 2147483647;

export function packBlockRecord(frame: BlockFrame, b: BlockRecord): Uint8Array {
  const w = new ByteWriter(512 + b.tx_ids.length * 40);
  writeHash(w, frame.index_block_hash);
  w.uint(frame.block_height).str(frame.placement);
  writeHash(w, b.block_hash);
  writeHash(w, b.parent_index_block_hash);
  writeHash(w, b.parent_block_hash);
  writeHash(w, b.parent_microblock_hash);
  w.int(b.parent_microblock_sequence);
  writeHash(w, b.burn_block_hash);
  w.int(b.burn_block_height).int(b.burn_block_time);
  writeHash(w, b.miner_txid);
  w.int(b.block_time).int(b.tenure_height);
  for (const v of [b.execution_cost_read_count, b.execution_cost_read_length, b.execution_cost_runtime, b.execution_cost_write_count, b.execution_cost_write_length]) w.uint(v);
  w.uint(b.tx_count).int(b.pox_v1_unlock_height).int(b.pox_v2_unlock_height).int(b.pox_v3_unlock_height);
  // Its txs: ids, microblocks (a table of the few distinct ones), positions, and where each tx's
  // document is in the entry (nearly always its own index).
  const n = b.tx_ids.length;
  w.uint(n);
  for (const id of b.tx_ids) writeHash(w, id);
  const mbs = [...new Set(b.tx_microblock_hashes.filter(Boolean))];
  w.uint(mbs.length);
  for (const m of mbs) writeHash(w, m);
  for (let i = 0; i < n; i++) {
    const mb = b.tx_microblock_hashes[i];
    const [sequence, txIndex] = b.positions[i];
    w.uint(mb ? mbs.indexOf(mb) + 1 : 0).uint(sequence === ANCHORED ? 0 : sequence + 1).uint(txIndex);
    w.int(b.txLocal[i] - i);
  }
  return w.bytes();
}

/** The frame alone (tx answers read only this much of the value). */
export function readBlockFrame(bytes: Uint8Array): BlockFrame {
  const r = new ByteReader(bytes);
  return { index_block_hash: readHash(r), block_height: r.uint(), placement: r.str() };
}

/** The block document; `pidBase`: the placement id of its entry's first tx. */
export function readBlockRecord(bytes: Uint8Array, pidBase: number): BlockDoc {
  const r = new ByteReader(bytes);
  const index_block_hash = readHash(r);
  const block_height = r.uint();
  r.str();
  // One literal with every member (the scalars read in the record's order; the lists filled in
  // below): spreading the scalars into a second literal cost ~10 µs a block (measured; V8 copies a
  // spread of this many members through its slow generic path).
  const doc: BlockDoc = {
    index_block_hash,
    block_height,
    block_hash: readHash(r),
    parent_index_block_hash: readHash(r),
    parent_block_hash: readHash(r),
    parent_microblock_hash: readHash(r),
    parent_microblock_sequence: r.int(),
    burn_block_hash: readHash(r),
    burn_block_height: r.int(),
    burn_block_time: r.int(),
    miner_txid: readHash(r),
    block_time: r.int(),
    tenure_height: r.int(),
    execution_cost_read_count: r.uint(),
    execution_cost_read_length: r.uint(),
    execution_cost_runtime: r.uint(),
    execution_cost_write_count: r.uint(),
    execution_cost_write_length: r.uint(),
    tx_count: r.uint(),
    pox_v1_unlock_height: r.int(),
    pox_v2_unlock_height: r.int(),
    pox_v3_unlock_height: r.int(),
    tx_ids: [],
    tx_microblock_hashes: [],
    positions: [],
    pids: [],
  };
  const tx_ids = readTxIds(r, r.uint());
  const n = tx_ids.length;
  const mbs: string[] = new Array(r.uint());
  for (let k = 0; k < mbs.length; k++) mbs[k] = readHash(r);
  const tx_microblock_hashes: string[] = new Array(n);
  const positions: Array<[number, number]> = new Array(n);
  const pids: number[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const mb = r.uint();
    tx_microblock_hashes[i] = mb ? mbs[mb - 1] : '';
    const sequence = r.uint();
    positions[i] = [sequence === 0 ? ANCHORED : sequence - 1, r.uint()];
    const local = i + r.int();
    pids[i] = local < 0 ? -1 : pidBase + local;
  }
  doc.tx_ids = tx_ids;
  doc.tx_microblock_hashes = tx_microblock_hashes;
  doc.positions = positions;
  doc.pids = pids;
  return doc;
}

/** A hash as the record stores it (heights and block hash keys carry the index block hash). */
export const hashBytes = (h: string): Buffer => (HASH.test(h) ? hexBytes(h) : Buffer.from(h, 'utf8'));
export const hashOfBytes = (b: Uint8Array): string => (b.length === 32 ? bytesHex(b) : Buffer.from(b).toString('utf8'));

// Module functions, not closures in the renderer: tsx names every closure it creates (__name), which
// cost more than the render.
function quotedHash(r: ByteReader): string {
  return r.u8() === 1 ? `"${r.hex(32)}"` : JSON.stringify(r.str());
}

/** `n` hashes as JSON strings joined by commas (hex ids as readTxIds reads them: a call per id
 *  was half the block's render). */
function txIdsJson(r: ByteReader, n: number): string {
  if (!allIdsAre32(r, n)) {
    const out: string[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = quotedHash(r);
    return out.join(',');
  }
  // Hex ids need no escaping.
  return n === 0 ? '' : `"${readTxIds(r, n).join('","')}"`;
}

function allIdsAre32(r: ByteReader, n: number): boolean {
  if (r.pos + n * 33 > r.end) return false;
  for (let i = 0; i < n; i++) if (r.buf[r.pos + i * 33] !== 1) return false;
  return true;
}

/** `n` tx ids; ids stored as 32 bytes (marker 1, all of them nearly always) are turned to hex in
 *  one call over the whole run, then cut (a call per id was most of a block document's read). */
function readTxIds(r: ByteReader, n: number): string[] {
  const ids: string[] = new Array(n);
  if (!allIdsAre32(r, n)) {
    for (let i = 0; i < n; i++) ids[i] = readHash(r);
    return ids;
  }
  const hex = Buffer.prototype.hexSlice.call(r.buf, r.pos, r.pos + n * 33) as string;
  r.pos += n * 33;
  for (let i = 0; i < n; i++) ids[i] = `0x${hex.substring(i * 66 + 2, i * 66 + 66)}`;
  return ids;
}

/**
 * A canonical block's v1 answer as JSON text, written straight from its record (the block list
 * renders 20 of these a page: no document object, no stringify). Undefined when the block takes
 * part in a microblock stream: that answer needs the stream, and the document path renders it.
 * Members and their order are `formatBlockV1`'s (render/block.ts); the serving tests compare both.
 */
export function blockV1JsonOfRecord(bytes: Uint8Array): string | undefined {
  const r = new ByteReader(bytes);
  const q = quotedHash;
  const index_block_hash = q(r);
  const height = r.uint();
  r.str();
  const hash = q(r);
  q(r); // parent index block hash: a v2 member
  const parent_block_hash = q(r);
  const parent_microblock_hash = q(r);
  if (parent_microblock_hash !== '""') return undefined;
  const parent_microblock_sequence = r.int();
  const burn_block_hash = q(r);
  const burn_block_height = r.int();
  const burn_block_time = r.int();
  const miner_txid = q(r);
  const block_time = r.int();
  const tenure_height = r.int();
  const costs = [r.uint(), r.uint(), r.uint(), r.uint(), r.uint()];
  r.uint(); // tx count, pox unlock heights: other answers' members
  r.int();
  r.int();
  r.int();
  const n = r.uint();
  const txs = txIdsJson(r, n);
  if (r.uint() !== 0) return undefined; // txs of microblocks
  const iso = isoTime;
  return (
    `{"canonical":true,"height":${height},"hash":${hash},"block_time":${block_time},"block_time_iso":"${iso(block_time)}",` +
    `"tenure_height":${tenure_height},"index_block_hash":${index_block_hash},"parent_block_hash":${parent_block_hash},` +
    `"burn_block_time":${burn_block_time},"burn_block_time_iso":"${iso(burn_block_time)}","burn_block_hash":${burn_block_hash},` +
    `"burn_block_height":${burn_block_height},"miner_txid":${miner_txid},"execution_cost_read_count":${costs[0]},` +
    `"execution_cost_read_length":${costs[1]},"execution_cost_runtime":${costs[2]},"execution_cost_write_count":${costs[3]},` +
    `"execution_cost_write_length":${costs[4]},"txs":[${txs}],"parent_microblock_hash":${parent_microblock_hash},` +
    `"parent_microblock_sequence":${parent_microblock_sequence},"microblocks_accepted":[],"microblocks_streamed":[],"microblock_tx_count":{}}`
  );
}
