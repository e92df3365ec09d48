// The OpenAPI 3.1 document, generated from the routes' JSON Schemas: paths and parameters from each
// route's params/query schemas, responses from its declared response schemas (whose `$defs` are
// hoisted into components), operation names and deprecation marks as the reference has them
// (openapi-names.ts), a tag per route family, the servers, and examples recorded from the
// reference's answers (schemas/api/examples.json, made by src/cli/openapi-examples.ts).
import { deprecatedInV9 } from '../conventions/deprecation.ts';
import { existsSync, readFileSync } from 'node:fs';
import type { JsonSchema, RouteDef } from '../route.ts';
import { SERVER_VERSION } from '../conventions/version.ts';
import { withIntegerBounds } from '../conventions/schema-bounds.ts';
import { EXTRA_OPERATIONS, REFERENCE_OPERATIONS } from './names.ts';

type Schema = Record<string, unknown>;

/** Moves `$defs` into `components` and points `#/$defs/X` refs there (recursively). */
function hoist(schema: unknown, components: Record<string, Schema>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => hoist(s, components));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema as Schema)) {
    if (k === '$defs') {
      for (const [name, def] of Object.entries(v as Schema)) if (!components[name]) components[name] = hoist(def, components) as Schema;
      continue;
    }
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) out[k] = `#/components/schemas/${v.slice(8)}`;
    else if (k === '$schema' || k === '$id') continue;
    else out[k] = hoist(v, components);
  }
  return out;
}

function parameters(schema: JsonSchema | undefined, where: 'path' | 'query'): Schema[] {
  const props = (schema?.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    ...(typeof s.description === 'string' ? { description: s.description } : {}),
    schema: s,
  }));
}

/** `/extended/v1/tx/:tx_id` -> `/extended/v1/tx/{tx_id}`. */
export const openApiPath = (pattern: string): string => pattern.replace(/:(\w+)/g, '{$1}');

/** The key of openapi-names.ts: method and path with every parameter as {}. */
const nameKey = (method: string, pattern: string): string => `${method.toUpperCase()} ${pattern.replace(/:\w+/g, '{}')}`;

const camel = (words: string[]): string => words.map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())).join('');

/** A name for a route the reference does not name: Rosetta's from its path (rosettaNetworkList),
 *  the rest from the method and summary (getApiStatus). */
function derivedOperationId(r: RouteDef<unknown>): string {
  if (r.path.startsWith('/rosetta/')) return camel(r.path.split(/[^A-Za-z0-9]+/).filter((w) => w && w !== 'v1'));
  const words = (r.summary ?? r.path).split(/[^A-Za-z0-9]+/).filter(Boolean);
  const verb = r.method === 'get' ? 'get' : 'post';
  return camel(words[0]?.toLowerCase() === verb ? words : [verb, ...words]);
}

/** Family tags and what they hold (the order is the docs page's). */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Info: 'Status of this service and the network.',
  Service: 'Liveness, readiness and metrics of this process (not in the reference API).',
  Transactions: 'Mined and mempool transactions, their events and raw bytes.',
  Mempool: 'The pending mempool and its fees.',
  Blocks: 'Stacks blocks (v1 and Nakamoto v2).',
  'Burn Blocks': 'Bitcoin (burnchain) blocks and the Stacks blocks they anchor.',
  Microblocks: 'Microblocks (pre-Nakamoto) and unanchored txs.',
  Accounts: 'Balances, transactions, nonces and assets of a principal.',
  'Smart Contracts': 'Contracts, their events and traits.',
  'Fungible Tokens': 'Fungible token holders.',
  'Non-Fungible Tokens': 'NFT holdings, history and mints.',
  'Stacking Rewards': 'Burnchain reward recipients and slot holders.',
  Stacking: 'PoX cycles, signers, stackers and pool delegations.',
  'Proof of Transfer': 'PoX contract events.',
  Search: 'Find a block, tx, account or contract by id.',
  Fees: 'Fee estimates.',
  Faucets: 'Testnet faucets (not offered here).',
  Names: 'BNS names, namespaces, zonefiles and prices.',
  Rosetta: 'The Rosetta (Mesh) Data and Construction APIs.',
  'Node RPC': 'Stacks node RPC (/v2/*), forwarded to a load-balanced pool of nodes.',
};

/** Recorded answers by `METHOD /path/{param}` and status (see examples.ts). */
export type ExampleTable = Record<string, Record<string, unknown>>;

