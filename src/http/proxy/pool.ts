// The pool of Stacks nodes behind the proxy: one undici Pool per node for proxied traffic, a separate
// undici Client per node for health polls of /v2/info, and the rotation the proxy picks nodes from.
//
// A node is in the rotation unless its last poll failed (or a proxied request could not connect to it)
// or its stacks_tip_height is more than `maxTipLag` blocks behind the best reachable node. Nodes not
// polled yet count as in the rotation. Picking prefers the node with the fewest requests in flight,
// round-robin among equals.
import { Client, Pool } from 'undici';
import { formatAddress, type ProxyConfig } from './config.ts';
import { NodeMetrics, type NodeMetricsView } from './metrics.ts';

export interface ProxyLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, err?: unknown): void;
}

export class UpstreamNode implements NodeMetricsView {
  /** Reachable at the last poll; undefined before the first poll. */
  reachable: boolean | undefined = undefined;
  tip: number | undefined = undefined;
  inRotation = true;
  inflight = 0;
  /** Why the node is out of the rotation (for logs). */
  reason = '';
  readonly metrics = new NodeMetrics();

  constructor(
    readonly index: number,
    readonly name: string,
    /** host:port, for operators (logs, /metrics) only; never in client-facing messages. */
    readonly address: string,
    readonly dispatcher: Pool,
    readonly health: Client,
  ) {}
}

/** Errors that mean no connection to the node was made. */
const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);

export function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

