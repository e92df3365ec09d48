// The OpenAPI document against the reference's recorded answers (v8's and v9's /extended/v3): every golden URL is a documented
// path and method, and every recorded answer validates against the documented response schema of
// its status (the 4XX error schema for client errors). No service: the document is built as
// /extended/v1/openapi.json serves it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { apiOpenApi } from '../routes.ts';
import { DocumentedAnswers, PathMatcher } from './match.ts';
import { readGoldens } from './examples.ts';
import { SHARED } from '../../testing/service.ts';

interface Operation {
  operationId: string;
  deprecated?: boolean;
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, unknown>;
}

/** Reference answers our documented schemas do not accept on purpose (README, Compatibility
 *  notes): the Mesh 1.5.1 additions we answer with and require, and a reference bug. */
const KNOWN: Array<{ op: string; status: number; error: RegExp; because: string }> = [
  { op: 'post /rosetta/v1/block/transaction', status: 200, error: /^data must have required property 'transaction'$/, because: 'Mesh 1.5.1 wraps it in `transaction`' },
  { op: 'post /rosetta/v1/network/options', status: 200, error: /^data\/allow must have required property 'call_methods'$/, because: 'Mesh 1.5.1 adds allow.call_methods' },
  { op: 'post /rosetta/v1/mempool/transaction', status: 400, error: /^data must have required property 'code'$/, because: 'the reference answered some unknown txs with an empty object' },
];

/** An unknown route's 404 (the reference's router answered it, no operation did). */
const unmatched = (body: unknown) => typeof (body as { message?: unknown })?.message === 'string' && /^Route \w+:.* not found$/.test((body as { message: string }).message);

test('every golden URL is a documented operation and its recorded answer validates', () => {
  const doc = apiOpenApi() as unknown as Doc;
  const matcher = new PathMatcher(Object.keys(doc.paths));
  const answers = new DocumentedAnswers(doc);
  const undocumented = new Set<string>();
  const invalid = new Map<string, string>();
  let checked = 0;
  for (const g of [...readGoldens(join(SHARED, 'goldens')), ...readGoldens(join(SHARED, 'goldens-v3'))]) {
    if (g.status === 404 && unmatched(g.body)) continue;
    const method = (g.method ?? 'GET').toLowerCase();
    const path = matcher.match(g.url);
    if (!path || !doc.paths[path][method]) {
      undocumented.add(`${method.toUpperCase()} ${g.url}`);
      continue;
    }
    const validate = answers.validator(path, method, g.status);
    if (!validate) {
      invalid.set(`${method} ${path} ${g.status}`, `${g.url}: status ${g.status} is not documented`);
      continue;
    }
    checked++;
    if (validate(g.body)) continue;
    const error = answers.errorsText(validate);
    if (KNOWN.some((k) => k.op === `${method} ${path}` && k.status === g.status && k.error.test(error))) continue;
    invalid.set(`${method} ${path} ${g.status}`, `${g.url}: ${error}`);
  }
  assert.deepEqual([...undocumented].slice(0, 20), [], 'golden URLs without a documented operation');
  assert.deepEqual([...invalid.values()].slice(0, 20), [], 'recorded answers that do not validate');
  assert.ok(checked > 10_000, `only ${checked} answers were checked`);
});

test('operations read as names, carry tags and response schemas; the deprecated seed endpoint is marked', () => {
  const doc = apiOpenApi() as unknown as Doc & { servers?: unknown[]; tags?: Array<{ name: string }> };
  assert.ok(doc.servers && doc.servers.length > 0, 'servers');
  const tagNames = new Set(doc.tags?.map((t) => t.name));
  const ids = new Set<string>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (method === 'summary') continue;
      assert.match(op.operationId, /^[a-z][A-Za-z0-9]*$/, `${method} ${path}: operationId ${op.operationId}`);
      assert.ok(!ids.has(op.operationId), `${op.operationId} is unique`);
      ids.add(op.operationId);
      const tags = (op as unknown as { tags: string[] }).tags;
      assert.ok(tags.length > 0 && tags.every((t) => tagNames.has(t)), `${method} ${path} has a listed tag`);
      const documented = Object.entries(op.responses).filter(([s]) => s !== '4XX');
      assert.ok(documented.length > 0, `${method} ${path} documents its answers`);
      if (path.startsWith('/v2/{path}')) continue;
      for (const [status, r] of documented) {
        const content = r.content && Object.values(r.content)[0];
        assert.ok(content && content.schema && Object.keys(content.schema as object).length > 0, `${method} ${path} ${status} has a response schema`);
      }
    }
  }
  assert.equal(doc.paths['/extended/v1/tx/{tx_id}'].get.operationId, 'getTransactionById');
  const seed = doc.paths['/extended/v1/address/{principal}/{tx_id}/with_transfers'].get;
  assert.equal(seed.operationId, 'getSingleTransactionWithTransfers');
  assert.equal(seed.deprecated, true);
  assert.equal(doc.paths['/extended/v2/blocks/{height_or_hash}']?.get.deprecated, undefined);
});