const EXAMPLES_FILE = new URL('../../../schemas/api/examples.json', import.meta.url);

function loadExamples(): ExampleTable {
  return existsSync(EXAMPLES_FILE) ? (JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as ExampleTable) : {};
}

export interface OpenApiOptions {
  extraPaths?: Record<string, Schema>;
  examples?: ExampleTable;
}

export function buildOpenApi<Ctx>(routes: readonly RouteDef<Ctx>[], opts: OpenApiOptions = {}): Schema {
  const examples = opts.examples ?? loadExamples();
  const components: Record<string, Schema> = {};
  const paths: Record<string, Schema> = {};
  const used = new Set<string>();
  const tags = new Set<string>();
  for (const r of routes as readonly RouteDef<unknown>[]) {
    const path = openApiPath(r.path);
    const key = `${r.method.toUpperCase()} ${path}`;
    const named = REFERENCE_OPERATIONS[nameKey(r.method, r.path)] ?? EXTRA_OPERATIONS[nameKey(r.method, r.path)];
    let operationId = r.operationId ?? named?.operationId ?? derivedOperationId(r);
    // The legacy /poxN paths share one reference name: the version goes in front of the rest.
    for (let n = 2; used.has(operationId); n++) operationId = `${operationId.replace(/\d+$/, '')}${n}`;
    used.add(operationId);
    const responses: Record<string, Schema> = {};
    for (const [status, schema] of Object.entries(r.responses ?? { 200: {} })) {
      const s = hoist(schema, components) as Schema;
      const title = typeof schema.title === 'string' ? schema.title : undefined;
      if (title && !components[title]) components[title] = s;
      const example = examples[key]?.[status];
      // A string answer is plain text (the /plain supply routes, a redirect's empty body).
      const media = schema.type === 'string' ? 'text/plain' : 'application/json';
      responses[status] = {
        description: title ?? (status === '200' ? 'OK' : status.startsWith('3') ? 'Redirect' : 'Answer'),
        content: { [media]: { schema: title ? { $ref: `#/components/schemas/${title}` } : s, ...(example !== undefined ? { example } : {}) } },
      };
    }
    responses['4XX'] = { description: 'Bad request or not found', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    for (const t of r.tags ?? []) tags.add(t);
    (paths[path] ??= {})[r.method] = {
      operationId,
      summary: r.summary ?? path,
      ...(r.description ? { description: r.description } : {}),
      tags: r.tags ?? [],
      ...((r.deprecated ?? named?.deprecated) || deprecatedInV9(r.method, r.path) ? { deprecated: true } : {}),
      parameters: [...parameters(withIntegerBounds(r.params), 'path'), ...parameters(withIntegerBounds(r.query), 'query')],
      ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: hoist(r.body, components), ...(examples[key]?.request !== undefined ? { example: examples[key].request } : {}) } } } } : {}),
      responses,
    };
  }
  for (const ops of Object.values(opts.extraPaths ?? {})) {
    for (const op of Object.values(ops)) for (const t of ((op as Schema)?.tags as string[] | undefined) ?? []) tags.add(t);
  }
  components.Error = {
    description: 'An error: the reference API\'s shape ({error, message, statusCode}, a validation error adds `code`), or a Rosetta error ({code, message, retriable}).',
    type: 'object',
    properties: { error: { type: 'string' }, message: { type: 'string' }, statusCode: { type: 'integer' }, code: {} },
  };
  const ordered = [...Object.keys(TAG_DESCRIPTIONS).filter((t) => tags.has(t)), ...[...tags].filter((t) => !(t in TAG_DESCRIPTIONS)).sort()];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Stacks Blockchain API (indexer)',
      version: SERVER_VERSION,
      description:
        'Hiro-compatible extended API served from ClickHouse: the answers of the Hiro Stacks Blockchain API v8.15.4, plus /health, /ready and /metrics. ' +
        'GET answers carry an ETag (send it back in If-None-Match for a 304); any origin may call (CORS). ' +
        'The real-time channels (WebSocket and Socket.IO) are described in the README.',
    },
    servers: [
      { url: '/', description: 'This service' },
      { url: 'http://localhost:3999', description: 'A local service (npm start)' },
    ],
    tags: ordered.map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) })),
    paths: { ...paths, ...(opts.extraPaths ?? {}) },
    components: { schemas: components },
  };
}
