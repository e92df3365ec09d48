// JSON Schemas of parameters shared by many routes, with the reference API's limits and patterns.

export const HEIGHT_PARAM = { type: 'integer', minimum: 0 };
export const HASH_PARAM = { type: 'string', pattern: '^(0x)?[a-fA-F0-9]{64}$' };
export const TX_ID_PARAM = { type: 'string', pattern: '^(0x)?[a-fA-F0-9]{64}$' };
export const PRINCIPAL_PATTERN = '^[0123456789ABCDEFGHJKMNPQRSTVWXYZ]{28,41}';

/** limit/offset query schema with the route's default and maximum limit. */
export function limitOffset(defaultLimit: number, maxLimit: number, extra: Record<string, unknown> = {}) {
  return {
    type: 'object',
    properties: {
      limit: { type: 'integer', minimum: 0, maximum: maxLimit, default: defaultLimit },
      offset: { type: 'integer', minimum: 0, default: 0 },
      ...extra,
    },
  };
}
