// The Rosetta family's JSON Schemas: schemas/rosetta/mesh.json, each request and response object
// with the file's $defs so its $refs resolve (the route layer and OpenAPI take them as they are).
import { readFileSync } from 'node:fs';
import type { JsonSchema } from '../route.ts';

const defs = (JSON.parse(readFileSync(new URL('../../../schemas/rosetta/mesh.json', import.meta.url), 'utf8')) as { $defs: Record<string, JsonSchema> }).$defs;

/** Names of the $defs in schemas/rosetta/mesh.json. */
export type MeshObject = keyof typeof defs & string;

/** A schema of one Mesh object (e.g. 'RosettaBlockRequest'), self-contained. */
export function meshSchema(name: string): JsonSchema {
  if (!defs[name]) throw new Error(`schemas/rosetta/mesh.json has no $defs/${name}`);
  return { title: name, $ref: `#/$defs/${name}`, $defs: defs };
}

/** Response schemas of a route: its answer, and the Rosetta error object for 4xx/5xx. */
export function meshResponses(name: string): Record<number, JsonSchema> {
  const error = meshSchema('RosettaError');
  return { 200: meshSchema(name), 400: error, 500: error, 503: error };
}
