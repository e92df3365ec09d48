// How a request that fails its JSON Schema is worded, for the API's 400s and the observer's
// rejected payloads alike.
import type { ErrorObject } from 'ajv';

/** Fastify-style message: every error as "params/tx_id must match pattern ...", joined by ", " (an
 *  anyOf reports each branch, then "must match a schema in anyOf"), as the reference API words it. */
export function describeAjvError(where: string, errors: ErrorObject[] | null | undefined): string {
  if (!errors?.length) return `${where} is invalid`;
  return errors.map((e) => `${where}${e.instancePath} ${e.message ?? 'is invalid'}`).join(', ');
}
