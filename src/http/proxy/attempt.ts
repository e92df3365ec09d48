// One upstream try of a proxied request: an undici dispatch handler that reports to the exchange
// (the client request) that owns it and keeps the node's in-flight and error counts.
import type { Dispatcher } from 'undici';
import type { UpstreamErrorKind } from './metrics.ts';
import { isConnectError, isProtocolError, errorCode, type UpstreamNode } from './pool.ts';

/** What an attempt reports to: the client request it serves. */
export interface AttemptOwner {
  wants(attempt: Attempt): boolean;
  responseStart(attempt: Attempt, statusCode: number, statusMessage: string, rawHeaders: (Buffer | string)[]): void;
  responseData(attempt: Attempt, chunk: Buffer): void;
  responseEnd(attempt: Attempt): void;
  attemptFailed(attempt: Attempt, err: Error): void;
}

/** Connection-reset error codes: the node dropped the connection. */
export const RESET_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

export class ProxyAbort extends Error {}

export function upstreamErrorKind(err: unknown, sent: boolean): UpstreamErrorKind {
  const code = errorCode(err);
  if (!sent && (isConnectError(err) || code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')) return 'connect';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'timeout';
  if (RESET_CODES.has(code)) return 'reset';
  if (isProtocolError(err)) return 'protocol';
  return 'other';
}

export /** One upstream try of an exchange, as an undici dispatch handler. */
class Attempt implements Dispatcher.DispatchHandler {
  controller: Dispatcher.DispatchController | null = null;
  /** undici started writing the request to the node (onRequestStart runs on a connected socket, before any byte). */
  sent = false;
  private settled = false;
  private readonly startedAt = performance.now();

  constructor(
    private readonly exchange: AttemptOwner,
    readonly node: UpstreamNode,
  ) {
    node.inflight++;
    node.metrics.requests++;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    this.sent = true;
    if (!this.exchange.wants(this)) controller.abort(new ProxyAbort('client went away'));
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, _headers: unknown, statusMessage?: string): void {
    if (statusCode < 200) return; // interim (1xx) responses are not relayed
    this.node.metrics.response(statusCode, (performance.now() - this.startedAt) / 1000);
    this.exchange.responseStart(this, statusCode, statusMessage ?? '', (controller.rawHeaders ?? []) as (Buffer | string)[]);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.exchange.responseData(this, chunk);
  }

  onResponseEnd(): void {
    this.settle();
    this.exchange.responseEnd(this);
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.settle(err);
    this.exchange.attemptFailed(this, err);
  }

  pause(): void {
    this.controller?.pause();
  }

  resume(): void {
    this.controller?.resume();
  }

  abort(reason: string): void {
    if (!this.settled && this.controller && !this.controller.aborted) this.controller.abort(new ProxyAbort(reason));
  }

  private settle(err?: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.node.inflight--;
    if (err && !(err instanceof ProxyAbort)) this.node.metrics.error(upstreamErrorKind(err, this.sent));
  }
}
