// The soak bench's references: which addresses are busy, what each topic set should have
// received (replayed by cursor from the journal), and the service's RSS.
import { openSync, readSync, closeSync, readFileSync } from 'node:fs';
import { StacksApiSocketClient } from '@stacks/blockchain-api-client';
import { cursorHash, HASH_MOD } from './subscribers.ts';

/** The principals named most often as sender or recipient in the log's first 32 MB. */
export function busyPrincipals(file: string, n: number): string[] {
  const fd = openSync(file, 'r');
  const buf = Buffer.alloc(32 * 1024 * 1024);
  const len = readSync(fd, buf, 0, buf.length, 0);
  closeSync(fd);
  const text = buf.subarray(0, len).toString('utf8');
  const counts = new Map<string, number>();
  for (const m of text.matchAll(/\\?"(?:sender|recipient)\\?":\\?"(S[PT][0-9A-Z]{20,40})\\?"/g)) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, n).map(([p]) => p);
}

/** Per topic set (comma-joined): how many messages the journal holds for it, and their hash sum. */
export async function expectedByTopics(apiUrl: string, topicSets: string[]): Promise<Map<string, { count: number; sum: number }>> {
  const out = new Map<string, { count: number; sum: number }>();
  for (const set of topicSets) {
    const topics = set.split(',');
    const e = { count: 0, sum: 0 };
    const client = new StacksApiSocketClient({ url: apiUrl, subscriptions: topics as never, socketOpts: { reconnection: false, auth: { cursor: '0:-1' } } });
    let lastAt = performance.now();
    const socket = client.socket as unknown as { on(e: string, f: (...a: unknown[]) => void): void };
    for (const topic of topics) {
      socket.on(topic, (...args) => {
        e.count++;
        e.sum = (e.sum + cursorHash((args.at(-1) as { cursor: string }).cursor)) % HASH_MOD;
        lastAt = performance.now();
      });
    }
    await new Promise<void>((resolve, reject) => {
      client.socket.once('connect', () => resolve());
      client.socket.once('connect_error', (e) => reject(e instanceof Error ? new Error(`${set}: ${e.message}`) : e));
    });
    while (performance.now() - lastAt < 2000) await new Promise((r) => setTimeout(r, 250));
    client.socket.close();
    out.set(set, e);
    console.log(`  ${set}: ${e.count} messages`);
  }
  return out;
}

export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}
