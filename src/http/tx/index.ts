// The transaction family's routes (/extended/v1/tx, /extended/v1/microblock, the v2 block-tx list
// and mempool fees) and the tx-object builder other families use.
import type { RouteDef } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { txRoutes } from './routes.ts';
import { mempoolRoutes } from './mempool-routes.ts';
import { microblockRoutes } from './microblock-routes.ts';
import { txV2Routes } from './v2-routes.ts';

export const txFamilyRoutes: RouteDef<ApiContext>[] = [...mempoolRoutes, ...txRoutes, ...microblockRoutes, ...txV2Routes];

export * from './tx-object.ts';
