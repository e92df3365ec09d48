// The soak bench's subscribers, on a thread of their own: their message parsing then never delays
// the feeder's clock. The feeder writes each POST's send time (ms since the epoch, high resolution)
// into a shared array by log id; a message's latency is its receipt time minus that.
import { parentPort, workerData } from 'node:worker_threads';
import { SubscriberPool, type Kind } from './subscribers.ts';

export interface SubscriberPlan {
  kind: Kind;
  principal: string;
  channel: 'socket.io' | 'json-rpc';
}

interface Data {
  apiUrl: string;
  plan: SubscriberPlan[];
  posted: SharedArrayBuffer;
}

const { apiUrl, plan, posted } = workerData as Data;
const sentAt = new Float64Array(posted);
const now = () => performance.timeOrigin + performance.now();
const pool = new SubscriberPool(apiUrl, (id) => (id < sentAt.length && sentAt[id] > 0 ? sentAt[id] : undefined), now);
for (const p of plan) await (p.channel === 'socket.io' ? pool.addSocketIo(p.kind, p.principal) : pool.addJsonRpc(p.kind, p.principal));
parentPort!.postMessage({ type: 'ready' });
parentPort!.once('message', () => {
  // As they stood before the bench's own closing marks them closed.
  const tallies = structuredClone(pool.tallies);
  pool.close();
  parentPort!.postMessage({ type: 'done', tallies, latency: pool.latency.entries(), worst: [...pool.worstByLogId], byGroup: [...pool.latencyByGroup].map(([g, l]) => [g, l.entries()]) });
});
