// The OpenAPI document covers every route, with parameters and resolvable response schemas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { startService } from '../../testing/service.ts';
import { apiRoutes } from '../routes.ts';

test('/extended/v1/openapi.json documents every route and its schemas resolve', async () => {
  const svc = await startService();
  try {
    const res = await fetch(`${svc.apiUrl}/extended/v1/openapi.json`);
    assert.equal(res.status, 200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, { parameters: Array<{ name: string; in: string }>; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>; components: { schemas: Record<string, unknown> } };
    assert.match(doc.openapi, /^3\./);
    for (const r of apiRoutes) {
      const path = r.path.replace(/:(\w+)/g, '{$1}');
      const op = doc.paths[path]?.[r.method];
      assert.ok(op, `${r.method} ${path} is documented`);
      for (const name of (r.path.match(/:(\w+)/g) ?? []).map((p) => p.slice(1))) {
        assert.ok(op.parameters.some((p) => p.name === name && p.in === 'path'), `${path} documents path parameter ${name}`);
      }
    }
    // Every response schema compiles with all component refs resolved.
    const ajv = new Ajv({ strict: false });
    ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, resp] of Object.entries(op.responses ?? {})) {
          const schema = resp.content?.['application/json']?.schema;
          if (!schema) continue;
          const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
          assert.doesNotThrow(() => ajv.compile(rewritten), `${method} ${path} ${status}`);
        }
      }
    }
  } finally {
    await svc.stop();
  }
});
