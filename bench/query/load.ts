// Closed-loop HTTP load on loopback with undici: `clients` workers each send a request, wait for
// the answer, and send the next, until `requests` are done or `seconds` pass (whichever first).
import { Pool } from 'undici';
import { percentile } from '../lib/env.ts';

export interface LoadResult {
  name: string;
  clients: number;
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
}

/** A GET of a path, or a POST of a JSON body to it (the Rosetta endpoints). */
export type QueryRequest = string | { path: string; body: unknown };

export async function closedLoop(baseUrl: string, name: string, nextPath: (i: number) => QueryRequest, clients: number, limits: { requests: number; seconds: number }): Promise<LoadResult> {
  const pool = new Pool(baseUrl, { connections: clients, pipelining: 1 });
  const latencies: number[] = [];
  let issued = 0;
  let errors = 0;
  const deadline = performance.now() + limits.seconds * 1000;
  const started = performance.now();
  const worker = async () => {
    while (issued < limits.requests && performance.now() < deadline) {
      const next = nextPath(issued++);
      const t0 = performance.now();
      try {
        const res = await pool.request(
          typeof next === 'string'
            ? { path: next, method: 'GET' }
            : { path: next.path, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(next.body) },
        );
        await res.body.arrayBuffer();
        if (res.statusCode >= 500) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: clients }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { name, clients, requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99) };
}

export function loadTable(rows: LoadResult[], dataLabel: string, machine: string, commit: string): string {
  const head = '| query | clients | requests | errors | req/s | p50 ms | p95 ms | p99 ms | data | machine | commit |\n|---|---|---|---|---|---|---|---|---|---|---|';
  const f = (n: number, d = 1) => n.toFixed(d);
  return [head, ...rows.map((r) => `| ${r.name} | ${r.clients} | ${r.requests} | ${r.errors} | ${f(r.rps, 0)} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${dataLabel} | ${machine} | ${commit} |`)].join('\n');
}
