// What the construction endpoints ask the Stacks node (through the proxy's pool, with its
// failover): an account's next nonce, the PoX contract and current burn height and cycle, a fee
// estimate, and the broadcast itself.
import type { ApiContext } from '../../context.ts';
import { NodeUnavailable, type NodeAnswer, type NodeClient } from '../../proxy/node-client.ts';
import type { HttpError } from '../../errors.ts';
import { nodeUnavailable, rosettaError } from '../errors.ts';

function nodeOf(ctx: Pick<ApiContext, 'node'>): NodeClient {
  if (!ctx.node) throw nodeUnavailable('no Stacks node is configured');
  return ctx.node;
}

/** A node request; connection failures and timeouts become a retriable Rosetta error. */
async function ask(ctx: Pick<ApiContext, 'node'>, method: 'GET' | 'POST', path: string, body?: unknown): Promise<NodeAnswer> {
  try {
    return await nodeOf(ctx).request({ method, path, body: body === undefined ? undefined : JSON.stringify(body), contentType: body === undefined ? undefined : 'application/json' });
  } catch (err) {
    if (err instanceof NodeUnavailable) throw nodeUnavailable(err.message);
    throw err;
  }
}

function json<T>(answer: NodeAnswer, what: string): T {
  if (answer.status !== 200) throw nodeUnavailable(`the Stacks node answered ${what} with status ${answer.status}`, 502);
  try {
    return JSON.parse(answer.body.toString('utf8')) as T;
  } catch {
    throw nodeUnavailable(`the Stacks node's answer to ${what} is not JSON`, 502);
  }
}

/** The nonce the account's next tx takes (the node's view, mempool included). */
export async function accountNonce(ctx: Pick<ApiContext, 'node'>, address: string): Promise<number> {
  const body = json<{ nonce?: unknown }>(await ask(ctx, 'GET', `/v2/accounts/${encodeURIComponent(address)}?proof=0`), '/v2/accounts');
  if (typeof body.nonce !== 'number') throw nodeUnavailable('the Stacks node sent no account nonce', 502);
  return body.nonce;
}

export interface PoxInfo {
  contract_id: string;
  current_burnchain_block_height: number;
  current_cycle_id: number;
}

export async function poxInfo(ctx: Pick<ApiContext, 'node'>): Promise<PoxInfo> {
  const body = json<{ contract_id?: unknown; current_burnchain_block_height?: unknown; current_cycle?: { id?: unknown } }>(await ask(ctx, 'GET', '/v2/pox'), '/v2/pox');
  if (typeof body.contract_id !== 'string' || typeof body.current_burnchain_block_height !== 'number') throw nodeUnavailable('the Stacks node sent no PoX contract', 502);
  return { contract_id: body.contract_id, current_burnchain_block_height: body.current_burnchain_block_height, current_cycle_id: Number(body.current_cycle?.id ?? 0) };
}

/**
 * The node's fee estimate for a tx of `size` bytes with this payload: the middle of its three
 * estimations; without an estimator, its per-byte fee rate for transfers times the size.
 */
export async function feeEstimate(ctx: Pick<ApiContext, 'node'>, payloadHex: string, size: number): Promise<bigint> {
  const answer = await ask(ctx, 'POST', '/v2/fees/transaction', { transaction_payload: payloadHex, estimated_len: size });
  if (answer.status === 200) {
    const body = json<{ estimations?: Array<{ fee?: unknown }> }>(answer, '/v2/fees/transaction');
    const fees = (body.estimations ?? []).map((e) => e.fee).filter((f): f is number => typeof f === 'number' && Number.isSafeInteger(f));
    if (fees.length) return BigInt(fees[Math.min(1, fees.length - 1)]);
  }
  const rate = json<unknown>(await ask(ctx, 'GET', '/v2/fees/transfer'), '/v2/fees/transfer');
  if (typeof rate !== 'number' || !(rate >= 0)) throw nodeUnavailable('the Stacks node sent no fee rate', 502);
  return BigInt(Math.ceil(rate * size));
}

/** Broadcasts a signed tx: its txid when the node took it, else the node's reason as a Rosetta error. */
export async function broadcast(ctx: Pick<ApiContext, 'node'>, bytes: Buffer): Promise<string | HttpError> {
  let answer: NodeAnswer;
  try {
    answer = await nodeOf(ctx).broadcast(bytes);
  } catch (err) {
    if (err instanceof NodeUnavailable) throw nodeUnavailable(err.message);
    throw err;
  }
  const text = answer.body.toString('utf8');
  if (answer.status >= 200 && answer.status < 300) {
    const m = /^"?(?:0x)?([0-9a-fA-F]{64})"?$/.exec(text.trim());
    if (m) return `0x${m[1].toLowerCase()}`;
  }
  if (answer.status >= 500) throw nodeUnavailable(`the Stacks node answered the broadcast with status ${answer.status}`, 502);
  let reason: unknown = text;
  try {
    reason = JSON.parse(text);
  } catch {
    // keep the text
  }
  return rosettaError('invalidTransactionString', { message: 'the Stacks node rejected the transaction', node: reason });
}
