// A route: its uWS pattern, the JSON Schemas of its params, query and responses, and its handler.
// Requests are validated with ajv before the handler runs; the same schemas feed the OpenAPI document.
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { Ajv, type ValidateFunction } from 'ajv';
import { copyRequest, paramNamesOf, type ApiRequest } from './request.ts';
import { writeReply, type Reply, type ResponseState } from '../server/respond.ts';
import { ANY_ORIGIN, type CorsPolicy } from '../server/cors.ts';
import { cacheControlOf, etagOf, ifNoneMatchHits, settledHeightOf } from './conventions/etag.ts';
import { HttpError, httpError } from './errors.ts';
import type { CacheVersions, ResponseCache } from './conventions/response-cache.ts';
import { JsonText } from '../server/json-text.ts';
import { withIntegerBounds } from './conventions/schema-bounds.ts';
import { flagOrOff } from '../config/tuning.ts';
import { describeAjvError } from '../server/schema-errors.ts';
import { DEPRECATION_WARNING, GONE, deprecatedEndpointsEnabled, deprecatedInV9 } from './conventions/deprecation.ts';

export type JsonSchema = Record<string, unknown>;

export interface RouteDef<Ctx = unknown> {
  method: 'get' | 'post';
  /** uWS pattern, e.g. /extended/v1/tx/:tx_id */
  path: string;
  summary?: string;
  tags?: string[];
  params?: JsonSchema;
  query?: JsonSchema;
  /** Response schemas by status code. */
  responses?: Record<number, JsonSchema>;
  handler: (req: ApiRequest, ctx: Ctx) => Promise<Reply | unknown>;
  /** false: never answered from the response cache (answers that change without new chain data). */
  cache?: boolean;
  /** True for an answer only a reorg can change (cached across new blocks until one). */
  stableUntilReorg?: (body: unknown) => boolean;
  /** JSON Schema of a POST body (the OpenAPI document shows it; the handler reads it with bodyOf). */
  body?: JsonSchema;
  /** Parse the body and validate it against `body` before the handler runs, answering a bad one as
   *  the reference does (400 FST_ERR_VALIDATION); otherwise the handler validates (e.g. Rosetta,
   *  whose errors have their own shape). */
  validateBody?: boolean;
  /** The OpenAPI operationId (default: from the reference's name for the route, else the summary). */
  operationId?: string;
  /** Marked deprecated in the OpenAPI document (as the reference marks it). */
  deprecated?: boolean;
  /** A longer description for the OpenAPI document. */
  description?: string;
}

/** One answered request, for metrics and the request log. */
export interface AnsweredRequest {
  /** The route's pattern (`/extended/v1/tx/:tx_id`), or '(unmatched)'. */
  route: string;
  method: string;
  /** The request path and query as sent. */
  url: string;
  status: number;
  /** Body bytes written. */
  bytes: number;
  seconds: number;
  /** Answered from the response cache. */
  cached: boolean;
  remoteAddress: string;
}

/** How the API's answers are served beyond the routes themselves. */
export interface HttpOptions<Ctx = unknown> {
  /** Which origins browsers may call from (default any). */
  cors?: CorsPolicy;
  /** Called once per answered request (metrics, the request log). */
  onAnswer?: (a: AnsweredRequest) => void;
  /** The tip's height: settled answers `settledDepth` blocks below it may be kept by clients. */
  tipHeight?: () => number | undefined;
  settledDepth?: number;
  /** The context a route's handler gets (default the shared one), e.g. with reads timed per family. */
  contextFor?: (route: RouteDef<Ctx>) => Ctx;
  /** Read each client's address (only the request log shows it: reading it is a native call and a
   *  copy per request, ~5% of a small answer's CPU). */
  remoteAddress?: boolean;
}

/** POST bodies above this size are answered 413 without running the handler. */
export const POST_BODY_LIMIT = 1024 * 1024;

