// Query and path parameters of the tx family, with the reference's defaults, limits and messages.
import type { ApiRequest } from '../request.ts';
import { badRequest, httpError } from '../errors.ts';

export const TX_ID_PATTERN = '^(0x)?[a-fA-F0-9]{64}$';
export const TX_TYPES = ['coinbase', 'token_transfer', 'smart_contract', 'contract_call', 'poison_microblock', 'tenure_change'] as const;
export const EVENT_TYPES = ['smart_contract_log', 'stx_lock', 'stx_asset', 'fungible_token_asset', 'non_fungible_token_asset'] as const;

/** limit schema: the reference's default and maximum per resource. */
export const limitParam = (def: number, max: number) => ({ type: 'integer', minimum: 0, maximum: max, default: def });
export const OFFSET = { type: 'integer', minimum: 0, default: 0 };
export const BOOL_FALSE = { type: 'boolean', default: false };
/** A repeated / comma-separated list parameter: validated by the handler (see listParam). */
export const LIST = { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] };

/** `?x=a&x=b` and `?x=a,b` both give [a, b] (the reference splits on commas). */
export function listParam(req: ApiRequest, name: string): string[] {
  return req.query.getAll(name).flatMap((v) => v.split(',')).filter((v) => v !== '');
}

/** Each value must be one of `allowed`: a validation error like the reference's otherwise. */
export function checkEnumList(name: string, values: string[], allowed: readonly string[]): void {
  values.forEach((v, i) => {
    if (!allowed.includes(v)) {
      const each = allowed.map(() => `querystring/${name}/${i} must be equal to constant`).join(', ');
      throw badRequest(`${each}, querystring/${name}/${i} must match a schema in anyOf`);
    }
  });
}

export const has0x = (s: string): boolean => s.startsWith('0x');
export const with0x = (s: string): string => (has0x(s) ? s : `0x${s}`);

/** As the reference's validateRequestHexInput: 0x + even-length hex. */
export function checkHex(hash: string): string {
  if (!/^0x([0-9a-fA-F]{2})*$/.test(hash)) throw httpError(400, 'Invalid hash characters');
  return hash.toLowerCase();
}

/** Query string of a request, '?…' or ''. */
export const searchOf = (req: ApiRequest): string => (req.rawQuery ? `?${req.rawQuery}` : '');

export const redirect = (location: string) => ({ status: 302, headers: { location }, body: '' });

/** As the reference's getPagingQueryLimit: a limit of 0 means the default (20 on every tx route). */
export function paging<T extends { limit?: number; event_limit?: number }>(q: T, def = 20): T {
  if ('limit' in q || q.limit !== undefined) q.limit = q.limit || def;
  if ('event_limit' in q || q.event_limit !== undefined) q.event_limit = q.event_limit || def;
  return q;
}
