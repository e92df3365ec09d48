// Every JSON route family of the API, in one list.
import type { RouteDef } from './route.ts';
import type { ApiContext } from './context.ts';
import { statusRoutes } from './status/routes.ts';
import { blockV1Routes } from './blocks/v1-routes.ts';
import { blockV2Routes } from './blocks/v2-routes.ts';
import { burnBlockV2Routes } from './blocks/v2-burn-routes.ts';
import { addressRoutes } from './address/routes.ts';
import { txFamilyRoutes } from './tx/index.ts';

export const apiRoutes: RouteDef<ApiContext>[] = [...statusRoutes, ...blockV1Routes, ...blockV2Routes, ...burnBlockV2Routes, ...addressRoutes, ...txFamilyRoutes];
