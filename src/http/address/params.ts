// Parameter schemas of the address routes, with the reference API's patterns, defaults and limits.
import { PRINCIPAL_PATTERN, TX_ID_PARAM } from '../params.ts';

type JsonSchemaLike = Record<string, unknown>;

/** A standard address or a contract id (the reference's union; its messages name both patterns). */
export const PRINCIPAL_PARAM = {
  anyOf: [
    { type: 'string', pattern: PRINCIPAL_PATTERN },
    { type: 'string', pattern: `${PRINCIPAL_PATTERN}.[a-zA-Z]([a-zA-Z0-9]|[-_]){0,39}$` },
  ],
};

export const principalParams = (name = 'principal', extra: Record<string, JsonSchemaLike> = {}) => ({
  type: 'object',
  properties: { [name]: PRINCIPAL_PARAM, ...extra },
  required: [name, ...Object.keys(extra)],
});

/** The reference's default and maximum page sizes per resource. */
const TX_PAGE = { default: 20, max: 50 };
const EVENT_PAGE = { default: 20, max: 100 };
const FT_BALANCE_PAGE = { default: 100, max: 200 };

const limit = (p: { default: number; max: number }) => ({ type: 'integer', minimum: 0, maximum: p.max, default: p.default });
const offset = { type: 'integer', minimum: 0, default: 0 };
const unanchored = { type: 'boolean', default: false };
const untilBlock = { type: 'string' };
const height = { type: 'integer' };
const excludeFunctionArgs = { type: 'boolean', default: false };

const query = (properties: Record<string, JsonSchemaLike>) => ({ type: 'object', properties });

export const Q_BALANCE = query({ unanchored, until_block: untilBlock });
export const Q_TXS = query({ limit: limit(TX_PAGE), offset, height, unanchored, until_block: untilBlock, exclude_function_args: excludeFunctionArgs });
export const Q_TXS_WITH_TRANSFERS = query({ limit: limit(TX_PAGE), offset, height, unanchored, until_block: untilBlock });
export const Q_ASSETS = query({ limit: limit(EVENT_PAGE), offset, unanchored, until_block: untilBlock });
export const Q_INBOUND = query({ limit: limit(TX_PAGE), offset, height, unanchored, until_block: untilBlock });
export const Q_MEMPOOL = query({ limit: limit(TX_PAGE), offset, unanchored, exclude_function_args: excludeFunctionArgs });
export const Q_NONCES = query({ block_height: { type: 'integer', minimum: 1 }, block_hash: { type: 'string' } });
export const Q_V2_TXS = query({ limit: limit(TX_PAGE), offset, exclude_function_args: excludeFunctionArgs });
export const Q_V2_EVENTS = query({ limit: limit(TX_PAGE), offset });
export const Q_V2_STX = query({ include_mempool: { type: 'boolean', default: false } });
export const Q_V2_FT = query({ limit: limit(FT_BALANCE_PAGE), offset });

export { TX_ID_PARAM };
