// JSON Schemas of the token routes (the reference API's entities, v8.15.4).
import { PRINCIPAL_PARAM } from '../address/params.ts';
import { TRANSACTION } from '../address/schemas.ts';

type S = Record<string, unknown>;

const str: S = { type: 'string' };
const int: S = { type: 'integer' };
const nullableStr: S = { type: ['string', 'null'] };
const obj = (properties: Record<string, S>, title?: string, required = Object.keys(properties)): S => ({ ...(title ? { title } : {}), type: 'object', properties, required });
const page = (title: string, item: S, extra: Record<string, S> = {}): S => obj({ limit: int, offset: int, total: int, ...extra, results: { type: 'array', items: item } }, title);
const CLARITY_VALUE = obj({ hex: str, repr: str });
/** Each item carries its tx_id, or (tx_metadata=true) the whole tx. */
const withTx = (properties: Record<string, S>, required: string[]): S => ({ type: 'object', properties: { ...properties, tx_id: str, tx: TRANSACTION }, required, oneOf: [{ required: ['tx_id'] }, { required: ['tx'] }] });

const limit = { type: 'integer', minimum: 0, maximum: 200, default: 50 };
const offset = { type: 'integer', minimum: 0, default: 0 };
const txMetadata = { type: 'boolean', default: false };
const unanchored = { type: 'boolean', default: false };

export const HOLDINGS_QUERY: S = {
  type: 'object',
  properties: { principal: PRINCIPAL_PARAM, asset_identifiers: { anyOf: [{ type: 'array', items: str }, str] }, limit, offset, tx_metadata: txMetadata },
  required: ['principal'],
};
export const HISTORY_QUERY: S = { type: 'object', properties: { asset_identifier: str, value: str, limit, offset, unanchored, tx_metadata: txMetadata }, required: ['asset_identifier', 'value'] };
export const MINTS_QUERY: S = { type: 'object', properties: { asset_identifier: str, limit, offset, unanchored, tx_metadata: txMetadata }, required: ['asset_identifier'] };
export const HOLDERS_PARAMS: S = obj({ token: str });
export const HOLDERS_QUERY: S = { type: 'object', properties: { limit: { type: 'integer', minimum: 0, maximum: 200, default: 100 }, offset } };

export const NFT_HOLDINGS: S = page('NonFungibleTokenHoldingsList', withTx({ asset_identifier: str, value: CLARITY_VALUE, block_height: int }, ['asset_identifier', 'value', 'block_height']));
export const NFT_HISTORY: S = page('NonFungibleTokenHistoryEventList', withTx({ sender: nullableStr, recipient: nullableStr, event_index: int, asset_event_type: str }, ['sender', 'event_index', 'asset_event_type']));
export const NFT_MINTS: S = page('NonFungibleTokenMintList', withTx({ recipient: str, event_index: int, value: CLARITY_VALUE }, ['recipient', 'event_index', 'value']));
export const FT_HOLDERS: S = page('FungibleTokenHolderList', obj({ address: str, balance: str }, 'FtHolderEntry'), { total_supply: str });
