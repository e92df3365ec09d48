// The node RPC proxy: `/v2/*` (minus the paths the API answers itself) forwarded verbatim to a pool of
// Stacks nodes, responses streamed back with backpressure. See createProxyPlugin.
//
// Per request: headers are rewritten (headers.ts), a node is picked from the rotation (pool.ts) and the
// request is dispatched on that node's undici Pool with a streaming handler. The body goes as a Buffer
// when all of it arrives before 64 KiB are buffered (the common case) and as a stream otherwise
// (body.ts); broadcasts are always buffered, both to be replayable and for the onBroadcastAccepted hook.
// The response's status line and headers go out with its first body bytes (one write for small answers).
//
// Retries on another node: any request that never reached its node (no connection was made, so nothing
// was sent: undici calls onRequestStart only on a connected socket, before writing); GET/HEAD/OPTIONS
// without a body also when the node dropped the connection before answering. Never once response bytes
// went to the client, never on a timeout, never a broadcast that was sent.
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import type { AppPlugin } from '../../server/server.ts';
import { statusText } from '../errors.ts';
import { writeReply } from '../../server/respond.ts';
import type { ProxyConfig } from './config.ts';
import { compileExclusions, formatClientAddress, forwardRequestHeaders, forwardResponseHeaders } from './headers.ts';
import { ProxyMetrics } from './metrics.ts';
import { NodePool, describeConnectError, errorCode, isConnectError, isProtocolError, type ProxyLogger, type UpstreamNode } from './pool.ts';
import { StreamedBody } from './body.ts';
import { Attempt, ProxyAbort, RESET_CODES, type AttemptOwner } from './attempt.ts';
import { parseTxid, rawTxOf } from './broadcast.ts';
import { createNodeClient, type NodeClient } from './node-client.ts';

export { parseTxid, rawTxOf };

export interface ProxyPluginOptions {
  /**
   * Paths under /v2 the proxy leaves to other routes: `/x/*` = everything under /x/, otherwise an exact
   * path. Default ['/v2/prices/*'] (BNS). Excluded requests fall through to the next matching uWS route
   * (req.setYield), so they reach the API's own handler or its 404, whatever the registration order.
   */
  exclude?: readonly string[];
  /**
   * Called when a node accepted a broadcast (POST /v2/transactions answered 2xx with a txid), after the
   * response went to the client. txid is 0x-prefixed lowercase hex; rawTx the transaction bytes (from the
   * octet-stream body, or the `tx` hex of a JSON body). Errors are logged and never affect the response.
   */
  onBroadcastAccepted?: (txid: string, rawTx: Buffer) => void | Promise<void>;
  /** Path of the Prometheus metrics endpoint, or false for none (see metricsText()). Default '/metrics'. */
  metricsPath?: string | false;
  /** More Prometheus text appended to the metrics endpoint's (e.g. the real-time channels'). */
  extraMetrics?: () => string;
  /** Where node state changes and hook failures are logged. Default console. */
  log?: ProxyLogger;
}

export interface ProxyPlugin {
  /** Registers `ANY /v2/*` and `GET /metrics` on the app. */
  plugin: AppPlugin;
  /** Stops health polls and closes upstream connections (in-flight requests get a short grace period). */
  close(): Promise<void>;
  /** Resolves once every node has been polled once: await before listening to start with a known rotation. */
  ready(): Promise<void>;
  /** The Prometheus text of the proxy's metrics. */
  metricsText(): string;
  /** The same pool for the API's own node requests (with failover). */
  node: NodeClient;
}

/** Bodies up to this size are collected and sent as one Buffer (replayable); larger ones are streamed. */
const STREAM_THRESHOLD = 64 * 1024;
/** A broadcast's response body kept for the hook (a JSON txid string is 68 bytes). */
const BROADCAST_RESPONSE_CAP = 4096;
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Our own reason for aborting an upstream request. */
interface ErrorReply {
  status: number;
  message: string;
}

