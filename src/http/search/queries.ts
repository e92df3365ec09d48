// Search reads, each by key: a tx by tx_id (txs, then the mempool), a block by its hash (through
// the blocks_by_block_hash projection, sql/0001), a standard address by its address-index rows, a
// contract by its deploy (mempool address index, then contracts).
import type { Store } from '../../storage/client.ts';
import { firstRow, rows } from '../reads/query.ts';
import { fetchMempoolRows, fetchTxRows, placeTxRows, type MempoolRow, type PlacedTx } from '../tx/queries.ts';
import { blockByHash, type BlockRow } from '../blocks/queries.ts';
import { ROLE } from '../../stacks/roles.ts';

/** Every stored placement of the tx, with its canonical status. */
export async function txPlacements(store: Store, txId: string): Promise<PlacedTx[]> {
  return placeTxRows(store, await fetchTxRows(store, [txId]));
}

/** The tx as the mempool holds it now, if pending there. */
export async function pendingMempoolTx(store: Store, txId: string): Promise<MempoolRow | undefined> {
  const m = (await fetchMempoolRows(store, [txId])).get(txId);
  return m?.status === 'pending' ? m : undefined;
}

/** The tx as the mempool last knew it (any status). */
export async function anyMempoolTx(store: Store, txId: string): Promise<MempoolRow | undefined> {
  return (await fetchMempoolRows(store, [txId])).get(txId);
}

/** A stored block with this block hash (a canonical one first). */
export async function blockWithHash(store: Store, hash: string): Promise<BlockRow | undefined> {
  const ids = await rows<{ index_block_hash: string }>(store, `SELECT DISTINCT index_block_hash FROM blocks WHERE block_hash = {h:String}`, { h: hash });
  const found = (await Promise.all(ids.map((r) => blockByHash(store, 'index_block_hash', r.index_block_hash)))).filter((b): b is BlockRow => !!b);
  return found.sort((a, b) => Number(b.canonical) - Number(a.canonical))[0];
}

/** Roles the reference's principal search counts: tx sender or transfer recipient, STX/FT/NFT event party. */
const SEARCHED_ROLES = ROLE.SENDER | ROLE.TX_PARTY | ROLE.STX_EVENT | ROLE.FT_EVENT | ROLE.NFT_EVENT;

/** Whether the standard address took part in any stored tx (canonical or not). */
export async function addressSeen(store: Store, principal: string): Promise<boolean> {
  return !!(await firstRow(store, `SELECT 1 FROM principal_txs WHERE principal = {p:String} AND bitAnd(roles, {r:UInt8}) != 0 LIMIT 1`, { p: principal, r: SEARCHED_ROLES }));
}

/** A pending mempool tx deploying the contract, if any. */
export async function pendingDeploy(store: Store, contractId: string): Promise<MempoolRow | undefined> {
  const ids = await rows<{ tx_id: string }>(
    store,
    `SELECT tx_id FROM mempool_txs WHERE tx_id IN (SELECT tx_id FROM mempool_pending FINAL WHERE has(principals, {c:String})) AND contract_id = {c:String} AND type_id = 'smart_contract'`,
    { c: contractId },
  );
  const found = await fetchMempoolRows(store, ids.map((r) => r.tx_id));
  return [...found.values()].filter((m) => m.status === 'pending').sort((a, b) => a.log_id - b.log_id)[0];
}

/** The contract's deploy txs as stored (every placement). */
export async function deployPlacements(store: Store, contractId: string): Promise<PlacedTx[]> {
  const ids = await rows<{ tx_id: string }>(store, `SELECT DISTINCT tx_id FROM contracts WHERE contract_id = {c:String}`, { c: contractId });
  return placeTxRows(store, await fetchTxRows(store, ids.map((r) => r.tx_id)));
}