/**
 * Collects a POST body. Must be called synchronously in the uWS handler (before any await): uWS
 * only delivers body chunks to a callback registered there. The chunks' ArrayBuffers are reused
 * after each callback, so each is copied.
 */
function readBody(res: HttpResponse, state: ResponseState, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.onData((ab, isLast) => {
      if (state.aborted || size > limit) return;
      size += ab.byteLength;
      if (size > limit) return reject(httpError(413, `the request body exceeds the limit of ${limit} bytes`));
      chunks.push(Buffer.from(new Uint8Array(ab)));
      if (isLast) resolve(Buffer.concat(chunks, size));
    });
  });
}

/** Response caching for registerRoutes: the cache, and the versions of the data answers depend on. */
export interface CacheOptions {
  cache: ResponseCache;
  versions: () => CacheVersions;
}

const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: false, strict: false });
/** Bodies are parsed without coercion: a JSON body already has its types. */
const bodyAjv = new Ajv({ useDefaults: true, allErrors: false, strict: false });

/** The parsed JSON body, or the reference's 400 (Fastify's wording for a body that does not parse). */
function parseBody(raw: Buffer): unknown {
  if (raw.length === 0) throw httpError(400, 'body must be object', { code: 'FST_ERR_VALIDATION' });
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw httpError(400, `Body is not valid JSON but content-type is set to 'application/json'`, { code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
  }
}

/** An ajv validator behind a check that compiles it on first use (lazily). */
interface LazyValidator {
  check(data: unknown): boolean;
  /** The last check's errors (ajv's). */
  errors(): ValidateFunction['errors'];
}

/**
 * A service has ~300 routes and every thread that serves them registers all of them: compiling each
 * schema at registration cost a thread about a second of CPU at start (more with response checks),
 * while a process often answers only a few routes. So a schema is compiled when its route is first
 * asked.
 */
function lazily(compileIt: () => ValidateFunction): LazyValidator {
  let fn: ValidateFunction | undefined;
  return {
    check: (data) => (fn ??= compileIt())(data),
    errors: () => fn?.errors,
  };
}

function compile(schema: JsonSchema | undefined): LazyValidator | undefined {
  return schema ? lazily(() => ajv.compile(withIntegerBounds(schema))) : undefined;
}

export function isReply(v: unknown): v is Reply {
  return typeof v === 'object' && v !== null && 'status' in v && 'body' in v && Object.keys(v).every((k) => k === 'status' || k === 'body' || k === 'headers');
}

/**
 * With STACKS_API_VALIDATE_RESPONSES=1 (the test suite sets it) every 2xx body is checked against
 * the route's declared response schema; a mismatch is answered 500 naming it, so any test that
 * looks at the answer fails.
 */
const validateResponses = flagOrOff(process.env, 'STACKS_API_VALIDATE_RESPONSES');
const responseAjv = new Ajv({ allErrors: false, strict: false });

function responseCheck(route: RouteDef<never>): ((status: number, body: unknown) => string | null) | undefined {
  if (!validateResponses || !route.responses) return undefined;
  const checks = new Map(Object.entries(route.responses).map(([status, schema]) => [Number(status), lazily(() => responseAjv.compile(schema))]));
  return (status, body) => {
    const check = checks.get(status);
    if (!check || check.check(body instanceof JsonText ? JSON.parse(body.text) : body)) return null;
    return describeAjvError('response', check.errors());
  };
}

/**
 * A route's request check: params and query validated (coerced, defaulted) against its schemas, as
 * the reference answers a bad one (400, FST_ERR_VALIDATION). Throws an HttpError.
 */
export function requestValidator(route: RouteDef<never>): (request: ApiRequest) => void {
  const checkParams = compile(route.params);
  const checkQuery = compile(route.query);
  // Only the names the route declares reach its handler, validated: anything else would reach a
  // query unchecked (a padded ` 1` bound as an Int32 was an engine error); the reference ignores them.
  const declared = new Set(Object.keys((route.query?.properties ?? {}) as Record<string, unknown>));
  return (request) => {
    if (checkParams && !checkParams.check(request.params)) {
      throw httpError(400, describeAjvError('params', checkParams.errors()), { code: 'FST_ERR_VALIDATION' });
    }
    const q: Record<string, unknown> = Object.fromEntries([...request.query.entries()].filter(([name]) => declared.has(name)));
    if (checkQuery && !checkQuery.check(q)) throw httpError(400, describeAjvError('querystring', checkQuery.errors()), { code: 'FST_ERR_VALIDATION' });
    (request as ApiRequest & { q?: Record<string, unknown> }).q = q;
  };
}

/** The body of an answer as JSON text, with whether only a reorg can change it. */
function jsonTextOf(route: RouteDef<never>, body: unknown): { text: string | Buffer; stable: boolean; etag?: string; written?: () => void } {
  if (body instanceof JsonText) return { text: body.body, stable: body.stableUntilReorg, etag: body.etag, written: body.written };
  return { text: JSON.stringify(body), stable: route.stableUntilReorg?.(body) ?? false };
}

function internalError(method: string, path: string, err: unknown, reply: (r: Reply) => void): void {
  console.error(`${method.toUpperCase()} ${path} failed:`, err);
  reply({ status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'internal error' } });
}

