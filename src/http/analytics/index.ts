// The analytics family: aggregate routes, the SQL endpoint and the dashboard page.
import type { RouteDef } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { analyticsRoutes } from './routes.ts';
import { sqlRoute } from './sql-route.ts';
import { analyticsPageRoutes } from './page.ts';

export const analyticsFamilyRoutes: RouteDef<ApiContext>[] = [...analyticsRoutes, sqlRoute, ...analyticsPageRoutes];
