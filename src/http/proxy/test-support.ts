// Test helpers for the node proxy: fake Stacks nodes (node:http on loopback) and a uWS app with the plugin.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { createApiApp } from '../app.ts';
import { listen, type Listening } from '../../server/server.ts';
import type { RouteDef } from '../route.ts';
import type { ProxyConfig } from './config.ts';
import { createProxyPlugin, type ProxyPlugin, type ProxyPluginOptions } from './proxy.ts';
import type { ProxyLogger } from './pool.ts';

export interface Hit {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

/** Answers one non-/v2/info request; return false to fall back to the default echo. */
export type NodeHandler = (hit: Hit, req: http.IncomingMessage, res: http.ServerResponse) => boolean | void;

export interface FakeNode {
  name: string;
  port: number;
  tip: number;
  /** Requests other than /v2/info, in order. */
  hits: Hit[];
  infoPolls: number;
  handler: NodeHandler | undefined;
  /** Sees a request before its body is read; return true when it answered (the body is then not recorded). */
  early: ((req: http.IncomingMessage, res: http.ServerResponse) => boolean) | undefined;
  /** Stops listening and drops every connection (the port then refuses connections). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
}

export async function startNode(name: string, opts: { tip?: number; handler?: NodeHandler; port?: number } = {}): Promise<FakeNode> {
  let server: http.Server;
  const node: FakeNode = {
    name,
    port: opts.port ?? 0,
    tip: opts.tip ?? 1000,
    hits: [],
    infoPolls: 0,
    handler: opts.handler,
    early: undefined,
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    restart: async () => {
      await open();
    },
  };
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    if (req.method === 'GET' && req.url === '/v2/info') {
      node.infoPolls++;
      req.resume();
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ peer_version: 402653196, stacks_tip_height: node.tip, burn_block_height: node.tip + 100, server_version: name }));
      return;
    }
    if (node.early?.(req, res)) return;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit: Hit = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks) };
      node.hits.push(hit);
      if (node.handler && node.handler(hit, req, res) !== false) return;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ node: name, method: hit.method, url: hit.url, bytes: hit.body.length }));
    });
  };
  const open = (): Promise<void> =>
    new Promise((resolve, reject) => {
      server = http.createServer({ keepAliveTimeout: 10_000 }, onRequest);
      server.once('error', reject);
      server.listen(node.port, '127.0.0.1', () => {
        node.port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  await open();
  return node;
}

export const quietLog: ProxyLogger = { info: () => {}, warn: () => {}, error: () => {} };

export interface TestProxy {
  port: number;
  url: string;
  proxy: ProxyPlugin;
  close(): Promise<void>;
}

export async function startProxy(
  nodes: readonly FakeNode[] | readonly { port: number }[],
  config: Partial<ProxyConfig> = {},
  options: ProxyPluginOptions = {},
  routes: readonly RouteDef<unknown>[] = [],
): Promise<TestProxy> {
  const proxy = createProxyPlugin(
    {
      nodes: nodes.map((n) => ({ host: '127.0.0.1', port: n.port })),
      healthIntervalMs: 100,
      maxTipLag: 10,
      bodyLimit: 10 * 1024 * 1024,
      timeoutMs: 5000,
      ...config,
    },
    { log: quietLog, ...options },
  );
  await proxy.ready();
  const app = createApiApp(routes, undefined, [proxy.plugin]);
  const listening: Listening = await listen(app, '127.0.0.1', 0);
  return {
    port: listening.port,
    url: `http://127.0.0.1:${listening.port}`,
    proxy,
    close: async () => {
      listening.close();
      await proxy.close();
    },
  };
}

/** Polls `cond` every 20 ms until it holds; throws after `timeoutMs`. */
export async function waitFor(cond: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A sample's value from Prometheus text, e.g. metric(text, 'stacks_proxy_node_healthy', { node: 'node0' }). */
export function metric(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const m = /^[^{ ]+(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const got = Object.fromEntries([...(m[1] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[2]);
  }
  return undefined;
}

export interface RawResponse {
  status: number;
  /** Header lines as received, [name, value]. */
  headers: [string, string][];
  body: Buffer;
}

/** Sends `head` (+ body) on a fresh socket and reads one response (Content-Length or chunked framing). */
export function rawRequest(port: number, head: string, body: Buffer = Buffer.alloc(0)): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('raw request timed out'));
    }, 5000);
    const tryParse = (): RawResponse | undefined => {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return undefined;
      const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(lines[0].split(' ')[1]);
      const headers = lines.slice(1).map((l): [string, string] => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]);
      const rest = buf.subarray(end + 4);
      const cl = headers.find(([k]) => k.toLowerCase() === 'content-length');
      if (cl) return rest.length >= Number(cl[1]) ? { status, headers, body: rest.subarray(0, Number(cl[1])) } : undefined;
      if (!headers.some(([k, v]) => k.toLowerCase() === 'transfer-encoding' && v.toLowerCase() === 'chunked')) return { status, headers, body: rest };
      const chunks: Buffer[] = [];
      let at = 0;
      for (;;) {
        const eol = rest.indexOf('\r\n', at);
        if (eol < 0) return undefined;
        const size = parseInt(rest.subarray(at, eol).toString('latin1'), 16);
        if (size === 0) return rest.length >= eol + 4 ? { status, headers, body: Buffer.concat(chunks) } : undefined;
        if (rest.length < eol + 2 + size + 2) return undefined;
        chunks.push(rest.subarray(eol + 2, eol + 2 + size));
        at = eol + 2 + size + 2;
      }
    };
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const parsed = tryParse();
      if (parsed) {
        clearTimeout(timer);
        socket.destroy();
        resolve(parsed);
      }
    });
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  });
}