export function registerRoutes<Ctx>(app: TemplatedApp, routes: readonly RouteDef<Ctx>[], ctx: Ctx, caching?: CacheOptions, http: HttpOptions<Ctx> = {}): void {
  const cors = http.cors ?? ANY_ORIGIN;
  const { onAnswer, tipHeight, settledDepth } = http;
  const deprecatedEnabled = deprecatedEndpointsEnabled();
  for (const route of routes) {
    const deprecated = deprecatedInV9(route.method, route.path);
    const names = paramNamesOf(route.path);
    const validate = requestValidator(route as RouteDef<never>);
    const bodySchema = route.body;
    const checkBody = route.validateBody && bodySchema ? lazily(() => bodyAjv.compile(bodySchema)) : undefined;
    const checkResponse = responseCheck(route as RouteDef<never>);
    const routeCtx = http.contextFor?.(route) ?? ctx;
    const handle = (res: HttpResponse, req: HttpRequest, head: boolean): void => {
      const started = onAnswer ? performance.now() : 0;
      const state: ResponseState = { aborted: false, head };
      res.onAborted(() => {
        state.aborted = true;
      });
      const origin = req.getHeader('origin');
      const ifNoneMatch = req.getHeader('if-none-match');
      const corsHeaders = deprecated ? { ...cors.headers(origin), ...DEPRECATION_WARNING } : cors.headers(origin);
      let url = '';
      let remoteAddress = '';
      const reply = (r: Reply, cached = false) => {
        const bytes = writeReply(res, state, r, corsHeaders);
        onAnswer?.({ route: route.path, method: head ? 'HEAD' : route.method.toUpperCase(), url, status: r.status, bytes, seconds: (performance.now() - started) / 1000, cached, remoteAddress });
      };
      // A GET answered 200 with JSON: tagged, and 304 when the client holds that tag already.
      const replyJson = (text: string | Buffer, etag: string, settledHeight: number | undefined, cached: boolean) => {
        const headers = { 'content-type': 'application/json; charset=utf-8', etag, 'cache-control': cacheControlOf(settledHeight, tipHeight?.(), settledDepth) };
        if (ifNoneMatchHits(ifNoneMatch, etag)) {
          // Status and headers only (the length is the full answer's, as for HEAD).
          state.head = true;
          reply({ status: 304, headers, body: text }, cached);
        } else reply({ status: 200, headers, body: text }, cached);
      };
      let request: ApiRequest;
      try {
        request = copyRequest(res, req, names, !!http.remoteAddress);
        url = request.rawQuery ? `${request.path}?${request.rawQuery}` : request.path;
        remoteAddress = request.remoteAddress;
      } catch (err) {
        url = req.getUrl();
        if (err instanceof HttpError) reply({ status: err.status, body: err.body });
        else internalError(route.method, req.getUrl(), err, reply);
        return;
      }
      // A disabled deprecated route does no work at all (its POST body is not even read).
      if (deprecated && !deprecatedEnabled) {
        reply(GONE);
        return;
      }
      const bodyRead = route.method === 'post' ? readBody(res, state, POST_BODY_LIMIT) : undefined;
      // Awaited below unless validation fails first: a 413 must not become an unhandled rejection.
      bodyRead?.catch(() => {});
      const cacheKey = caching && route.method === 'get' && route.cache !== false ? `${request.path}?${request.rawQuery}` : undefined;
      // Read before the handler runs: an answer is never filed under a newer version than its data.
      const versions = cacheKey ? caching!.versions() : { commit: 0, reorg: 0 };
      const hit = cacheKey ? caching!.cache.get(cacheKey, versions) : undefined;
      if (hit) {
        replyJson(hit.body, hit.etag ?? etagOf(hit.body), hit.settledHeight, true);
        return;
      }
      void (async () => {
        try {
          validate(request);
          if (bodyRead) (request as ApiRequest & { body?: Buffer }).body = await bodyRead;
          if (checkBody) {
            const body = parseBody(bodyOf(request));
            if (!checkBody.check(body)) throw httpError(400, describeAjvError('body', checkBody.errors()), { code: 'FST_ERR_VALIDATION' });
          }
          const out = await route.handler(request, routeCtx);
          const answer = isReply(out) ? out : { status: 200, body: out };
          const violation = checkResponse?.(answer.status, answer.body);
          if (violation) {
            console.error(`${route.method.toUpperCase()} ${request.path}: response schema violation: ${violation}`);
            reply({ status: 500, body: { error: 'Response schema violation', message: `${route.path}: ${violation}` } });
            return;
          }
          if (route.method === 'get' && answer.status === 200 && !answer.headers && typeof answer.body === 'object' && answer.body !== null && !Buffer.isBuffer(answer.body)) {
            const { text, stable, etag: identityTag, written } = jsonTextOf(route as RouteDef<never>, answer.body);
            // Encoded once (unless assembled as bytes): the tag, the length and the socket write all take these bytes.
            const bytes = typeof text === 'string' ? Buffer.from(text) : text;
            const etag = identityTag ?? etagOf(bytes);
            const settledHeight = stable ? settledHeightOf(typeof text === 'string' ? text : text.toString('utf8')) : undefined;
            // A lent writer's bytes are its again once written: the cache keeps a copy.
            if (cacheKey) caching!.cache.set(cacheKey, stable ? 'reorg' : 'commit', versions, { status: 200, body: written ? Buffer.from(bytes) : text, etag, settledHeight });
            replyJson(bytes, etag, settledHeight, false);
            written?.();
            return;
          }
          reply(answer);
        } catch (err) {
          if (err instanceof HttpError) reply({ status: err.status, body: err.body });
          else internalError(route.method, request.path, err, reply);
        }
      })();
    };
    const register = (path: string) => {
      app[route.method](path, (res, req) => handle(res, req, false));
      // HEAD answers what GET would, without the body.
      if (route.method === 'get') app.head(path, (res, req) => handle(res, req, true));
    };
    // Like the reference (Fastify's ignoreTrailingSlash): `/x` and `/x/` are the same route; the
    // official client calls several list endpoints with the slash.
    register(route.path);
    if (!route.path.endsWith('/')) register(`${route.path}/`);
  }
}

/** The query values the route declares, validated, coerced and defaulted (none without a query schema). */
export function queryOf<T = Record<string, unknown>>(req: ApiRequest): T {
  return ((req as ApiRequest & { q?: unknown }).q ?? {}) as T;
}

/** The raw body of a POST request (empty for other methods). */
export function bodyOf(req: ApiRequest): Buffer {
  return (req as ApiRequest & { body?: Buffer }).body ?? Buffer.alloc(0);
}