export function createProxyPlugin(config: ProxyConfig, options: ProxyPluginOptions = {}): ProxyPlugin {
  const log: ProxyLogger = options.log ?? { info: (m) => console.info(m), warn: (m) => console.warn(m), error: (m, e) => console.error(m, e) };
  const pool = new NodePool(config, { log });
  const metrics = new ProxyMetrics();
  const isExcluded = compileExclusions(options.exclude ?? ['/v2/prices/*']);
  const metricsPath = options.metricsPath ?? '/metrics';
  const shared: Shared = { config, pool, metrics, log, onBroadcastAccepted: options.onBroadcastAccepted };
  pool.start();

  const metricsText = (): string => metrics.render(pool.nodes) + (options.extraMetrics?.() ?? '');

  const plugin: AppPlugin = (app: TemplatedApp) => {
    app.any('/v2/*', (res, req) => {
      const url = req.getUrl();
      if (isExcluded(url)) {
        req.setYield(true);
        return;
      }
      new Exchange(shared, res, req, url).begin();
    });
    if (metricsPath !== false) {
      const metricsReply = (head: boolean) => (res: HttpResponse) =>
        writeReply(res, { aborted: false, head }, { status: 200, headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }, body: metricsText() });
      app.get(metricsPath, metricsReply(false));
      app.head(metricsPath, metricsReply(true));
    }
  };

  return { plugin, close: () => pool.close(), ready: () => pool.ready(), metricsText, node: createNodeClient(pool, config.timeoutMs, options.onBroadcastAccepted, log) };
}

interface Shared {
  config: ProxyConfig;
  pool: NodePool;
  metrics: ProxyMetrics;
  log: ProxyLogger;
  onBroadcastAccepted?: (txid: string, rawTx: Buffer) => void | Promise<void>;
}

/** One client request and its way through the pool. uWS request data is copied out in the constructor. */
class Exchange implements AttemptOwner {
  private readonly method: string;
  private readonly path: string;
  private readonly headers: string[];
  private readonly contentLength: string | undefined;
  private readonly chunkedRequest: boolean;
  private readonly contentType: string | undefined;
  private readonly broadcast: boolean;

  /** The client went away (onAborted): res must not be touched again. */
  private clientGone = false;
  /** A status line went to the client: no error reply or retry any more. */
  private replied = false;
  /** The client's response is complete. */
  private complete = false;

  private body: Buffer | StreamedBody | null = null;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private received = 0;

  private attempt: Attempt | null = null;
  private readonly tried = new Set<UpstreamNode>();

  /** tryEnd mode: the node's Content-Length; undefined = chunked mode (write/end). */
  private total: number | undefined;
  /** tryEnd mode: the chunk uWS could not take in full, and the write offset it started at. */
  private stalled: Buffer | null = null;
  private stalledOffset = 0;
  /** chunked mode: waiting for uWS to drain before resuming the node. */
  private waitingDrain = false;
  /** Status line and headers received but not written yet (they go out with the first body bytes). */
  private head: { status: string; headers: [Buffer | string, Buffer | string][] } | null = null;
  private broadcastResponse: Buffer[] | null = null;
  private broadcastResponseBytes = 0;

  constructor(
    private readonly shared: Shared,
    private readonly res: HttpResponse,
    req: HttpRequest,
    url: string,
  ) {
    this.method = req.getCaseSensitiveMethod();
    // getQuery() is undefined (not '') without a query string.
    const query = req.getQuery() as string | undefined;
    this.path = query ? `${url}?${query}` : url;
    const raw: [string, string][] = [];
    req.forEach((k, v) => {
      raw.push([k, v]);
    });
    const fwd = forwardRequestHeaders(raw, formatClientAddress(res.getRemoteAddress()));
    this.headers = fwd.headers;
    this.contentLength = fwd.contentLength;
    this.chunkedRequest = fwd.transferEncoding !== undefined;
    this.contentType = fwd.contentType;
    this.broadcast = this.method.toUpperCase() === 'POST' && url === '/v2/transactions';
  }

