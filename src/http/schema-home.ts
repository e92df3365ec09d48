// Route schemas live in schemas/api/<family>.json as named `$defs` (shared entities by `$ref`). A
// route takes one by name with the file's `$defs` beside it, so its refs resolve wherever it is
// compiled (request checks, response checks, the OpenAPI document, which hoists them into
// components).
import { readFileSync } from 'node:fs';
import type { JsonSchema } from './route.ts';

const HOME = new URL('../../schemas/api/', import.meta.url);

const defsOf = (file: string): Record<string, JsonSchema> => (JSON.parse(readFileSync(new URL(file, HOME), 'utf8')) as { $defs: Record<string, JsonSchema> }).$defs;

/** The definitions of schemas/api/`file`, by name; `uses`: files whose entities it refers to as
 *  `#/$defs/<name>` (their definitions go beside its own). */
export function apiSchemas(file: string, uses: readonly string[] = []): (name: string) => JsonSchema {
  const defs = Object.assign({}, ...uses.map(defsOf), defsOf(file)) as Record<string, JsonSchema>;
  return (name) => {
    if (!defs[name]) throw new Error(`schemas/api/${file} has no $defs/${name}`);
    return { ...defs[name], $defs: defs };
  };
}

/** A redirect's body (empty; the Location header says where), for the routes that redirect. */
export const REDIRECT = apiSchemas('service.json')('Redirect');
