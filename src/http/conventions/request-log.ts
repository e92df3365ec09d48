// The opt-in request log (STACKS_API_REQUEST_LOG=on): one line per answered request on stdout,
//   2026-01-01T00:00:00.000Z 127.0.0.1 GET /extended/v1/tx/0x…?event_limit=5 200 1234B 0.812ms cache
// (time, client, method, path and query, status, body bytes, time to answer, and `cache` when the
// response cache answered). Written in batches per event-loop turn, so a busy API does one write.
import type { AnsweredRequest } from '../route.ts';

export function formatRequestLine(a: AnsweredRequest, at = new Date()): string {
  return `${at.toISOString()} ${a.remoteAddress || '-'} ${a.method} ${a.url} ${a.status} ${a.bytes}B ${(a.seconds * 1000).toFixed(3)}ms${a.cached ? ' cache' : ''}`;
}

export function requestLogger(write: (text: string) => void = (t) => process.stdout.write(t)): (a: AnsweredRequest) => void {
  let pending: string[] = [];
  const flush = () => {
    const lines = pending;
    pending = [];
    write(lines.join('\n') + '\n');
  };
  return (a) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push(formatRequestLine(a));
  };
}
