// The address family: /extended/v1/address/:principal/… and /extended/v2/addresses/….
import type { RouteDef } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { addressV1BalanceRoutes } from './v1-balance-routes.ts';
import { addressV1TxRoutes } from './v1-tx-routes.ts';
import { addressV2Routes } from './v2-routes.ts';

export const addressRoutes: RouteDef<ApiContext>[] = [...addressV1BalanceRoutes, ...addressV1TxRoutes, ...addressV2Routes];
