// Entry points for serialized Clarity values (`raw_result`, event `raw_value`, contract-call args):
// hex (with or without 0x) or bytes in, the reference API's {hex, repr, type_signature} or a structured
// value out. A whole input must be exactly one value: trailing bytes are an error.
import { ByteReader, DecodeError } from './bytes.ts';
import { readClarityValue, skipClarityValue, type ClarityValue } from './clarity-value.ts';
import { reprAt, typeSignatureAt, clarityValueRepr, clarityValueTypeSignature } from './clarity-repr.ts';

export { ClarityTypeId, MAX_CLARITY_DEPTH, tupleGet, unwrap, readClarityValue, skipClarityValue } from './clarity-value.ts';
export type { ClarityValue, TupleEntry } from './clarity-value.ts';
export { clarityValueRepr, clarityValueTypeSignature, reprAt, typeSignatureAt } from './clarity-repr.ts';

export interface ClarityHexRepr {
  /** 0x-prefixed lowercase hex of the serialized value. */
  hex: string;
  repr: string;
}

export interface DecodedClarity extends ClarityHexRepr {
  type_signature: string;
}

function reader(input: string | Uint8Array): ByteReader {
  const r = new ByteReader(input, 'Clarity value');
  if (r.end === 0) throw new DecodeError('empty Clarity value');
  return r;
}

function hexOf(input: string | Uint8Array, r: ByteReader): string {
  if (typeof input === 'string') {
    const lower = input.toLowerCase();
    return lower.startsWith('0x') ? lower : '0x' + lower;
  }
  return '0x' + r.buf.toString('hex');
}

/** `repr` of a serialized value (the hot path: no intermediate objects). */
export function clarityRepr(input: string | Uint8Array): string {
  const r = reader(input);
  const repr = reprAt(r, 0);
  r.expectEnd('Clarity value');
  return repr;
}

/** `type_signature` of a serialized value. */
export function clarityTypeSignature(input: string | Uint8Array): string {
  const r = reader(input);
  const t = typeSignatureAt(r, 0);
  r.expectEnd('Clarity value');
  return t;
}

/** {hex, repr} as the reference renders `tx_result`, event values and NFT post-condition values. */
export function clarityHexRepr(input: string | Uint8Array): ClarityHexRepr {
  const r = reader(input);
  const repr = reprAt(r, 0);
  r.expectEnd('Clarity value');
  return { hex: hexOf(input, r), repr };
}

/** {hex, repr, type_signature}. */
export function decodeClarity(input: string | Uint8Array): DecodedClarity {
  const r = reader(input);
  const repr = reprAt(r, 0);
  r.expectEnd('Clarity value');
  r.pos = 0;
  const type_signature = typeSignatureAt(r, 0);
  return { hex: hexOf(input, r), repr, type_signature };
}

/** The structured value (tuples sorted by key). */
export function decodeClarityValue(input: string | Uint8Array): ClarityValue {
  const r = reader(input);
  const v = readClarityValue(r, 0);
  r.expectEnd('Clarity value');
  return v;
}

/** Throws DecodeError unless `input` is exactly one well-formed value. */
export function validateClarityValue(input: string | Uint8Array): void {
  const r = reader(input);
  skipClarityValue(r, 0);
  r.expectEnd('Clarity value');
}

/** Both renderings of a structured value. */
export function describeClarityValue(cv: ClarityValue): { repr: string; type_signature: string } {
  return { repr: clarityValueRepr(cv), type_signature: clarityValueTypeSignature(cv) };
}
