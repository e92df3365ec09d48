// JSON Schemas of the search route (the reference API's SearchResult entities, v8.15.4).
type S = Record<string, unknown>;

const str: S = { type: 'string' };
const int: S = { type: 'integer' };
const bool: S = { type: 'boolean' };
const obj = (properties: Record<string, S>, required = Object.keys(properties)): S => ({ type: 'object', properties, required });

const ENTITY_TYPES = ['tx_id', 'mempool_tx_id', 'block_hash', 'standard_address', 'contract_address', 'unknown_hash', 'invalid_term'];

const TX_DATA = obj({ canonical: bool, block_hash: str, burn_block_time: int, block_height: int, tx_type: str, tx_id: str }, ['tx_type']);
const BLOCK_DATA = obj({ canonical: bool, hash: str, parent_block_hash: str, burn_block_time: int, height: int });

export const SEARCH_FOUND: S = {
  title: 'SearchSuccessResult',
  ...obj({
    found: { const: true },
    result: obj({ entity_id: str, entity_type: { enum: ENTITY_TYPES }, tx_data: TX_DATA, block_data: BLOCK_DATA, metadata: { type: 'object' } }, ['entity_id', 'entity_type']),
  }),
};

export const SEARCH_NOT_FOUND: S = {
  title: 'SearchErrorResult',
  ...obj({ found: { const: false }, result: obj({ entity_type: { enum: ENTITY_TYPES } }), error: str }),
};

export const SEARCH_PARAMS: S = obj({ id: str });
export const SEARCH_QUERY: S = { type: 'object', properties: { include_metadata: { type: 'boolean', default: false } } };