const PROTOCOL_CODES = new Set(['UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'UND_ERR_INFO', 'UND_ERR_HEADERS_OVERFLOW', 'UND_ERR_RES_EXCEEDED_MAX_SIZE']);

/** The node's answer was not valid HTTP (llhttp errors carry no code for some failures: check the name). */
export function isProtocolError(err: unknown): boolean {
  const code = errorCode(err);
  return code.startsWith('HPE_') || PROTOCOL_CODES.has(code) || (err as Error | null)?.name === 'HTTPParserError';
}

export function isConnectError(err: unknown): boolean {
  return CONNECT_CODES.has(errorCode(err));
}

/** Short cause of a connection-level failure, without addresses. */
export function describeConnectError(err: unknown): string {
  switch (errorCode(err)) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NONAME':
      return 'DNS lookup failed';
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return 'connect timeout';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
      return 'host unreachable';
    default:
      return 'connection failed';
  }
}

class HealthError extends Error {}

export interface NodePoolOptions {
  log: ProxyLogger;
}

export class NodePool {
  readonly nodes: readonly UpstreamNode[];
  private cursor = 0;
  private closed = false;
  private readonly timers = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  private readonly firstPolls: Promise<void>[] = [];
  private readonly loops: Promise<void>[] = [];
  private readonly healthTimeoutMs: number;
  private readonly log: ProxyLogger;

  constructor(
    private readonly config: ProxyConfig,
    options: NodePoolOptions,
  ) {
    this.log = options.log;
    if (config.nodes.length === 0) throw new Error('the node proxy needs at least one node');
    const connectTimeout = Math.min(config.timeoutMs, 10_000);
    // A poll must finish well within a few intervals, but never wait longer than a proxied request would.
    this.healthTimeoutMs = Math.min(config.timeoutMs, Math.max(1000, config.healthIntervalMs));
    this.nodes = config.nodes.map((addr, i) => {
      const origin = `http://${formatAddress(addr)}`;
      const dispatcher = new Pool(origin, {
        connections: config.connectionsPerNode ?? null,
        headersTimeout: config.timeoutMs,
        bodyTimeout: config.timeoutMs,
        connect: { timeout: connectTimeout },
      });
      const health = new Client(origin, { connect: { timeout: Math.min(connectTimeout, this.healthTimeoutMs) } });
      // Errors reach the requests' handlers; these events only need a listener so they are not thrown.
      dispatcher.on('connectionError', () => {});
      health.on('connectionError', () => {});
      return new UpstreamNode(i, `node${i}`, formatAddress(addr), dispatcher, health);
    });
  }

  /** Starts polling every node (first poll at once). */
  start(): void {
    for (const node of this.nodes) {
      let first!: () => void;
      this.firstPolls.push(new Promise<void>((resolve) => (first = resolve)));
      this.loops.push(this.pollLoop(node, first));
    }
  }

  /** Resolves once every node has been polled once (whatever the outcome). */
  async ready(): Promise<void> {
    await Promise.all(this.firstPolls);
  }

  /** A node in the rotation not in `exclude`, or undefined. */
  pick(exclude?: ReadonlySet<UpstreamNode>): UpstreamNode | undefined {
    const n = this.nodes.length;
    let best: UpstreamNode | undefined;
    for (let i = 0; i < n; i++) {
      const node = this.nodes[(this.cursor + i) % n];
      if (!node.inRotation || exclude?.has(node)) continue;
      if (best === undefined || node.inflight < best.inflight) best = node;
    }
    if (best !== undefined) this.cursor = (best.index + 1) % n;
    return best;
  }

  /** A proxied request could not connect: take the node out until a poll succeeds again. */
  markUnreachable(node: UpstreamNode, cause: string): void {
    if (this.closed || node.reachable === false) return;
    node.reachable = false;
    node.reason = cause;
    this.updateRotation();
  }

  /** Polls one node now (tests and the loop). */
  async poll(node: UpstreamNode): Promise<void> {
    try {
      let tip: number;
      try {
        tip = await this.fetchTip(node);
      } catch (err) {
        // A kept-alive socket the node closed between polls: one immediate retry on a fresh one.
        const code = errorCode(err);
        if (this.closed || (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET')) throw err;
        tip = await this.fetchTip(node);
      }
      node.metrics.healthChecksOk++;
      node.reachable = true;
      node.tip = tip;
    } catch (err) {
      if (this.closed) return;
      node.metrics.healthChecksFailed++;
      node.reachable = false;
      node.reason = err instanceof HealthError ? err.message : `/v2/info failed: ${isConnectError(err) ? describeConnectError(err) : errorCode(err) || (err as Error).message}`;
    }
    this.updateRotation();
  }

  private async fetchTip(node: UpstreamNode): Promise<number> {
    const { statusCode, body } = await node.health.request({
      method: 'GET',
      path: '/v2/info',
      headers: { accept: 'application/json' },
      headersTimeout: this.healthTimeoutMs,
      bodyTimeout: this.healthTimeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > 1024 * 1024) {
        body.destroy();
        throw new HealthError('/v2/info answer too large');
      }
      chunks.push(chunk as Buffer);
    }
    if (statusCode !== 200) throw new HealthError(`/v2/info answered ${statusCode}`);
    let tip: unknown;
    try {
      tip = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { stacks_tip_height?: unknown })?.stacks_tip_height;
    } catch {
      throw new HealthError('/v2/info is not JSON');
    }
    if (typeof tip !== 'number' || !Number.isSafeInteger(tip) || tip < 0) throw new HealthError('/v2/info has no stacks_tip_height');
    return tip;
  }

  private async pollLoop(node: UpstreamNode, first: () => void): Promise<void> {
    await this.poll(node);
    first();
    while (!this.closed) {
      await this.sleep(this.config.healthIntervalMs);
      if (this.closed) break;
      await this.poll(node);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.timers.delete(entry);
          resolve();
        }, ms),
        wake: resolve,
      };
      entry.timer.unref();
      this.timers.add(entry);
    });
  }

  private updateRotation(): void {
    let best: number | undefined;
    for (const n of this.nodes) if (n.reachable !== false && n.tip !== undefined && (best === undefined || n.tip > best)) best = n.tip;
    for (const n of this.nodes) {
      let inRotation = n.reachable !== false;
      if (inRotation && best !== undefined && n.tip !== undefined && n.tip < best - this.config.maxTipLag) {
        inRotation = false;
        n.reason = `stacks_tip_height ${n.tip} is ${best - n.tip} blocks behind ${best}`;
      }
      if (inRotation === n.inRotation) continue;
      n.inRotation = inRotation;
      if (inRotation) this.log.info(`node proxy: ${n.name} (${n.address}) back in rotation`);
      else this.log.warn(`node proxy: ${n.name} (${n.address}) left rotation: ${n.reason}`);
    }
  }

  /** Stops polling; in-flight proxied requests get `graceMs` to finish, then connections are destroyed. */
  async close(graceMs = 1000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) {
      clearTimeout(t.timer);
      t.wake();
    }
    this.timers.clear();
    await Promise.all(this.nodes.map((n) => n.health.destroy().catch(() => {})));
    await Promise.all(this.loops);
    await Promise.all(
      this.nodes.map(async (n) => {
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
        await Promise.race([n.dispatcher.close().catch(() => {}), grace]);
        clearTimeout(timer);
        await n.dispatcher.destroy().catch(() => {});
      }),
    );
  }
}
