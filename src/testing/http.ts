// Test helper: one HTTP request sent exactly as written (fetch normalizes paths such as `%zz` or
// `/a/../b`), with its status line, headers and body, and a time limit.
import { request } from 'node:http';

export interface RawResponse {
  /** `HTTP/1.1 200 OK` */
  statusLine: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function rawRequest(base: string, method: string, path: string, opts: { headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers: opts.headers, agent: false, timeout: opts.timeoutMs ?? 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ statusLine: `HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage}`, status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in ${opts.timeoutMs ?? 10_000} ms`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Runs `fn` over `items`, at most `limit` at a time (requests on their own connections, so a
 *  multi-threaded service spreads them over its threads), in no particular order of completion. */
export async function eachConcurrently<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
