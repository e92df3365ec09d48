// Burn blocks as the v2 API shows them: derived from the canonical Stacks blocks anchored in each
// (stacks_blocks newest first, average time between those blocks, their tx count).
import type { Store } from '../../storage/client.ts';
import { rows, firstRow } from '../reads/query.ts';
import { CANONICAL_BLOCKS } from '../reads/canonical.ts';
import { isoTime } from '../../render/values.ts';

const CANONICAL_BLOCK_ROWS = `(SELECT block_height, block_hash, block_time, burn_block_hash, burn_block_height, burn_block_time, tx_count
   FROM blocks WHERE index_block_hash IN (SELECT index_block_hash FROM ${CANONICAL_BLOCKS}) LIMIT 1 BY index_block_hash)`;

export interface BurnBlockSummary {
  burn_block_time: number;
  burn_block_time_iso: string;
  burn_block_hash: string;
  burn_block_height: number;
  stacks_blocks: string[];
  avg_block_time: number;
  total_tx_count: number;
}

/** Summaries of the burn blocks at `heights` (or matching `where`), newest first. */
async function summaries(store: Store, where: string, params: Record<string, unknown>): Promise<BurnBlockSummary[]> {
  const list = await rows<Record<string, unknown>>(
    store,
    `SELECT burn_block_height AS height, any(burn_block_hash) AS hash, any(burn_block_time) AS time,
            arrayMap(x -> x.2, arrayReverseSort(x -> x.1, groupArray((block_height, block_hash)))) AS stacks_blocks,
            arrayMap(x -> x.2, arraySort(x -> x.1, groupArray((block_height, block_time)))) AS times,
            sum(tx_count) AS total_tx_count
     FROM ${CANONICAL_BLOCK_ROWS} WHERE ${where}
     GROUP BY burn_block_height ORDER BY burn_block_height DESC`,
    params,
  );
  return list.map((r) => {
    const times = (r.times as Array<number | string>).map(Number);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    const avg = gaps.length ? gaps.reduce((a, b) => a + b, 0) / gaps.length : 0;
    return {
      burn_block_time: Number(r.time),
      burn_block_time_iso: isoTime(Number(r.time)),
      burn_block_hash: String(r.hash),
      burn_block_height: Number(r.height),
      stacks_blocks: r.stacks_blocks as string[],
      // Whole seconds, as the reference reports it.
      avg_block_time: Math.floor(avg),
      total_tx_count: Number(r.total_tx_count),
    };
  });
}

export async function burnBlockPage(store: Store, limit: number, offset: number): Promise<BurnBlockSummary[]> {
  const heights = await rows<{ h: string }>(
    store,
    `SELECT DISTINCT burn_block_height AS h FROM ${CANONICAL_BLOCK_ROWS} ORDER BY h DESC LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { limit, offset },
  );
  if (heights.length === 0) return [];
  return summaries(store, 'burn_block_height IN {hs:Array(UInt32)}', { hs: heights.map((h) => Number(h.h)) });
}

/** `latest`, a burn block height, or a burn block hash → the filter selecting its Stacks blocks. */
export async function burnBlockFilter(store: Store, id: string): Promise<{ where: string; params: Record<string, unknown> }> {
  if (id === 'latest') {
    const tip = await firstRow<{ h: string }>(store, `SELECT burn_block_hash AS h FROM ${CANONICAL_BLOCK_ROWS} ORDER BY block_height DESC LIMIT 1`);
    return { where: 'burn_block_hash = {b:String}', params: { b: tip?.h ?? '' } };
  }
  if (/^\d+$/.test(id)) return { where: 'burn_block_height = {b:UInt32}', params: { b: Number(id) } };
  return { where: 'burn_block_hash = {b:String}', params: { b: (id.startsWith('0x') ? id : `0x${id}`).toLowerCase() } };
}

export async function burnBlock(store: Store, id: string): Promise<BurnBlockSummary | undefined> {
  const f = await burnBlockFilter(store, id);
  return (await summaries(store, f.where, f.params))[0];
}

/** Any stored block (canonical or not) anchored in the burn block: the reference's existence check. */
export async function burnBlockKnown(store: Store, id: string): Promise<boolean> {
  const f = await burnBlockFilter(store, id);
  return !!(await firstRow(store, `SELECT 1 FROM blocks WHERE ${f.where} LIMIT 1`, f.params));
}

/** Mean seconds between consecutive canonical blocks over the last hour, day, week and month. */
export async function averageBlockTimes(store: Store): Promise<Record<'last_1h' | 'last_24h' | 'last_7d' | 'last_30d', number>> {
  const r = await firstRow<Record<string, string | null>>(
    store,
    `WITH toUInt32(now()) AS t
     SELECT avgIf(gap, time >= t - 3600) AS last_1h, avgIf(gap, time >= t - 86400) AS last_24h,
            avgIf(gap, time >= t - 604800) AS last_7d, avgIf(gap, time >= t - 2592000) AS last_30d
     FROM (SELECT time, time - lagInFrame(time) OVER (ORDER BY block_height) AS gap, row_number() OVER (ORDER BY block_height) AS n
           FROM (SELECT block_height, if(block_time = 0, burn_block_time, block_time) AS time FROM ${CANONICAL_BLOCK_ROWS} WHERE time >= toUInt32(now()) - 2592000))
     WHERE n > 1`,
  );
  const num = (v: string | null | undefined) => (v === null || v === undefined || Number.isNaN(Number(v)) ? 0 : Number(Number(v).toFixed(2)));
  return { last_1h: num(r?.last_1h), last_24h: num(r?.last_24h), last_7d: num(r?.last_7d), last_30d: num(r?.last_30d) };
}
