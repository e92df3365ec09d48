// Every JSON route family of the API, in one list.
import type { RouteDef } from './route.ts';
import type { ApiContext } from './context.ts';
import { statusRoutes } from './status/routes.ts';

export const apiRoutes: RouteDef<ApiContext>[] = [...statusRoutes];
