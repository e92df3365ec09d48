// Parameter schemas of the v3 routes, with the reference's patterns, defaults and limits.
import { PRINCIPAL_PARAM } from '../address/params.ts';
import { TX_ID_PARAM } from '../params.ts';
import { TX_CURSOR_PATTERN } from './cursor.ts';

type Schema = Record<string, unknown>;

/** The reference's page sizes per resource. */
export const PAGE = {
  tx: { def: 20, max: 50 },
  event: { def: 20, max: 100 },
  balance: { def: 100, max: 200 },
} as const;

/** `limit` (at least 1) and `cursor` of a v3 list. */
export function cursorQuery(cursorPattern: string, page: { def: number; max: number }, extra: Record<string, Schema> = {}): Schema {
  return {
    type: 'object',
    properties: { limit: { type: 'integer', minimum: 1, maximum: page.max, default: page.def }, cursor: { type: 'string', pattern: cursorPattern }, ...extra },
  };
}

export const TX_PAGE_QUERY = cursorQuery(TX_CURSOR_PATTERN, PAGE.tx);
export const MEMPOOL_CURSOR_PATTERN = '^\\d+:(0x)?[a-fA-F0-9]{64}$';

export const TX_ID_PARAMS = { type: 'object', properties: { tx_id: TX_ID_PARAM }, required: ['tx_id'] };
export const PRINCIPAL_PARAMS = { type: 'object', properties: { principal: PRINCIPAL_PARAM }, required: ['principal'] };
/** A standard address only (nonces belong to accounts, not contracts). */
export const ADDRESS_PARAMS = {
  type: 'object',
  properties: { principal: { type: 'string', pattern: '^[0123456789ABCDEFGHJKMNPQRSTVWXYZ]{28,41}$' } },
  required: ['principal'],
};
