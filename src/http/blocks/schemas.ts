// Response schemas of the block families and the status route: the entities of
// schemas/api/block.json in the reference's list shapes (each carries the $defs its $refs need).
import { readFileSync } from 'node:fs';
import type { JsonSchema } from '../route.ts';

const defs = (JSON.parse(readFileSync(new URL('../../../schemas/api/block.json', import.meta.url), 'utf8')) as { $defs: Record<string, JsonSchema> }).$defs;
const ref = (name: string): JsonSchema => ({ $ref: `#/$defs/${name}` });
const withDefs = (title: string, schema: JsonSchema): JsonSchema => ({ title, ...schema, $defs: defs });
const int = { type: 'integer' };
const nullableString = { type: ['string', 'null'] };

const page = (title: string, item: string, extra: Record<string, JsonSchema> = {}) =>
  withDefs(title, {
    type: 'object',
    properties: { limit: int, offset: int, total: int, results: { type: 'array', items: ref(item) }, ...extra },
    required: ['limit', 'offset', 'total', 'results', ...Object.keys(extra)],
  });

export const BLOCK = withDefs('Block', ref('Block'));
export const BLOCK_LIST = page('BlockListResponse', 'Block');
export const NAKAMOTO_BLOCK = withDefs('NakamotoBlock', ref('NakamotoBlock'));
export const NAKAMOTO_BLOCK_LIST = page('NakamotoBlockListResponse', 'NakamotoBlock');
export const NAKAMOTO_BLOCK_CURSOR_LIST = page('NakamotoBlockCursorListResponse', 'NakamotoBlock', { next_cursor: nullableString, prev_cursor: nullableString, cursor: nullableString });
export const BURN_BLOCK = withDefs('BurnBlock', ref('BurnBlock'));
export const BURN_BLOCK_LIST = page('BurnBlockListResponse', 'BurnBlock');
export const SERVER_STATUS = withDefs('ServerStatusResponse', ref('ServerStatus'));
export const AVERAGE_BLOCK_TIMES = withDefs('AverageBlockTimesResponse', ref('AverageBlockTimes'));
export const SIGNER_SIGNATURES: JsonSchema = {
  title: 'BlockSignerSignatureResponse',
  type: 'object',
  properties: { limit: int, offset: int, total: int, results: { type: 'array', items: { type: 'string' } } },
  required: ['limit', 'offset', 'total', 'results'],
};
