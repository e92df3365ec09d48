// The interval and range of an analytics answer: `interval` (hour, day or cycle) and `from` / `to`
// (unix seconds or an ISO date for hours and days, a cycle number for cycles), both inclusive and
// aligned to their bucket. A missing bound is the first / last bucket that has data.
import { badRequest } from '../errors.ts';
import type { Unit } from '../../stacks/buckets.ts';

/** The most buckets one answer lists (a longer range is refused, so an answer stays small). */
export const MAX_BUCKETS = 5000;

export const STEP: Record<Unit, number> = { hour: 3600, day: 86400, cycle: 1 };

export interface Range {
  unit: Unit;
  from: number;
  to: number;
}

/** A bound as a bucket: a number as is, a date as unix seconds; undefined when absent. */
export function parseBound(name: string, raw: unknown, unit: Unit): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = String(raw);
  let value: number;
  if (/^\d{1,12}$/.test(text)) value = Number(text);
  else if (unit !== 'cycle' && /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text) && !Number.isNaN(Date.parse(text))) {
    value = Math.floor(Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text) / 1000);
  } else {
    throw badRequest(`${name} must be ${unit === 'cycle' ? 'a cycle number' : 'unix seconds or an ISO 8601 date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)'}, got "${text}"`);
  }
  if (value < 0 || value > 0xffffffff) throw badRequest(`${name} is out of range`);
  return value - (value % STEP[unit]);
}

/** The range asked for; missing bounds come from `dataRange` (the first and last bucket with data). */
export async function resolveRange(
  unit: Unit,
  q: { from?: unknown; to?: unknown },
  dataRange: () => Promise<{ first: number; last: number } | undefined>,
): Promise<Range | undefined> {
  let from = parseBound('from', q.from, unit);
  let to = parseBound('to', q.to, unit);
  if (from !== undefined && to !== undefined && from > to) throw badRequest('from must not be after to');
  if (from === undefined || to === undefined) {
    const data = await dataRange();
    if (!data) return from !== undefined && to !== undefined ? { unit, from, to } : undefined;
    to ??= Math.max(data.last, from ?? 0);
    // Without `from`, the newest MAX_BUCKETS buckets at most.
    from ??= Math.max(data.first, to - (MAX_BUCKETS - 1) * STEP[unit]);
    if (from > to) from = to;
  }
  if ((to - from) / STEP[unit] + 1 > MAX_BUCKETS) throw badRequest(`the range spans more than ${MAX_BUCKETS} ${unit} intervals; narrow from / to`);
  return { unit, from, to };
}

/** Every bucket of the range, in order. */
export function bucketsOf(r: Range): number[] {
  const out: number[] = [];
  for (let b = r.from; b <= r.to; b += STEP[r.unit]) out.push(b);
  return out;
}

/** A bucket's start as ISO time (hours and days), or null (cycles). */
export function bucketStart(unit: Unit, bucket: number): string | null {
  return unit === 'cycle' ? null : new Date(bucket * 1000).toISOString();
}
