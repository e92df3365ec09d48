// Small value renderings every API object uses.
import { clarityHexRepr } from '../workers/decode/index.ts';

export const isoTime = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString();

/** {hex, repr} of a serialized Clarity value; a value our decoder cannot read keeps its hex. */
export function clarityValue(hex: string): { hex: string; repr: string } {
  try {
    return clarityHexRepr(hex);
  } catch {
    return { hex, repr: '' };
  }
}
