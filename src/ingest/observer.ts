// The event observer: accepts the node's POSTs, checks (decodes) each body, appends it to
// the event log (durably) and only then answers. 200 {"result":"ok"} for a good body, 400 with a
// JSON error for a malformed one (kept in the log, marked rejected), 413 over the size limit.
import type { HttpResponse, TemplatedApp } from 'uWebSockets.js';
import type { EventLogWriter } from './event-log/writer.ts';
import { RecordStatus } from './event-log/record.ts';
import { writeJson, type ResponseState } from '../server/respond.ts';
import { newApp } from '../server/server.ts';

export interface CheckResult {
  ok: boolean;
  /** Why the body is malformed, when !ok. */
  reason?: string;
  /** Whatever the checker produced for a good body (the decoded event), handed to onStored. */
  decoded?: unknown;
  /** Work for a good body while its record is made durable, before the ack (a writer whose sync
   *  runs on another thread leaves this thread free meanwhile). */
  meanwhile?: () => void;
}

export interface ObserverOptions {
  writer: EventLogWriter;
  /** Checks (and decodes) a body. */
  check: (path: string, body: Buffer) => Promise<CheckResult>;
  /** Called once the answer is written, for every stored record; `decoded` for an accepted body. */
  onStored?: (id: number, decoded?: unknown) => void;
  bodyLimit: number;
}

export function createObserverApp(opts: ObserverOptions): TemplatedApp {
  const app = newApp();
  const ready = (head: boolean) => (res: HttpResponse) => writeJson(res, { aborted: false, head }, 200, { status: 'ready', msg: 'API event observer' });
  app.get('/', ready(false));
  app.head('/', ready(true));
  app.post('/*', (res, req) => handlePost(res, req.getUrl(), Number(req.getHeader('content-length') || -1), opts));
  app.any('/*', (res, req) => {
    const method = req.getMethod().toUpperCase();
    writeJson(res, { aborted: false, head: method === 'HEAD' }, 404, { error: 'Not Found', message: `${method} ${req.getUrl()}: the observer takes POSTs` });
  });
  return app;
}

function handlePost(res: HttpResponse, path: string, declaredLength: number, opts: ObserverOptions): void {
  const state: ResponseState = { aborted: false };
  res.onAborted(() => {
    state.aborted = true;
  });
  if (declaredLength > opts.bodyLimit) {
    void rejectOversized(res, state, path, declaredLength, opts);
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  let overflowed = false;
  res.onData((chunk, isLast) => {
    if (overflowed) return;
    received += chunk.byteLength;
    if (received > opts.bodyLimit) {
      overflowed = true;
      void rejectOversized(res, state, path, received, opts);
      return;
    }
    // uWS reuses the chunk's memory after this callback returns: copy it.
    chunks.push(Buffer.from(chunk.slice(0)));
    if (isLast) void accept(res, state, path, chunks, received, opts);
  });
}

async function rejectOversized(res: HttpResponse, state: ResponseState, path: string, size: number, opts: ObserverOptions): Promise<void> {
  const reason = `body of ${path} is ${size} bytes or more, over the limit of ${opts.bodyLimit} bytes`;
  let id: number | undefined;
  try {
    id = await opts.writer.append({ path, body: Buffer.alloc(0), status: RecordStatus.Rejected, note: reason });
  } catch (err) {
    // The body is refused either way; only its record in the log is missing.
    console.error(`observer: storing an oversized ${path} failed:`, err);
  }
  // Closing after the answer: the rest of the body is not read.
  if (!state.aborted) {
    res.cork(() => {
      res.writeStatus('413 Payload Too Large').writeHeader('content-type', 'application/json').writeHeader('connection', 'close');
      res.end(JSON.stringify({ error: 'Payload Too Large', message: reason }), true);
    });
  }
  if (id !== undefined) opts.onStored?.(id);
}

async function accept(res: HttpResponse, state: ResponseState, path: string, chunks: Buffer[], size: number, opts: ObserverOptions): Promise<void> {
  const body = Buffer.concat(chunks, size);
  chunks.length = 0;
  let check: CheckResult;
  try {
    // Paths starting with /_ are this service's own (an export's /_quarantined rows), never a node's.
    check = path.startsWith('/_') ? { ok: false, reason: `${path}: paths starting with /_ are reserved` } : await opts.check(path, body);
  } catch (err) {
    // The checker itself failed (not the body): the node will retry; nothing was stored.
    console.error(`observer: checking ${path} failed:`, err);
    writeJson(res, state, 500, { error: 'Internal Server Error', message: 'could not check the request; retry' });
    return;
  }
  let id: number;
  try {
    const appended = opts.writer.append({
      path,
      body,
      status: check.ok ? RecordStatus.Accepted : RecordStatus.Rejected,
      note: check.ok ? '' : (check.reason ?? 'malformed'),
    });
    // After the append's write (scheduled first), while its sync runs. Its failure is the
    // checker's to report (onStored): it must not reach the thread's uncaught errors.
    const meanwhile = check.ok ? check.meanwhile : undefined;
    if (meanwhile) {
      setImmediate(() => {
        try {
          meanwhile();
        } catch {
          // Reported when onStored asks for the same work again.
        }
      });
    }
    id = await appended;
  } catch (err) {
    console.error(`observer: appending ${path} to the event log failed:`, err);
    writeJson(res, state, 500, { error: 'Internal Server Error', message: 'could not store the request; retry' });
    return;
  }
  if (!check.ok) {
    writeJson(res, state, 400, { error: 'Bad Request', message: check.reason ?? 'malformed body' });
    opts.onStored?.(id);
    return;
  }
  writeJson(res, state, 200, { result: 'ok' });
  opts.onStored?.(id, check.decoded);
}
