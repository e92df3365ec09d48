// Node RPC proxy configuration from environment variables.
//
// Which nodes `/v2/*` goes to, in order of precedence:
//   1. STACKS_CORE_PROXY_HOST / STACKS_CORE_PROXY_PORT (as in the Hiro API): if either is set, one node,
//      each part falling back to STACKS_CORE_RPC_HOST / STACKS_CORE_RPC_PORT.
//   2. STACKS_CORE_RPC_NODES=host:port,host:port,... : a load-balanced pool.
//   3. STACKS_CORE_RPC_HOST / STACKS_CORE_RPC_PORT (defaults 127.0.0.1:20443): one node.
import { ConfigError, readPort, readPositiveInt } from '../../config/config.ts';

type Env = Record<string, string | undefined>;

export interface ProxyNodeAddress {
  /** Hostname or IP; IPv6 without brackets. */
  host: string;
  port: number;
}

export interface ProxyConfig {
  nodes: ProxyNodeAddress[];
  /** How often each node's /v2/info is polled, ms. */
  healthIntervalMs: number;
  /** A node whose stacks_tip_height is more than this many blocks behind the best node leaves the rotation. */
  maxTipLag: number;
  /** Largest request body forwarded, bytes. */
  bodyLimit: number;
  /** How long a node may take to send response headers (and between body chunks), ms. */
  timeoutMs: number;
  /** Connections per node; undefined = unlimited. */
  connectionsPerNode?: number;
}

export const DEFAULT_RPC_HOST = '127.0.0.1';
export const DEFAULT_RPC_PORT = 20443;

const HOSTNAME = /^[A-Za-z0-9]([A-Za-z0-9_.-]*[A-Za-z0-9])?$/;
const IPV6 = /^[0-9A-Fa-f:.]+$/;

/** Validates a host as written in an env var (a hostname, an IPv4, or an IPv6 with or without brackets). */
function parseHost(raw: string, variable: string): string {
  const bare = raw.startsWith('[') && raw.endsWith(']') ? raw.slice(1, -1) : raw;
  if (bare.includes(':') ? IPV6.test(bare) : HOSTNAME.test(bare)) return bare;
  throw new ConfigError(variable, `expected a hostname or IP address, got "${raw}"`);
}

function nodePort(env: Env, name: string, fallback: number): number {
  const port = readPort(env, name, fallback);
  if (port === 0) throw new ConfigError(name, 'expected a port number 1-65535, got "0"');
  return port;
}

/** Parses `host:port,host:port,...` (IPv6 as `[::1]:20443`). */
export function parseNodeList(raw: string, variable: string): ProxyNodeAddress[] {
  const nodes: ProxyNodeAddress[] = [];
  const seen = new Set<string>();
  for (const entry of raw.split(',').map((s) => s.trim())) {
    if (entry === '') throw new ConfigError(variable, `expected host:port,host:port,..., got an empty entry in "${raw}"`);
    const m = /^(\[[^\]]*\]|[^:[\]]+):(\d+)$/.exec(entry);
    if (!m) throw new ConfigError(variable, `expected host:port (IPv6 as [addr]:port), got "${entry}"`);
    const host = parseHost(m[1], variable);
    const port = Number(m[2]);
    if (port < 1 || port > 65535) throw new ConfigError(variable, `expected a port number 1-65535 in "${entry}"`);
    const key = `${host.toLowerCase()}:${port}`;
    if (seen.has(key)) throw new ConfigError(variable, `lists ${entry} more than once`);
    seen.add(key);
    nodes.push({ host, port });
  }
  return nodes;
}

function readNonNegativeInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw new ConfigError(name, `expected a non-negative integer, got "${raw}"`);
  return Number(raw);
}

function readNodes(env: Env): ProxyNodeAddress[] {
  const rpcHost = env.STACKS_CORE_RPC_HOST ? parseHost(env.STACKS_CORE_RPC_HOST, 'STACKS_CORE_RPC_HOST') : DEFAULT_RPC_HOST;
  const rpcPort = nodePort(env, 'STACKS_CORE_RPC_PORT', DEFAULT_RPC_PORT);
  if (env.STACKS_CORE_PROXY_HOST || env.STACKS_CORE_PROXY_PORT) {
    const host = env.STACKS_CORE_PROXY_HOST ? parseHost(env.STACKS_CORE_PROXY_HOST, 'STACKS_CORE_PROXY_HOST') : rpcHost;
    return [{ host, port: nodePort(env, 'STACKS_CORE_PROXY_PORT', rpcPort) }];
  }
  if (env.STACKS_CORE_RPC_NODES) return parseNodeList(env.STACKS_CORE_RPC_NODES, 'STACKS_CORE_RPC_NODES');
  return [{ host: rpcHost, port: rpcPort }];
}

export function loadProxyConfig(env: Env = process.env): ProxyConfig {
  const connections = env.STACKS_CORE_PROXY_CONNECTIONS;
  return {
    nodes: readNodes(env),
    healthIntervalMs: readPositiveInt(env, 'STACKS_CORE_PROXY_HEALTH_INTERVAL_MS', 5000),
    maxTipLag: readNonNegativeInt(env, 'STACKS_CORE_PROXY_MAX_TIP_LAG', 10),
    bodyLimit: readPositiveInt(env, 'STACKS_CORE_PROXY_BODY_LIMIT', 10 * 1024 * 1024),
    timeoutMs: readPositiveInt(env, 'STACKS_CORE_PROXY_TIMEOUT_MS', 30_000),
    connectionsPerNode: connections ? readPositiveInt(env, 'STACKS_CORE_PROXY_CONNECTIONS', 1) : undefined,
  };
}

/** `host:port` as used in URLs (IPv6 in brackets). */
export function formatAddress(node: ProxyNodeAddress): string {
  return `${node.host.includes(':') ? `[${node.host}]` : node.host}:${node.port}`;
}
