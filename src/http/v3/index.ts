// The v3 family: /extended/v3, Hiro v9's cursor-paginated API.
import type { RouteDef } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { v3TransactionRoutes } from './transactions-routes.ts';
import { v3BlockRoutes } from './blocks-routes.ts';
import { v3MempoolRoutes } from './mempool-routes.ts';
import { v3PrincipalTxRoutes } from './principal-tx-routes.ts';
import { v3PrincipalBalanceRoutes } from './principal-balance-routes.ts';
import { v3StakingRoutes } from './staking-routes.ts';
import { v3CycleRoutes } from './cycle-routes.ts';

/** The reference's operation names (get_principal_transactions) as this document spells them. */
const camel = (name: string | undefined) => name?.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

export const v3Routes: RouteDef<ApiContext>[] = [...v3TransactionRoutes, ...v3BlockRoutes, ...v3MempoolRoutes, ...v3PrincipalTxRoutes, ...v3PrincipalBalanceRoutes, ...v3StakingRoutes, ...v3CycleRoutes].map((r) => ({
  ...r,
  operationId: camel(r.operationId),
}));
