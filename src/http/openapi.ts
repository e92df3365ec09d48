// The OpenAPI 3 document, generated from the routes' JSON Schemas: paths and parameters from each
// route's params/query schemas, responses from its declared response schemas, whose `$defs` are
// hoisted into components.
import type { JsonSchema, RouteDef } from './route.ts';
import { SERVER_VERSION } from './version.ts';
import { withIntegerBounds } from './schema-bounds.ts';

type Schema = Record<string, unknown>;

/** Moves `$defs` into `components` and points `#/$defs/X` refs there (recursively). */
function hoist(schema: unknown, components: Record<string, Schema>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => hoist(s, components));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema as Schema)) {
    if (k === '$defs') {
      for (const [name, def] of Object.entries(v as Schema)) if (!components[name]) components[name] = hoist(def, components) as Schema;
      continue;
    }
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) out[k] = `#/components/schemas/${v.slice(8)}`;
    else if (k === '$schema' || k === '$id') continue;
    else out[k] = hoist(v, components);
  }
  return out;
}

function parameters(schema: JsonSchema | undefined, where: 'path' | 'query'): Schema[] {
  const props = (schema?.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, s]) => ({ name, in: where, required: where === 'path' || required.has(name), schema: s }));
}

export function buildOpenApi<Ctx>(routes: readonly RouteDef<Ctx>[], extraPaths: Record<string, Schema> = {}): Schema {
  const components: Record<string, Schema> = {};
  const paths: Record<string, Schema> = {};
  for (const r of routes) {
    const path = r.path.replace(/:(\w+)/g, '{$1}');
    const responses: Record<string, Schema> = {};
    for (const [status, schema] of Object.entries(r.responses ?? { 200: {} })) {
      const s = hoist(schema, components) as Schema;
      const title = typeof schema.title === 'string' ? schema.title : undefined;
      if (title && !components[title]) components[title] = s;
      responses[status] = { description: title ?? 'OK', content: { 'application/json': { schema: title ? { $ref: `#/components/schemas/${title}` } : s } } };
    }
    responses['4XX'] = { description: 'Bad request or not found', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    (paths[path] ??= {})[r.method] = {
      summary: r.summary ?? path,
      tags: r.tags ?? [],
      operationId: `${r.method}_${path.replace(/[^a-zA-Z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
      parameters: [...parameters(withIntegerBounds(r.params), 'path'), ...parameters(withIntegerBounds(r.query), 'query')],
      ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: hoist(r.body, components) } } } } : {}),
      responses,
    };
  }
  components.Error = {
    type: 'object',
    properties: { error: { type: 'string' }, message: { type: 'string' }, statusCode: { type: 'integer' } },
    required: ['error', 'message'],
  };
  return {
    openapi: '3.1.0',
    info: { title: 'Stacks Blockchain API (indexer)', version: SERVER_VERSION, description: 'Hiro-compatible extended API served from ClickHouse.' },
    paths: { ...paths, ...extraPaths },
    components: { schemas: components },
  };
}
