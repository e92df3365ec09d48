// GET /health (the process is up) and GET /ready (it should get traffic: the store answers,
// processing has not stopped, and it is not too far behind the event log; 503 otherwise). Not in
// the reference API; for load balancers and orchestrators. Never cached: they describe this process.
import type { RouteDef } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { SERVER_VERSION } from '../conventions/version.ts';
import { apiSchemas } from '../schema-home.ts';

const entity = apiSchemas('service.json');

/** A store that does not answer this fast counts as down. */
const STORE_TIMEOUT_MS = 2000;
/** Used when the configuration does not say (STACKS_API_READY_MAX_LAG). */
const DEFAULT_MAX_LAG = 1000;

interface Check {
  ok: boolean;
  message?: string;
}

async function storeCheck(ctx: ApiContext): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${STORE_TIMEOUT_MS} ms`)), STORE_TIMEOUT_MS);
  });
  try {
    await Promise.race([ctx.store.read('SELECT 1 AS ok', {}), timeout]);
    return { ok: true };
  } catch (e) {
    return { ok: false, message: `the store does not answer: ${(e as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}

function processingCheck(ctx: ApiContext): Check {
  const error = ctx.ingest?.error();
  return error ? { ok: false, message: `processing stopped at event log entry ${error.logId}: ${error.message}` } : { ok: true };
}

function lagCheck(ctx: ApiContext): Check & { behind: number; max: number } {
  const max = ctx.config.readyMaxLag ?? DEFAULT_MAX_LAG;
  const behind = ctx.ingest ? ctx.ingest.receivedId() - ctx.ingest.processedId() : 0;
  return behind < max ? { ok: true, behind, max } : { ok: false, message: `processing is ${behind} event log entries behind (ready below ${max})`, behind, max };
}

export const healthRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    summary: 'Liveness: the process is up',
    tags: ['Service'],
    cache: false,
    responses: { 200: entity('Health') },
    handler: async () => ({ status: 'ok', server_version: SERVER_VERSION, uptime_seconds: Math.round(process.uptime() * 1000) / 1000 }),
  },
  {
    method: 'get',
    path: '/ready',
    operationId: 'getReadiness',
    summary: 'Readiness: the store answers, processing runs and is not far behind',
    description: 'Answers 503 with the failing checks while this process should not get traffic.',
    tags: ['Service'],
    cache: false,
    responses: { 200: entity('Readiness'), 503: entity('Readiness') },
    handler: async (_req, ctx) => {
      const checks = { store: await storeCheck(ctx), processing: processingCheck(ctx), lag: lagCheck(ctx) };
      const ready = checks.store.ok && checks.processing.ok && checks.lag.ok;
      return { status: ready ? 200 : 503, body: { status: ready ? 'ready' : 'not_ready', checks } };
    },
  },
];
