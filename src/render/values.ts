// Small value renderings every API object uses.
import { clarityHexRepr } from '../stacks/codec/index.ts';

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/**
 * `new Date(unixSeconds * 1000).toISOString()`, written out with integer arithmetic: every tx and
 * block answer has one or two of these, and the Date object cost more than the rest of a block's
 * v1 text. Whole seconds from 1970 to 9999 only; anything else goes through Date.
 */
export function isoTime(unixSeconds: number): string {
  if (!Number.isInteger(unixSeconds) || unixSeconds < 0 || unixSeconds >= 253402300800) return new Date(unixSeconds * 1000).toISOString();
  // The txs of a block (and a page of them) render the same few times again and again: the last
  // ones are kept, by the time's low bits.
  const slot = unixSeconds & (ISO_SLOTS - 1);
  if (isoSeconds[slot] === unixSeconds) return isoTexts[slot];
  const text = isoTimeOf(unixSeconds);
  isoSeconds[slot] = unixSeconds;
  isoTexts[slot] = text;
  return text;
}

const ISO_SLOTS = 16;
const isoSeconds = new Float64Array(ISO_SLOTS).fill(-1);
const isoTexts: string[] = new Array<string>(ISO_SLOTS).fill('');

function isoTimeOf(unixSeconds: number): string {
  const days = Math.floor(unixSeconds / 86400);
  const secs = unixSeconds - days * 86400;
  // Civil date from days since 1970-01-01 (Howard Hinnant's days_from_civil, inverted).
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const h = Math.floor(secs / 3600);
  const mi = Math.floor((secs - h * 3600) / 60);
  const se = secs - h * 3600 - mi * 60;
  return `${y}-${pad2(m)}-${pad2(d)}T${pad2(h)}:${pad2(mi)}:${pad2(se)}.000Z`;
}

/** {hex, repr} of a serialized Clarity value; a value our decoder cannot read keeps its hex. */
export function clarityValue(hex: string): { hex: string; repr: string } {
  try {
    return clarityHexRepr(hex);
  } catch {
    return { hex, repr: '' };
  }
}
