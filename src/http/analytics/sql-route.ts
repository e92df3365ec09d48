// POST /extended/analytics/v1/sql: read-only SQL over the documented views of the canonical chain.
// Off unless STACKS_API_ANALYTICS_SQL_TOKEN is set; callers send `Authorization: Bearer <token>`.
// Answers JSON ({columns, rows, row_count, elapsed_ms}) or CSV with a header row.
import { timingSafeEqual } from 'node:crypto';
import type { RouteDef } from '../route.ts';
import { bodyOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import type { ApiRequest } from '../request.ts';
import { httpError } from '../errors.ts';
import { SqlFailed, SqlRejected, SqlSandbox, type SqlFormat } from './sql-runner.ts';
import { SQL_ANSWER, SQL_REQUEST } from './schemas.ts';
import { ANALYTICS_PREFIX } from './routes.ts';
import type { Store } from '../../storage/client.ts';

const sandboxes = new WeakMap<Store, SqlSandbox>();

function authorized(req: ApiRequest, token: string): boolean {
  const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1]);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

interface JsonCompact {
  meta: Array<{ name: string; type: string }>;
  data: unknown[][];
  rows: number;
  statistics?: { elapsed?: number };
}

export const sqlRoute: RouteDef<ApiContext> = {
  method: 'post',
  path: `${ANALYTICS_PREFIX}/sql`,
  summary: 'Read-only SQL over the documented views of the canonical chain (enabled by a token; engine-enforced limits)',
  tags: ['Analytics'],
  body: SQL_REQUEST,
  validateBody: true,
  responses: { 200: SQL_ANSWER },
  cache: false,
  handler: async (req, ctx) => {
    const cfg = ctx.config.analyticsSql;
    if (!cfg) throw httpError(404, 'the analytics SQL endpoint is not enabled on this server (STACKS_API_ANALYTICS_SQL_TOKEN)');
    if (!authorized(req, cfg.token)) throw httpError(401, 'send the analytics SQL token as "Authorization: Bearer <token>"');
    if (!ctx.store.path) throw httpError(403, 'the analytics SQL endpoint runs on the embedded store only');
    const body = JSON.parse(bodyOf(req).toString('utf8')) as { query: string; format?: SqlFormat };
    const format = body.format ?? 'json';
    let sandbox = sandboxes.get(ctx.store);
    if (!sandbox) sandboxes.set(ctx.store, (sandbox = new SqlSandbox(ctx.store, cfg)));
    const t0 = performance.now();
    try {
      const { text } = await sandbox.run(body.query, format);
      if (format === 'csv') return { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' }, body: text };
      const out = JSON.parse(text) as JsonCompact;
      return { columns: out.meta, rows: out.data, row_count: out.rows, elapsed_ms: Math.round((performance.now() - t0) * 100) / 100 };
    } catch (e) {
      if (e instanceof SqlRejected) throw httpError(400, e.message, { code: 'SQL_REJECTED' });
      if (e instanceof SqlFailed) throw httpError(e.status, e.message, { code: 'SQL_FAILED' });
      throw e;
    }
  },
};
