// Test helpers for a service whose API runs on several threads: which thread answered how many
// requests (from /metrics), and connections held open. A request on a new connection reaches any
// of the threads (the kernel spreads connections over their sockets): rawRequest opens one each time.
import { WebSocket } from 'undici';
import { rawRequest } from './http.ts';

/** A series by thread of /metrics (index = thread; 0 is the main thread). */
export async function perThread(apiUrl: string, series: string): Promise<number[]> {
  const text = (await rawRequest(apiUrl, 'GET', '/metrics')).body;
  const out: number[] = [];
  for (const m of text.matchAll(new RegExp(`^${series}\\{thread="(\\d+)"\\} (\\d+)$`, 'gm'))) out[Number(m[1])] = Number(m[2]);
  return Array.from(out, (n) => n ?? 0);
}

/** Requests answered by each API thread so far. */
export const threadRequests = (apiUrl: string): Promise<number[]> => perThread(apiUrl, 'stacks_api_thread_requests_total');

/** Real-time clients connected to each API thread. */
export const threadClients = (apiUrl: string): Promise<number[]> => perThread(apiUrl, 'stacks_api_thread_realtime_clients');

/** `n` WebSockets to `url`, open (each on its own connection). */
export async function openWebSockets(url: string, n: number): Promise<WebSocket[]> {
  return Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(url);
          ws.addEventListener('open', () => resolve(ws));
          ws.addEventListener('error', () => reject(new Error(`WebSocket ${url} failed`)));
        }),
    ),
  );
}
