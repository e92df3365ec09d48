// The soak bench's references: which addresses are busy, what each topic set should have
// received (replayed by cursor from the journal), and the service's RSS.
import { openSync, readSync, closeSync, readFileSync, statSync } from 'node:fs';
import { StacksApiSocketClient } from '@stacks/blockchain-api-client';
import { cursorHash, HASH_MOD } from './subscribers.ts';
import { residentKbByFile } from '../../src/serving/resident.ts';

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

/** Topics per replaying connection: the handshake query names them, and must stay short. */
const TOPICS_PER_REPLAY = 40;
const PARALLEL_REPLAYS = 6;

/** One connection replaying the journal from its start for `topics`: count and hash sum per topic. */
async function replayTopics(apiUrl: string, topics: string[], into: Map<string, { count: number; sum: number }>): Promise<void> {
  for (const t of topics) into.set(t, { count: 0, sum: 0 });
  const client = new StacksApiSocketClient({ url: apiUrl, subscriptions: topics as never, socketOpts: { reconnection: false, auth: { cursor: '0:-1' } } });
  let lastAt = performance.now();
  const socket = client.socket as unknown as { onAny(f: (event: string, ...a: unknown[]) => void): void };
  socket.onAny((event, ...args) => {
    const e = into.get(event);
    const cursor = (args.at(-1) as { cursor?: string } | undefined)?.cursor;
    if (!e || !cursor) return;
    e.count++;
    e.sum = (e.sum + cursorHash(cursor)) % HASH_MOD;
    lastAt = performance.now();
  });
  await new Promise<void>((resolve, reject) => {
    client.socket.once('connect', () => resolve());
    client.socket.once('connect_error', (e) => reject(e instanceof Error ? new Error(`${topics[0]}…: ${e.message}`) : e));
  });
  while (performance.now() - lastAt < 5000) await new Promise((r) => setTimeout(r, 250));
  client.socket.close();
}

/** Per topic set (comma-joined): how many messages the journal holds for it, and their hash sum.
 *  Each topic's messages are distinct journal entries, so a set's figures are its topics' sums. */
export async function expectedByTopics(apiUrl: string, topicSets: string[]): Promise<Map<string, { count: number; sum: number }>> {
  const topics = [...new Set(topicSets.flatMap((s) => s.split(',')))];
  const perTopic = new Map<string, { count: number; sum: number }>();
  const chunks: string[][] = [];
  for (let i = 0; i < topics.length; i += TOPICS_PER_REPLAY) chunks.push(topics.slice(i, i + TOPICS_PER_REPLAY));
  let next = 0;
  const runner = async () => {
    while (next < chunks.length) await replayTopics(apiUrl, chunks[next++], perTopic);
  };
  await Promise.all(Array.from({ length: PARALLEL_REPLAYS }, runner));
  const out = new Map<string, { count: number; sum: number }>();
  for (const set of topicSets) {
    const e = { count: 0, sum: 0 };
    for (const t of set.split(',')) {
      e.count += perTopic.get(t)!.count;
      e.sum = (e.sum + perTopic.get(t)!.sum) % HASH_MOD;
    }
    out.set(set, e);
  }
  console.log(`  replayed ${topics.length} topics: ${[...perTopic.values()].reduce((a, e) => a + e.count, 0)} messages`);
  return out;
}

/** Resident pages of the process's LMDB files (the serving store and the real-time journal), MB,
 *  and those files' sizes on disk: the part of the file-backed memory that grows with the chain. */
export function mappedStoreMb(pid: number): { resident: number; onDisk: number } {
  let smaps = '';
  try {
    smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return { resident: NaN, onDisk: NaN };
  }
  const byFile = residentKbByFile(smaps, (path) => path.endsWith('.mdb'));
  const resident = [...byFile.values()].reduce((a, kb) => a + kb, 0);
  const files = byFile.keys();
  let onDisk = 0;
  for (const f of files) {
    try {
      onDisk += statSync(f).size;
    } catch {
      // removed
    }
  }
  return { resident: resident / 1024, onDisk: onDisk / 2 ** 20 };
}

/** A process's resident memory, MB: all of it, anonymous (heaps) and file-backed (mapped files). */
export function memoryMb(pid: number): { rss: number; anon: number; file: number } {
  let status = '';
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    // exited
  }
  const kb = (field: string) => {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
    return m ? Number(m[1]) / 1024 : NaN;
  };
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') };
}
