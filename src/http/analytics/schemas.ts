// JSON Schemas of the analytics routes: the answers are the entities of schemas/analytics/analytics.json
// (each carries the $defs its $refs need); the query strings are declared here.
import { readFileSync } from 'node:fs';
import type { JsonSchema } from '../route.ts';
import { CHAIN_METRICS, CONTRACT_METRICS, DISTRIBUTION_LIMIT_MAX, FT_METRICS, NFT_METRICS, TOKEN_TOP_BY, TOP_BY } from './queries.ts';

const FILE = new URL('../../../schemas/analytics/analytics.json', import.meta.url);
const defs = (JSON.parse(readFileSync(FILE, 'utf8')) as { $defs: Record<string, JsonSchema> }).$defs;

const entity = (name: string): JsonSchema => {
  if (!defs[name]) throw new Error(`schemas/analytics/analytics.json has no $defs/${name}`);
  return { $ref: `#/$defs/${name}`, $defs: defs };
};

export const SERIES = entity('AnalyticsSeries');
export const TOP_CONTRACTS = entity('AnalyticsTopContracts');
export const TOP_TOKENS = entity('AnalyticsTopTokens');
export const CONTRACT_FUNCTIONS = entity('AnalyticsContractFunctions');
export const FT_DISTRIBUTION = entity('AnalyticsFtDistribution');
export const PRINCIPAL_FLOWS = entity('AnalyticsPrincipalFlows');
export const PRINCIPAL_SERIES = entity('AnalyticsPrincipalSeries');
export const POX_CYCLES = entity('AnalyticsPoxCycles');
export const SQL_REQUEST = entity('AnalyticsSqlRequest');
/** JSON rows, or CSV text with a header row (format=csv). */
export const SQL_ANSWER: JsonSchema = { anyOf: [{ $ref: '#/$defs/AnalyticsSqlResult' }, { type: 'string', description: 'CSV with a header row (format=csv)' }], $defs: defs };

const bound = { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', maxLength: 40 }], description: 'Unix seconds or an ISO 8601 date (hour, day); a cycle number (cycle)' };
const limit = (max: number, dflt: number) => ({ type: 'integer', minimum: 1, maximum: max, default: dflt });
const interval = (units: string[], dflt = 'day') => ({ type: 'string', enum: units, default: dflt });
const query = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({ type: 'object', properties, required, additionalProperties: false });

export const CHAIN_SERIES_QUERY = query({ metric: { type: 'string', enum: [...CHAIN_METRICS] }, interval: interval(['hour', 'day', 'cycle']), from: bound, to: bound }, ['metric']);
export const TOP_CONTRACTS_QUERY = query({ by: { type: 'string', enum: [...TOP_BY], default: 'calls' }, from: bound, to: bound, limit: limit(200, 20) });
export const TOP_TOKENS_QUERY = query({ by: { type: 'string', enum: [...TOKEN_TOP_BY], default: 'transfers' }, from: bound, to: bound, limit: limit(200, 20) });
export const CONTRACT_SERIES_QUERY = query({ metric: { type: 'string', enum: [...CONTRACT_METRICS], default: 'calls' }, interval: interval(['day', 'cycle']), from: bound, to: bound });
export const CONTRACT_FUNCTIONS_QUERY = query({ from: bound, to: bound, limit: limit(200, 20) });
export const FT_SERIES_QUERY = query({ metric: { type: 'string', enum: [...FT_METRICS], default: 'transfers' }, interval: interval(['day', 'cycle']), from: bound, to: bound });
export const NFT_SERIES_QUERY = query({ metric: { type: 'string', enum: [...NFT_METRICS], default: 'transfers' }, interval: interval(['day', 'cycle']), from: bound, to: bound });
export const DISTRIBUTION_QUERY = query({ limit: limit(DISTRIBUTION_LIMIT_MAX, 20) });
export const FLOWS_QUERY = query({ asset: { type: 'string', minLength: 1, maxLength: 300, default: 'stx' }, from: bound, to: bound, limit: limit(200, 20) });
export const PRINCIPAL_SERIES_QUERY = query({ interval: interval(['day', 'cycle']), from: bound, to: bound });
export const POX_CYCLES_QUERY = query({ from: { type: 'integer', minimum: 0 }, to: { type: 'integer', minimum: 0 } });

const id = (description: string, max = 300): JsonSchema => ({ type: 'string', minLength: 1, maxLength: max, description });
export const CONTRACT_PARAMS: JsonSchema = { type: 'object', properties: { contract_id: id('Contract identifier (address.name)') }, required: ['contract_id'] };
export const ASSET_PARAMS: JsonSchema = { type: 'object', properties: { asset: id('Asset identifier (address.contract::token)') }, required: ['asset'] };
export const PRINCIPAL_PARAMS: JsonSchema = { type: 'object', properties: { principal: id('Standard or contract principal', 200) }, required: ['principal'] };
