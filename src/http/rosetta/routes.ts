// The Rosetta (Mesh) API under /rosetta/v1: Data API (network, block, mempool, account) and
// Construction API.
import type { RouteDef } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { networkRoutes } from './network-routes.ts';
import { dataRoutes } from './data-routes.ts';
import { accountRoutes } from './account-routes.ts';
import { constructionRoutes } from './construction-routes.ts';

export const rosettaRoutes: RouteDef<ApiContext>[] = [...networkRoutes, ...dataRoutes, ...accountRoutes, ...constructionRoutes];
