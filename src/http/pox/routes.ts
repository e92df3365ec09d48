// The PoX family: v1 operations per PoX version and v2 reward cycles.
import type { RouteDef } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { poxV1Routes } from './v1-routes.ts';
import { poxV2Routes } from './v2-routes.ts';

export const poxRoutes: RouteDef<ApiContext>[] = [...poxV1Routes, ...poxV2Routes];
