// JSON Schemas of the contract routes (the reference API's entities, v8.15.4).
import { TRANSACTION_EVENT } from '../address/schemas.ts';

type S = Record<string, unknown>;

const str: S = { type: 'string' };
const int: S = { type: 'integer' };
const obj = (properties: Record<string, S>, title?: string, required = Object.keys(properties)): S => ({ ...(title ? { title } : {}), type: 'object', properties, required });

/** A contract id: a standard address, a dot, a contract name. */
export const CONTRACT_ID_PATTERN = '^[0123456789ABCDEFGHJKMNPQRSTVWXYZ]{28,41}\\.[a-zA-Z]([a-zA-Z0-9]|[-_]){0,39}$';

export const SMART_CONTRACT: S = obj(
  { tx_id: str, canonical: { type: 'boolean' }, contract_id: str, block_height: int, clarity_version: { type: ['integer', 'null'] }, source_code: str, abi: { type: ['string', 'null'] } },
  'SmartContract',
);
export const CONTRACT_LIST: S = obj({ limit: int, offset: int, results: { type: 'array', items: SMART_CONTRACT } }, 'ContractListResponse');
export const CONTRACT_EVENTS: S = obj({ limit: int, offset: int, results: { type: 'array', items: TRANSACTION_EVENT } }, 'ContractEventListResponse');

const STATUS_RESULT = obj({ status: str, tx_id: str, contract_id: str, block_height: int }, undefined, ['status', 'tx_id', 'contract_id']);
export const CONTRACT_STATUS_LIST: S = {
  title: 'SmartContractsStatusResponse',
  type: 'object',
  additionalProperties: { oneOf: [obj({ found: { const: true }, result: STATUS_RESULT }), obj({ found: { const: false } })] },
};

export const CONTRACT_ID_PARAMS: S = obj({ contract_id: str });
export const STATUS_QUERY: S = {
  type: 'object',
  properties: { contract_id: { anyOf: [{ type: 'array', items: { type: 'string', pattern: CONTRACT_ID_PATTERN } }, { type: 'string', pattern: CONTRACT_ID_PATTERN }] } },
  required: ['contract_id'],
};
export const TRAIT_QUERY: S = {
  type: 'object',
  properties: { trait_abi: str, limit: { type: 'integer', minimum: 0, maximum: 50, default: 20 }, offset: { type: 'integer', minimum: 0, default: 0 } },
  required: ['trait_abi'],
};