  begin(): void {
    this.res.onAborted(() => this.onClientGone());
    const { bodyLimit } = this.shared.config;
    if (this.method.toUpperCase() === 'CONNECT') return this.replyError({ status: 405, message: 'CONNECT is not supported by the node proxy' });
    if (this.contentLength !== undefined && !this.chunkedRequest) {
      if (!/^\d+$/.test(this.contentLength)) return this.replyError({ status: 400, message: 'invalid Content-Length header' });
      if (Number(this.contentLength) > bodyLimit) return this.tooLarge();
    }
    const hasBody = this.chunkedRequest || (this.contentLength !== undefined && Number(this.contentLength) > 0);
    if (!hasBody) return this.dispatch();
    this.res.onData((ab, isLast) => this.onClientData(ab, isLast));
  }

  /** Whether this attempt is still the live one. */
  wants(attempt: Attempt): boolean {
    return attempt === this.attempt && !this.clientGone && !this.complete;
  }

  private onClientData(ab: ArrayBuffer, isLast: boolean): void {
    if (this.clientGone || this.complete) return;
    this.received += ab.byteLength;
    if (this.received > this.shared.config.bodyLimit) return this.tooLarge();
    // uWS reuses (neuters) the ArrayBuffer after this callback: copy.
    const chunk = ab.byteLength > 0 ? Buffer.from(new Uint8Array(ab)) : Buffer.alloc(0);
    if (this.body instanceof StreamedBody) return this.body.write(chunk, isLast);
    if (chunk.length > 0) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
    }
    if (isLast) {
      this.body = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
      this.pending = [];
      return this.dispatch();
    }
    if (!this.broadcast && this.pendingBytes >= STREAM_THRESHOLD) {
      const body = new StreamedBody({
        pause: () => {
          if (!this.clientGone && !this.complete) this.res.pause();
        },
        resume: () => {
          if (!this.clientGone && !this.complete) this.res.resume();
        },
      });
      for (const c of this.pending) body.write(c, false);
      this.pending = [];
      this.body = body;
      this.dispatch();
    }
  }

  private dispatch(): void {
    const node = this.shared.pool.pick(this.tried);
    if (node === undefined) {
      this.shared.metrics.reject('no_healthy_node');
      return this.replyError({ status: 503, message: 'no healthy Stacks node is available' });
    }
    this.tried.add(node);
    const attempt = new Attempt(this, node);
    this.attempt = attempt;
    const body = this.body instanceof StreamedBody ? this.body.open() : this.body;
    node.dispatcher.dispatch({ method: this.method, path: this.path, headers: this.headers, body }, attempt);
  }

  responseStart(attempt: Attempt, status: number, statusMessage: string, rawHeaders: (Buffer | string)[]): void {
    if (attempt !== this.attempt) return attempt.abort('response no longer wanted');
    const accepted = this.broadcast && status >= 200 && status < 300 && this.shared.onBroadcastAccepted !== undefined;
    if (accepted) this.broadcastResponse = [];
    if (this.clientGone || this.replied) {
      // A broadcast the node took is still read to the end for the hook, even without a client.
      if (!(accepted && this.clientGone)) attempt.abort('response no longer wanted');
      return;
    }
    this.replied = true;
    const { headers, contentLength } = forwardResponseHeaders(rawHeaders);
    const method = this.method.toUpperCase();
    const noBody = method === 'HEAD' || status === 204 || status === 304;
    const res = this.res;
    this.head = { status: `${status} ${statusMessage || statusText(status)}`, headers };
    if (noBody || contentLength === 0) {
      this.releaseClientBody();
      res.cork(() => {
        this.flushHead();
        if (noBody) {
          // endWithoutBody(n) would leave this uWS version waiting for n bytes: write the length ourselves.
          if (contentLength !== undefined && status !== 204) res.writeHeader('content-length', String(contentLength));
          res.endWithoutBody();
        } else {
          res.end();
        }
      });
      this.complete = true;
      return;
    }
    // The head goes out with the first body bytes: one write (one syscall) for a small response.
    this.total = contentLength;
    res.onWritable((offset) => this.onWritable(offset));
  }

  /** Writes the pending status line and headers (inside cork). */
  private flushHead(): void {
    const head = this.head;
    if (head === null) return;
    this.head = null;
    this.res.writeStatus(head.status);
    for (const [k, v] of head.headers) this.res.writeHeader(k, v);
  }

  responseData(attempt: Attempt, chunk: Buffer): void {
    if (attempt !== this.attempt) return attempt.abort('response no longer wanted');
    if (this.broadcastResponse !== null && this.broadcastResponseBytes < BROADCAST_RESPONSE_CAP) {
      this.broadcastResponse.push(chunk);
      this.broadcastResponseBytes += chunk.length;
    }
    if (this.clientGone || this.complete) {
      if (this.broadcastResponse === null) attempt.abort('response no longer wanted');
      return;
    }
    const res = this.res;
    if (this.total !== undefined) {
      const total = this.total;
      const offset = res.getWriteOffset();
      if (offset + chunk.length >= total) this.releaseClientBody();
      res.cork(() => {
        this.flushHead();
        const [ok, done] = res.tryEnd(chunk, total);
        if (done) this.complete = true;
        else if (!ok) {
          this.stalled = chunk;
          this.stalledOffset = offset;
          attempt.pause();
        }
      });
    } else {
      let ok = true;
      res.cork(() => {
        this.flushHead();
        ok = res.write(chunk);
      });
      // uWS buffered the whole chunk anyway; hold the node until the client drains.
      if (!ok) {
        this.waitingDrain = true;
        attempt.pause();
      }
    }
  }

  private onWritable(offset: number): boolean {
    if (this.clientGone) return true;
    const attempt = this.attempt;
    if (this.stalled !== null && this.total !== undefined) {
      if (this.stalledOffset + this.stalled.length >= this.total) this.releaseClientBody();
      const [ok, done] = this.res.tryEnd(this.stalled.subarray(offset - this.stalledOffset), this.total);
      if (done) {
        this.stalled = null;
        this.complete = true;
        attempt?.resume(); // lets undici read the end of the message
      } else if (ok) {
        this.stalled = null;
        attempt?.resume();
      }
      return ok;
    }
    if (this.waitingDrain) {
      this.waitingDrain = false;
      attempt?.resume();
    }
    return true;
  }

  responseEnd(attempt: Attempt): void {
    if (attempt !== this.attempt) return;
    if (!this.clientGone && !this.complete && this.total === undefined && this.replied) {
      this.releaseClientBody();
      this.res.cork(() => {
        this.flushHead();
        this.res.end();
      });
      this.complete = true;
    }
    if (this.broadcastResponse !== null) this.notifyBroadcast();
  }

  attemptFailed(attempt: Attempt, err: Error): void {
    if (attempt !== this.attempt || err instanceof ProxyAbort || this.clientGone || this.complete) return;
    if (this.replied) {
      if (this.head === null) {
        // The node failed mid-body: the only honest signal left is cutting the client's connection.
        this.complete = true;
        this.res.close();
        return;
      }
      // Failed after its headers but before any body byte: nothing reached the client yet.
      this.head = null;
      this.total = undefined;
      this.replied = false;
    }
    const code = errorCode(err);
    if (!attempt.sent && isConnectError(err)) this.shared.pool.markUnreachable(attempt.node, describeConnectError(err));
    if (this.canRetry(attempt, code) && this.shared.pool.pick(this.tried) !== undefined) return this.dispatch();
    this.replyError(this.describeFailure(attempt, err));
  }

  private canRetry(attempt: Attempt, code: string): boolean {
    if (code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED' || code === 'UND_ERR_DESTROYED' || code === 'UND_ERR_CLOSED') return false;
    const replayable = !(this.body instanceof StreamedBody) || !this.body.consumed;
    // Never sent: the node saw nothing, any request can go elsewhere (a broadcast included).
    if (!attempt.sent) return replayable;
    // Sent: only a bodiless idempotent request, and only if the node dropped the connection (not a timeout).
    return this.body === null && IDEMPOTENT.has(this.method.toUpperCase()) && RESET_CODES.has(code);
  }

  private describeFailure(attempt: Attempt, err: Error): ErrorReply {
    const code = errorCode(err);
    const { timeoutMs } = this.shared.config;
    switch (code) {
      case 'UND_ERR_HEADERS_TIMEOUT':
      case 'UND_ERR_BODY_TIMEOUT':
        return { status: 504, message: `the Stacks node did not respond within ${timeoutMs} ms` };
      case 'UND_ERR_INVALID_ARG':
      case 'UND_ERR_NOT_SUPPORTED':
      case 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH':
        return { status: 400, message: 'the request cannot be forwarded to a Stacks node (invalid header, path or body length)' };
      case 'UND_ERR_DESTROYED':
      case 'UND_ERR_CLOSED':
        return { status: 503, message: 'the node proxy is shutting down' };
    }
    if (!attempt.sent) return { status: 503, message: `could not connect to a Stacks node (${describeConnectError(err)})` };
    if (RESET_CODES.has(code)) return { status: 502, message: 'the Stacks node closed the connection without a response' };
    if (isProtocolError(err)) return { status: 502, message: 'the Stacks node sent an invalid HTTP response' };
    this.shared.log.error(`node proxy: ${this.method} ${this.path.split('?')[0]} on ${attempt.node.name} failed:`, err);
    return { status: 502, message: 'forwarding the request to the Stacks node failed' };
  }

  private tooLarge(): void {
    this.shared.metrics.reject('body_too_large');
    this.attempt?.abort('request body too large');
    if (this.replied) {
      this.complete = true;
      if (!this.clientGone) this.res.close();
      return;
    }
    // Close: the rest of the body is not worth reading.
    this.replyError({ status: 413, message: `the request body exceeds the limit of ${this.shared.config.bodyLimit} bytes` }, true);
  }

  private replyError(reply: ErrorReply, closeConnection = false): void {
    this.attempt?.abort('answered by the proxy');
    if (this.clientGone || this.replied) return;
    this.replied = true;
    const payload = JSON.stringify({ error: statusText(reply.status), message: reply.message });
    this.releaseClientBody();
    this.res.cork(() => {
      this.res.writeStatus(`${reply.status} ${statusText(reply.status)}`).writeHeader('content-type', 'application/json; charset=utf-8').end(payload, closeConnection);
    });
    this.complete = true;
  }

  /**
   * Before the write that completes the client's response: stop taking body chunks and unpause the
   * client. uWS only drains the rest of a request body on an unpaused connection, and `res` may not be
   * touched once the response is complete.
   */
  private releaseClientBody(): void {
    if (this.body instanceof StreamedBody) this.body.fail(new ProxyAbort('response complete'));
    this.pending = [];
  }

  private onClientGone(): void {
    this.clientGone = true;
    // A broadcast already sent is left to finish: the node may accept it, and the hook should hear of it.
    if (!(this.broadcast && this.attempt?.sent)) this.attempt?.abort('client went away');
    if (this.body instanceof StreamedBody) this.body.fail(new ProxyAbort('client went away'));
  }

  private notifyBroadcast(): void {
    const hook = this.shared.onBroadcastAccepted;
    const chunks = this.broadcastResponse;
    this.broadcastResponse = null;
    if (!hook || !chunks || !Buffer.isBuffer(this.body)) return;
    const txid = parseTxid(Buffer.concat(chunks).toString('utf8'));
    const rawTx = txid === undefined ? undefined : rawTxOf(this.body, this.contentType);
    if (txid === undefined || rawTx === undefined) return;
    try {
      const out = hook(txid, rawTx);
      if (out instanceof Promise) out.catch((err: unknown) => this.shared.log.error('node proxy: onBroadcastAccepted failed:', err));
    } catch (err) {
      this.shared.log.error('node proxy: onBroadcastAccepted failed:', err);
    }
  }
}
