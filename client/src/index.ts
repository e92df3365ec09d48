// The stacks-index-api client: openapi-fetch over the types openapi-typescript generated from the
// service's OpenAPI document (src/schema.d.ts; `npm run build` makes it again from the routes).
//
//   import { createApiClient } from '@stacks-index-api/client';
//   const api = createApiClient({ baseUrl: 'http://localhost:3999' });
//   const { data, error, response } = await api.GET('/extended/v1/tx/{tx_id}', { params: { path: { tx_id } } });
import createClient, { type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { paths, components, operations } from './schema.js';

/** A client of one service, typed by path, method, parameters and answers. */
export function createApiClient(options: ClientOptions & { baseUrl: string }) {
  return createClient<paths>(options);
}

export type ApiClient = ReturnType<typeof createApiClient>;
