// Every JSON route family of the API, in one list.
import type { RouteDef } from './route.ts';
import type { ApiContext } from './context.ts';
import { buildOpenApi } from './openapi.ts';
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
import { analyticsFamilyRoutes } from './analytics/index.ts';

const familyRoutes: RouteDef<ApiContext>[] = [...statusRoutes, ...blockV1Routes, ...blockV2Routes, ...burnBlockV2Routes, ...addressRoutes, ...txFamilyRoutes, ...infoRoutes, ...supplyRoutes, ...burnchainRoutes, ...poxRoutes, ...contractRoutes, ...searchRoutes, ...tokenRoutes, ...bnsRoutes, ...rosettaRoutes, ...analyticsFamilyRoutes];

let openApiDocument: unknown;

/** The OpenAPI document of everything above (generated once, on first request). */
const openApiRoute: RouteDef<ApiContext> = {
  method: 'get',
  path: '/extended/v1/openapi.json',
  summary: 'OpenAPI document',
  tags: ['Info'],
  handler: async () =>
    (openApiDocument ??= buildOpenApi(apiRoutes, {
      '/v2/{path}': {
        summary: 'Stacks node RPC, forwarded to a load-balanced pool of nodes',
        get: { summary: 'Forwarded to a Stacks node', parameters: [{ name: 'path', in: 'path', required: true, schema: { type: 'string' } }], responses: { default: { description: "The node's answer" } } },
        post: { summary: 'Forwarded to a Stacks node', parameters: [{ name: 'path', in: 'path', required: true, schema: { type: 'string' } }], responses: { default: { description: "The node's answer" } } },
      },
    })),
};

export const apiRoutes: RouteDef<ApiContext>[] = [...familyRoutes, openApiRoute];
