// Node RPC proxy latency: what going through the proxy adds over calling a Stacks node directly.
//
//   npx tsx bench/proxy/latency.ts [--requests 10000] [--concurrency 1,16] [--max-seconds 120]
//
// Three processes, so neither the proxy nor the "node" shares an event loop with the client:
//   - a node:http server standing in for a Stacks node (a small JSON answer, /v2/info for health polls),
//   - the API's uWS app with the proxy plugin in front of it,
//   - this process: closed-loop undici clients (each worker sends its next request when the previous
//     answer is fully read), direct and through the proxy, interleaved in rounds to cancel drift.
// Prints p50/p99/mean latency per target and concurrency, the difference and the ratio, as Markdown.
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};

const BODY = JSON.stringify({
  contract_id: 'SP000000000000000000002Q6VF78.pox-4',
  pox_activation_threshold_ustx: 700000000000,
  first_burnchain_block_height: 666050,
  current_burnchain_block_height: 880000,
  reward_cycle_id: 100,
  reward_cycle_length: 2100,
});

async function runNode(): Promise<void> {
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(req.url === '/v2/info' ? JSON.stringify({ stacks_tip_height: 1000, burn_block_height: 880000 }) : BODY);
    });
  });
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as { port: number }).port }));
}

async function runProxy(nodePort: number): Promise<void> {
  const { createApiApp } = await import('../../src/http/app.ts');
  const { listen } = await import('../../src/server/server.ts');
  const { createProxyPlugin } = await import('../../src/http/proxy/proxy.ts');
  const proxy = createProxyPlugin(
    { nodes: [{ host: '127.0.0.1', port: nodePort }], healthIntervalMs: 5000, maxTipLag: 10, bodyLimit: 10 * 1024 * 1024, timeoutMs: 30_000 },
    { log: { info: () => {}, warn: (m) => console.warn(m), error: (m, e) => console.error(m, e) } },
  );
  await proxy.ready();
  const app = createApiApp([], undefined, [proxy.plugin]);
  const listening = await listen(app, '127.0.0.1', 0);
  process.send!({ port: listening.port });
}

function start(role: string, extra: string[] = []): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(fileURLToPath(import.meta.url), ['--role', role, ...extra], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, port: (m as { port: number }).port }));
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)));
  });
}

/** `count` requests from `concurrency` closed-loop workers; per-request latencies in ms. */
async function measure(pool: Pool, count: number, concurrency: number, out: number[]): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        const t = performance.now();
        const { statusCode, body } = await pool.request({ method: 'GET', path: '/v2/pox' });
        await body.text();
        out.push(performance.now() - t);
        if (statusCode !== 200) throw new Error(`status ${statusCode}`);
      }
    }),
  );
  return performance.now() - t0;
}

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const f = (ms: number): string => (ms * 1000).toFixed(0);

async function main(): Promise<void> {
  const requests = Number(arg('requests', '10000'));
  const concurrencies = arg('concurrency', '1,16').split(',').map(Number);
  const maxSeconds = Number(arg('max-seconds', '120'));
  const rounds = 10;
  const node = await start('node');
  const proxy = await start('proxy', ['--node-port', String(node.port)]);
  const targets = { direct: node.port, proxy: proxy.port };
  const deadline = performance.now() + maxSeconds * 1000;
  const rows: string[] = [];
  try {
    for (const c of concurrencies) {
      const pools = Object.fromEntries(Object.entries(targets).map(([k, port]) => [k, new Pool(`http://127.0.0.1:${port}`, { connections: c, pipelining: 1 })])) as Record<'direct' | 'proxy', Pool>;
      const lat = { direct: [] as number[], proxy: [] as number[] };
      const elapsed = { direct: 0, proxy: 0 };
      for (const k of ['direct', 'proxy'] as const) await measure(pools[k], Math.max(1000, requests / 10), c, []); // warm-up (JIT, connections)
      let done = 0;
      for (let r = 0; r < rounds && performance.now() < deadline; r++) {
        // Alternate which target goes first so neither always runs on a warmer machine.
        for (const k of r % 2 === 0 ? (['direct', 'proxy'] as const) : (['proxy', 'direct'] as const)) elapsed[k] += await measure(pools[k], requests / rounds, c, lat[k]);
        done++;
      }
      await Promise.all(Object.values(pools).map((p) => p.close()));
      const s = { direct: lat.direct.sort((a, b) => a - b), proxy: lat.proxy.sort((a, b) => a - b) };
      const stat = (k: 'direct' | 'proxy') => ({ p50: pct(s[k], 50), p99: pct(s[k], 99), mean: s[k].reduce((a, b) => a + b, 0) / s[k].length, rps: s[k].length / (elapsed[k] / 1000) });
      const d = stat('direct');
      const p = stat('proxy');
      rows.push(`| ${c} | direct | ${s.direct.length} | ${f(d.p50)} | ${f(d.p99)} | ${f(d.mean)} | ${d.rps.toFixed(0)} |`);
      rows.push(`| ${c} | via proxy | ${s.proxy.length} | ${f(p.p50)} | ${f(p.p99)} | ${f(p.mean)} | ${p.rps.toFixed(0)} |`);
      rows.push(`| ${c} | **added** (ratio) | | **+${f(p.p50 - d.p50)}** (${(p.p50 / d.p50).toFixed(2)}×) | **+${f(p.p99 - d.p99)}** (${(p.p99 / d.p99).toFixed(2)}×) | +${f(p.mean - d.mean)} (${(p.mean / d.mean).toFixed(2)}×) | ${(p.rps / d.rps).toFixed(2)}× |`);
      if (done < rounds) rows.push(`| ${c} | (stopped after ${done}/${rounds} rounds: --max-seconds) | | | | | |`);
    }
  } finally {
    node.child.kill();
    proxy.child.kill();
  }
  const cpus = os.cpus();
  console.log(`Machine: ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`);
  console.log(`Date: ${new Date().toISOString()}`);
  console.log(`Command: npx tsx bench/proxy/latency.ts ${args.join(' ')}`.trimEnd());
  console.log(`Request: GET /v2/pox, ${Buffer.byteLength(BODY)}-byte JSON answer, keep-alive, ${requests} measured requests per target and concurrency\n`);
  console.log('| concurrency | target | requests | p50 µs | p99 µs | mean µs | req/s |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
}

const role = arg('role', 'main');
// Children leave with the parent (and exit normally, so --cpu-prof can write its profile).
if (role !== 'main') for (const ev of ['disconnect', 'SIGINT', 'SIGTERM'] as const) process.on(ev, () => process.exit(0));
if (role === 'node') await runNode();
else if (role === 'proxy') await runProxy(Number(arg('node-port', '0')));
else await main();
