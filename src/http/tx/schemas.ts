// Response schemas of the tx family: the entities of schemas/api/transaction.json, wrapped in the
// reference's list shapes. Each schema carries the entity file's $defs so that its $refs resolve.
import { readFileSync } from 'node:fs';
import type { JsonSchema } from '../route.ts';

const FILE = new URL('../../../schemas/api/transaction.json', import.meta.url);
const entities = JSON.parse(readFileSync(FILE, 'utf8')) as { $defs: Record<string, JsonSchema> };
const defs = entities.$defs;

const ref = (name: string): JsonSchema => ({ $ref: `#/$defs/${name}` });
const withDefs = (schema: JsonSchema): JsonSchema => ({ ...schema, $defs: defs });
const int = { type: 'integer' };

const page = (title: string, item: JsonSchema, extra: Record<string, JsonSchema> = {}): JsonSchema =>
  withDefs({
    title,
    type: 'object',
    properties: { limit: int, offset: int, total: int, results: { type: 'array', items: item }, ...extra },
    required: ['limit', 'offset', 'total', 'results'],
  });

export const TRANSACTION = withDefs(ref('Transaction'));
export const TX_OR_MEMPOOL_TX = withDefs({ anyOf: [ref('Transaction'), ref('MempoolTransaction')] });
export const TRANSACTION_LIST = page('TransactionResults', ref('Transaction'));
export const MEMPOOL_TRANSACTION_LIST = page('MempoolTransactionListResponse', ref('MempoolTransaction'));
export const MICROBLOCK = withDefs(ref('Microblock'));
export const MICROBLOCK_LIST = page('MicroblockListResponse', ref('Microblock'));
export const MEMPOOL_STATS = withDefs(ref('MempoolStats'));
export const MEMPOOL_FEES = withDefs(ref('MempoolFeePriorities'));
export const RAW_TRANSACTION: JsonSchema = { title: 'GetRawTransactionResult', type: 'object', properties: { raw_tx: { type: 'string' } }, required: ['raw_tx'] };
export const UNANCHORED_TXS = withDefs({ type: 'object', properties: { total: int, results: { type: 'array', items: ref('Transaction') } }, required: ['total', 'results'] });
export const EVENTS_PAGE = withDefs({
  title: 'TransactionEventsResponse',
  type: 'object',
  properties: { limit: int, offset: int, events: { type: 'array', items: ref('TransactionEvent') } },
  required: ['limit', 'offset', 'events'],
});
export const TX_SEARCH = withDefs({
  title: 'TransactionSearchResponse',
  type: 'object',
  description: 'tx_id -> {found: true, result: Transaction | MempoolTransaction} | {found: false, result: {tx_id}}',
  additionalProperties: {
    type: 'object',
    properties: { found: { type: 'boolean' }, result: { anyOf: [ref('Transaction'), ref('MempoolTransaction'), { type: 'object', properties: { tx_id: { type: 'string' } } }] } },
    required: ['found', 'result'],
  },
});
