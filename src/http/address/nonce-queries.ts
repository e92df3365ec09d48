// Nonces of one principal: the newest executed (as origin or sponsor), those pending in the
// mempool, and the gaps between, as the reference's /nonces computes them.
import type { Store } from '../../storage/client.ts';
import { rows } from '../reads/query.ts';
import { scopeWhere, SCOPE_PARAMS, NEWEST_FIRST, type Scope } from './scope.ts';
import { ROLE } from '../../stacks/roles.ts';
import { decodeTransaction } from '../../stacks/codec/index.ts';
import { pendingMempoolTxs } from './balance-queries.ts';

interface NonceTx {
  tx_id: string;
  sender_address: string;
  sponsor_address: string;
  nonce: string;
  raw_tx: string;
}

/** Nonces are per account and strictly increasing along the chain: the newest few txs hold the maximum. */
const NEWEST = 25;

/** The principal's newest canonical txs in which it is origin or sponsor, with their nonces. */
async function newestOwnTxs(store: Store, scope: Scope): Promise<NonceTx[]> {
  const own = await rows<{ tx_id: string; index_block_hash: string; microblock_hash: string }>(
    store,
    `SELECT tx_id, index_block_hash, microblock_hash FROM principal_txs FINAL
     WHERE ${scopeWhere('principal_txs', scope)} AND bitAnd(roles, ${ROLE.SENDER | ROLE.SPONSOR}) != 0
     ORDER BY ${NEWEST_FIRST} LIMIT ${NEWEST}`,
    SCOPE_PARAMS(scope),
  );
  if (own.length === 0) return [];
  const txs = await rows<NonceTx & { index_block_hash: string; microblock_hash: string }>(
    store,
    `SELECT tx_id, index_block_hash, microblock_hash, sender_address, sponsor_address, toString(nonce) AS nonce, raw_tx FROM txs
     WHERE tx_id IN {ids:Array(String)} LIMIT 1 BY tx_id, index_block_hash, microblock_hash`,
    { ids: own.map((o) => o.tx_id) },
  );
  const wanted = new Set(own.map((o) => `${o.tx_id}|${o.index_block_hash}|${o.microblock_hash}`));
  return txs.filter((t) => wanted.has(`${t.tx_id}|${t.index_block_hash}|${t.microblock_hash}`));
}

const sponsorNonce = (rawTx: string): number | null => {
  try {
    const n = decodeTransaction(rawTx).sponsorNonce;
    return n === undefined ? null : Number(n);
  } catch {
    return null;
  }
};

const max = (list: number[]): number | null => (list.length ? Math.max(...list) : null);

export interface Nonces {
  last_executed_tx_nonce: number | null;
  last_mempool_tx_nonce: number | null;
  possible_next_nonce: number;
  detected_missing_nonces: number[];
  detected_mempool_nonces: number[];
}

export async function addressNonces(store: Store, principal: string): Promise<Nonces> {
  const [executed, pending] = await Promise.all([newestOwnTxs(store, { principal, unconfirmed: true }), pendingMempoolTxs(store, principal)]);
  const asSender = executed.filter((t) => t.sender_address === principal).map((t) => Number(t.nonce));
  const asSponsor = executed.filter((t) => t.sponsor_address === principal).map((t) => sponsorNonce(t.raw_tx)).filter((n): n is number => n !== null);
  // Pending nonces as origin, and as sponsor of sponsored txs.
  const mempoolNonces: number[] = [];
  for (const m of pending) {
    try {
      const d = decodeTransaction(m.raw_tx);
      if (m.sender_address === principal) mempoolNonces.push(Number(d.nonce));
      if (d.sponsored && m.sponsor_address === principal && d.sponsorNonce !== undefined) mempoolNonces.push(Number(d.sponsorNonce));
    } catch {
      // undecodable rows are not counted
    }
  }
  return noncesOf(asSender, asSponsor, mempoolNonces);
}

/** The reference's nonce summary from the executed nonces (as origin, as sponsor) and the pending ones. */
export function noncesOf(asSenderNonces: number[], asSponsorNonces: number[], mempoolNonces: number[]): Nonces {
  const asSender = max(asSenderNonces);
  const asSponsor = max(asSponsorNonces);
  const lastExecuted = asSender === null && asSponsor === null ? null : Math.max(asSender ?? 0, asSponsor ?? 0);
  const lastMempool = max(mempoolNonces);
  const possibleNext = lastExecuted === null && lastMempool === null ? 0 : Math.max(lastExecuted ?? 0, lastMempool ?? 0) + 1;
  const missing: number[] = [];
  const inMempool: number[] = [];
  if (lastExecuted !== null && lastMempool !== null && lastMempool - lastExecuted > 1) {
    const have = new Set(mempoolNonces);
    for (let n = lastMempool - 1; n > lastExecuted; n--) (have.has(n) ? inMempool : missing).push(n);
  }
  return {
    last_executed_tx_nonce: lastExecuted,
    last_mempool_tx_nonce: lastMempool,
    possible_next_nonce: possibleNext,
    detected_missing_nonces: missing,
    detected_mempool_nonces: inMempool,
  };
}

/**
 * The newest nonce executed up to a canonical height. As the reference, a sponsor's tx counts with
 * the origin's nonce field.
 */
export async function nonceAtHeight(store: Store, principal: string, height: number): Promise<{ last_executed_tx_nonce: number | null; possible_next_nonce: number }> {
  const own = await newestOwnTxs(store, { principal, maxHeight: height });
  const nonces = own
    .filter((t) => (t.sponsor_address ? t.sponsor_address === principal : t.sender_address === principal))
    .map((t) => Number(t.nonce));
  const last = max(nonces);
  return { last_executed_tx_nonce: last, possible_next_nonce: last === null ? 0 : last + 1 };
}
