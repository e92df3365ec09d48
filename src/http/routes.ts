// Every JSON route family of the API, in one list.
import type { RouteDef } from './route.ts';
import type { ApiContext } from './context.ts';
import { buildOpenApi } from './openapi/openapi.ts';
import { statusRoutes } from './status/routes.ts';
import { blockV1Routes } from './blocks/v1-routes.ts';
import { blockV2Routes } from './blocks/v2-routes.ts';
import { burnBlockV2Routes } from './blocks/v2-burn-routes.ts';
import { addressRoutes } from './address/routes.ts';
import { txFamilyRoutes } from './tx/index.ts';
import { infoRoutes } from './info/routes.ts';
import { supplyRoutes } from './supply/routes.ts';
import { burnchainRoutes } from './burnchain/routes.ts';
import { poxRoutes } from './pox/routes.ts';
import { contractRoutes } from './contracts/routes.ts';
import { searchRoutes } from './search/routes.ts';
import { tokenRoutes } from './tokens/routes.ts';
import { bnsRoutes } from './bns/routes.ts';
import { rosettaRoutes } from './rosetta/routes.ts';
import { healthRoutes } from './health/routes.ts';
import { analyticsFamilyRoutes } from './analytics/index.ts';
import { v3Routes } from './v3/index.ts';

const familyRoutes: RouteDef<ApiContext>[] = [...statusRoutes, ...blockV1Routes, ...blockV2Routes, ...burnBlockV2Routes, ...addressRoutes, ...txFamilyRoutes, ...infoRoutes, ...supplyRoutes, ...burnchainRoutes, ...poxRoutes, ...contractRoutes, ...searchRoutes, ...tokenRoutes, ...bnsRoutes, ...rosettaRoutes, ...healthRoutes, ...analyticsFamilyRoutes, ...v3Routes];

let openApiDocument: Record<string, unknown> | undefined;

const nodePath = { name: 'path', in: 'path', required: true, description: 'The node RPC path after /v2/', schema: { type: 'string' } };

/** What the service answers beside its JSON routes (plugins): the node proxy, metrics, the docs page. */
const PLUGIN_PATHS: Record<string, Record<string, unknown>> = {
  '/v2/{path}': {
    summary: 'Stacks node RPC, forwarded to a load-balanced pool of nodes',
    get: { operationId: 'getNodeRpc', tags: ['Node RPC'], summary: 'Forwarded to a Stacks node', parameters: [nodePath], responses: { default: { description: "The node's answer" } } },
    post: { operationId: 'postNodeRpc', tags: ['Node RPC'], summary: 'Forwarded to a Stacks node', parameters: [nodePath], responses: { default: { description: "The node's answer" } } },
  },
  '/metrics': {
    get: {
      operationId: 'getMetrics',
      tags: ['Service'],
      summary: 'Prometheus metrics (text exposition format)',
      description: 'Every series is listed in the README (Metrics).',
      responses: { 200: { description: 'The series', content: { 'text/plain': { schema: { type: 'string' } } } } },
    },
  },
  '/docs': {
    get: { operationId: 'getDocsPage', tags: ['Service'], summary: 'This reference, as a web page', responses: { 200: { description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } } } },
  },
};

/** The OpenAPI document of every route (generated once). */
export function apiOpenApi(): Record<string, unknown> {
  return (openApiDocument ??= buildOpenApi(apiRoutes, { extraPaths: PLUGIN_PATHS }));
}

/** The OpenAPI document of everything above. */
const openApiRoute: RouteDef<ApiContext> = {
  method: 'get',
  path: '/extended/v1/openapi.json',
  operationId: 'getOpenApiDocument',
  summary: 'OpenAPI document',
  tags: ['Info'],
  responses: { 200: { title: 'OpenApiDocument', type: 'object', properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } }, required: ['openapi', 'info', 'paths'] } },
  handler: async () => apiOpenApi(),
};

export const apiRoutes: RouteDef<ApiContext>[] = [...familyRoutes, openApiRoute];
