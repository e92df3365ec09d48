// Requests of the API's own (Rosetta construction: account nonce, fee estimate, PoX info, tx
// broadcast; network status: peers) to the node pool, with the proxy's failover: a request that
// never reached its node goes to the next one in the rotation, and a bodiless GET also when the
// node dropped the connection before answering. Answers are read whole (they are small, capped).
import { upstreamErrorKind, RESET_CODES } from './attempt.ts';
import { describeConnectError, errorCode, isConnectError, type NodePool, type ProxyLogger, type UpstreamNode } from './pool.ts';
import { parseTxid } from './broadcast.ts';

export interface NodeAnswer {
  status: number;
  body: Buffer;
}

export interface NodeRequest {
  method: 'GET' | 'POST';
  /** Path and query, e.g. /v2/accounts/SP...?proof=0 */
  path: string;
  body?: Buffer | string;
  contentType?: string;
}

/** No node could be asked, or none answered (the message says why, without node addresses). */
export class NodeUnavailable extends Error {}

export interface NodeClient {
  request(req: NodeRequest): Promise<NodeAnswer>;
  /**
   * POST /v2/transactions with the tx bytes. A node that took it (2xx with a txid) is reported to
   * the proxy's onBroadcastAccepted, as a broadcast through the proxy is (it shows in the mempool).
   */
  broadcast(rawTx: Buffer): Promise<NodeAnswer>;
  /** The highest stacks_tip_height the health polls saw among reachable nodes (undefined before any). */
  bestTip(): number | undefined;
}

/** Largest node answer read. */
const ANSWER_CAP = 4 * 1024 * 1024;

async function once(node: UpstreamNode, req: NodeRequest, timeoutMs: number): Promise<NodeAnswer> {
  node.inflight++;
  node.metrics.requests++;
  const started = performance.now();
  try {
    const res = await node.dispatcher.request({
      method: req.method,
      path: req.path,
      body: req.body,
      headers: { accept: 'application/json', ...(req.contentType ? { 'content-type': req.contentType } : {}) },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    node.metrics.response(res.statusCode, (performance.now() - started) / 1000);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > ANSWER_CAP) {
        res.body.destroy();
        throw new NodeUnavailable('the Stacks node answer is too large');
      }
      chunks.push(chunk as Buffer);
    }
    return { status: res.statusCode, body: Buffer.concat(chunks) };
  } catch (err) {
    if (!(err instanceof NodeUnavailable)) node.metrics.error(upstreamErrorKind(err, !isConnectError(err)));
    throw err;
  } finally {
    node.inflight--;
  }
}

export function createNodeClient(pool: NodePool, timeoutMs: number, onBroadcastAccepted?: (txid: string, rawTx: Buffer) => void | Promise<void>, log?: ProxyLogger): NodeClient {
  const client: NodeClient = {
    async broadcast(rawTx) {
      const answer = await client.request({ method: 'POST', path: '/v2/transactions', body: rawTx, contentType: 'application/octet-stream' });
      const txid = answer.status >= 200 && answer.status < 300 ? parseTxid(answer.body.toString('utf8')) : undefined;
      if (txid && onBroadcastAccepted) {
        try {
          const out = onBroadcastAccepted(txid, rawTx);
          if (out instanceof Promise) out.catch((err: unknown) => log?.error('node client: onBroadcastAccepted failed:', err));
        } catch (err) {
          log?.error('node client: onBroadcastAccepted failed:', err);
        }
      }
      return answer;
    },
    async request(req) {
      const tried = new Set<UpstreamNode>();
      let lastError = 'no healthy Stacks node is available';
      for (let node = pool.pick(); node; node = pool.pick(tried)) {
        tried.add(node);
        try {
          return await once(node, req, timeoutMs);
        } catch (err) {
          if (err instanceof NodeUnavailable) throw err;
          const code = errorCode(err);
          if (isConnectError(err)) {
            pool.markUnreachable(node, describeConnectError(err));
            lastError = `could not connect to a Stacks node (${describeConnectError(err)})`;
            continue;
          }
          if (req.method === 'GET' && req.body === undefined && RESET_CODES.has(code)) {
            lastError = 'the Stacks node closed the connection without a response';
            continue;
          }
          throw new NodeUnavailable(code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' ? `the Stacks node did not respond within ${timeoutMs} ms` : 'the request to the Stacks node failed');
        }
      }
      throw new NodeUnavailable(lastError);
    },
    bestTip() {
      let best: number | undefined;
      for (const n of pool.nodes) if (n.reachable !== false && n.tip !== undefined && (best === undefined || n.tip > best)) best = n.tip;
      return best;
    },
  };
  return client;
}
