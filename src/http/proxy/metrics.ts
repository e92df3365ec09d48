// Per-node proxy counters, rendered in the Prometheus text exposition format (version 0.0.4).

/** Upper bounds of the latency histogram, seconds. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;

export type UpstreamErrorKind = 'connect' | 'timeout' | 'reset' | 'protocol' | 'other';

export class NodeMetrics {
  /** Requests sent (or attempted) to this node, retries included. */
  requests = 0;
  readonly errors = new Map<UpstreamErrorKind, number>();
  /** Responses by status class ("2xx", ...). */
  readonly responses = new Map<string, number>();
  readonly latencyBuckets = new Array<number>(LATENCY_BUCKETS.length).fill(0);
  latencySum = 0;
  latencyCount = 0;
  healthChecksOk = 0;
  healthChecksFailed = 0;

  error(kind: UpstreamErrorKind): void {
    this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
  }

  /** Time from sending the request to the node's response headers. */
  response(status: number, seconds: number): void {
    const cls = `${Math.floor(status / 100)}xx`;
    this.responses.set(cls, (this.responses.get(cls) ?? 0) + 1);
    this.latencySum += seconds;
    this.latencyCount++;
    for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
      if (seconds <= LATENCY_BUCKETS[i]) {
        this.latencyBuckets[i]++;
        break;
      }
    }
  }
}

/** What the renderer needs to know of a node. */
export interface NodeMetricsView {
  name: string;
  address: string;
  inRotation: boolean;
  tip: number | undefined;
  inflight: number;
  metrics: NodeMetrics;
}

export type RejectReason = 'no_healthy_node' | 'body_too_large';

export class ProxyMetrics {
  readonly rejected = new Map<RejectReason, number>();

  reject(reason: RejectReason): void {
    this.rejected.set(reason, (this.rejected.get(reason) ?? 0) + 1);
  }

  render(nodes: readonly NodeMetricsView[]): string {
    const out: string[] = [];
    const family = (name: string, type: string, help: string): void => {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    };
    const node = (n: NodeMetricsView, extra = ''): string => `node="${escapeLabel(n.name)}"${extra}`;

    family('stacks_proxy_node_info', 'gauge', 'Stacks node behind each node label (always 1).');
    for (const n of nodes) out.push(`stacks_proxy_node_info{${node(n)},address="${escapeLabel(n.address)}"} 1`);
    family('stacks_proxy_node_healthy', 'gauge', 'Whether the node is in the proxy rotation.');
    for (const n of nodes) out.push(`stacks_proxy_node_healthy{${node(n)}} ${n.inRotation ? 1 : 0}`);
    family('stacks_proxy_node_tip_height', 'gauge', 'stacks_tip_height from the last successful /v2/info poll.');
    for (const n of nodes) if (n.tip !== undefined) out.push(`stacks_proxy_node_tip_height{${node(n)}} ${n.tip}`);
    family('stacks_proxy_node_inflight', 'gauge', 'Requests in flight to the node.');
    for (const n of nodes) out.push(`stacks_proxy_node_inflight{${node(n)}} ${n.inflight}`);
    family('stacks_proxy_health_checks_total', 'counter', 'Health polls of /v2/info by result.');
    for (const n of nodes) {
      out.push(`stacks_proxy_health_checks_total{${node(n, ',result="ok"')}} ${n.metrics.healthChecksOk}`);
      out.push(`stacks_proxy_health_checks_total{${node(n, ',result="failed"')}} ${n.metrics.healthChecksFailed}`);
    }
    family('stacks_proxy_upstream_requests_total', 'counter', 'Requests sent to the node, retries included.');
    for (const n of nodes) out.push(`stacks_proxy_upstream_requests_total{${node(n)}} ${n.metrics.requests}`);
    family('stacks_proxy_upstream_responses_total', 'counter', 'Responses from the node by status class.');
    for (const n of nodes) for (const [cls, v] of n.metrics.responses) out.push(`stacks_proxy_upstream_responses_total{${node(n, `,code="${cls}"`)}} ${v}`);
    family('stacks_proxy_upstream_errors_total', 'counter', 'Requests to the node that failed, by kind (connect, timeout, reset, protocol, other).');
    for (const n of nodes) for (const [kind, v] of n.metrics.errors) out.push(`stacks_proxy_upstream_errors_total{${node(n, `,kind="${kind}"`)}} ${v}`);
    family('stacks_proxy_upstream_latency_seconds', 'histogram', 'Time from sending a request to the node to its response headers.');
    for (const n of nodes) {
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((le, i) => {
        cumulative += n.metrics.latencyBuckets[i];
        out.push(`stacks_proxy_upstream_latency_seconds_bucket{${node(n, `,le="${le}"`)}} ${cumulative}`);
      });
      out.push(`stacks_proxy_upstream_latency_seconds_bucket{${node(n, ',le="+Inf"')}} ${n.metrics.latencyCount}`);
      out.push(`stacks_proxy_upstream_latency_seconds_sum{${node(n)}} ${n.metrics.latencySum}`);
      out.push(`stacks_proxy_upstream_latency_seconds_count{${node(n)}} ${n.metrics.latencyCount}`);
    }
    family('stacks_proxy_rejected_total', 'counter', 'Requests answered by the proxy without a node (no healthy node, body too large).');
    for (const reason of ['no_healthy_node', 'body_too_large'] as const) out.push(`stacks_proxy_rejected_total{reason="${reason}"} ${this.rejected.get(reason) ?? 0}`);
    return out.join('\n') + '\n';
  }
}

function escapeLabel(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}
