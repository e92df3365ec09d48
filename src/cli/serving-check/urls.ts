// The URLs whose answers the serving store must give exactly as ClickHouse does: every tx, block
// and principal the store holds (or a sample of each on a large store), with the lists' pages.
import type { Store } from '../../storage/client.ts';

const q = async <T>(store: Store, sql: string, params: Record<string, unknown> = {}): Promise<T[]> =>
  (await store.client.query({ query: sql, query_params: params, format: 'JSONEachRow' })).json<T>();

/** Offsets of pages across a list of `n` items: the first, some in between, the last, one past it. */
function offsets(n: number, limit: number, pages = 4): number[] {
  const out = new Set([0, Math.max(0, n - limit), n]);
  for (let i = 1; i < pages; i++) out.add(Math.floor((n * i) / pages));
  return [...out];
}

export async function checkUrls(store: Store, sample: number): Promise<string[]> {
  const urls: string[] = [];
  const lim = `LIMIT ${sample}`;
  const txs = await q<{ tx_id: string; event_count: string; type_id: string }>(
    store,
    `SELECT tx_id, max(event_count) AS event_count, any(type_id) AS type_id FROM (
       SELECT tx_id, event_count, type_id FROM txs UNION ALL SELECT tx_id, 0, type_id FROM mempool_txs)
     GROUP BY tx_id ORDER BY cityHash64(tx_id) ${lim}`,
  );
  for (const t of txs) {
    urls.push(`/extended/v1/tx/${t.tx_id}`, `/extended/v1/tx/${t.tx_id}/raw`, `/extended/v1/tx/${t.tx_id}?unanchored=true`);
    if (Number(t.event_count) > 5) urls.push(`/extended/v1/tx/${t.tx_id}?event_offset=3&event_limit=4`);
    if (Number(t.event_count) > 20) urls.push(`/extended/v1/tx/${t.tx_id}?event_offset=18&event_limit=50`, `/extended/v1/tx/${t.tx_id}?event_offset=40&event_limit=100`);
    if (t.type_id === 'contract_call') urls.push(`/extended/v1/tx/${t.tx_id}?exclude_function_args=true`);
  }
  for (let i = 0; i + 3 <= txs.length && i < 30; i += 3) urls.push(`/extended/v1/tx/multiple?${txs.slice(i, i + 3).map((t) => `tx_id=${t.tx_id}`).join('&')}&tx_id=0x${'00'.repeat(32)}`);

  const blocks = await q<{ index_block_hash: string; block_hash: string; block_height: string }>(store, `SELECT index_block_hash, block_hash, block_height FROM blocks ORDER BY cityHash64(index_block_hash) ${lim}`);
  for (const b of blocks) {
    urls.push(
      `/extended/v1/block/${b.block_hash}`,
      `/extended/v1/block/by_height/${b.block_height}`,
      `/extended/v2/blocks/${b.block_height}`,
      `/extended/v2/blocks/${b.index_block_hash}`,
      `/extended/v2/blocks/${b.block_hash}`,
      `/extended/v2/blocks/${b.block_height}/transactions`,
      `/extended/v2/blocks/${b.block_height}/transactions?offset=1&limit=3`,
    );
  }
  urls.push('/extended/v2/blocks/latest', '/extended/v2/blocks/latest/transactions');
  const [{ n: txCount }] = await q<{ n: string }>(store, `SELECT count() AS n FROM txs`);
  for (const o of offsets(Number(txCount), 50)) urls.push(`/extended/v1/tx?limit=50&offset=${o}`, `/extended/v1/tx?limit=7&offset=${o}&unanchored=true`);
  const [{ n: blockCount }] = await q<{ n: string }>(store, `SELECT count() AS n FROM blocks`);
  for (const o of offsets(Number(blockCount), 30)) urls.push(`/extended/v1/block?limit=30&offset=${o}`);
  for (const order of ['age', 'size', 'fee']) urls.push(`/extended/v1/tx/mempool?order_by=${order}`, `/extended/v1/tx/mempool?order_by=${order}&order=asc&limit=3&offset=1&unanchored=true`);

  const principals = await q<{ principal: string; n: string }>(store, `SELECT principal, count() AS n FROM principal_txs GROUP BY principal ORDER BY cityHash64(principal) ${lim}`);
  for (const { principal: p, n } of principals) {
    const a = `/extended/v1/address/${p}`;
    const v2 = `/extended/v2/addresses/${p}`;
    urls.push(`${a}/stx`, `${a}/balances`, `${a}/nonces`, `${v2}/transactions`, `${v2}/balances/stx`, `${v2}/balances/stx?include_mempool=true`, `/extended/v1/tx/mempool?address=${p}`);
    urls.push(`${v2}/balances/ft`, `${v2}/balances/ft?limit=1&offset=1`, `${v2}/balances/ft/stx`);
    urls.push(`${a}/mempool`, `${a}/mempool?unanchored=true&limit=2&offset=1`);
    for (const o of offsets(Number(n), 20, 1)) {
      urls.push(`${a}/transactions?offset=${o}`, `${a}/transactions_with_transfers?offset=${o}&limit=7`, `/extended/v2/addresses/${p}/transactions?offset=${o}&limit=5`);
    }
  }
  const pairs = await q<{ principal: string; tx_id: string }>(store, `SELECT principal, tx_id FROM principal_txs ORDER BY cityHash64(principal, tx_id) ${lim}`);
  const holders = await q<{ principal: string; asset: string }>(store, `SELECT principal, asset FROM balances WHERE asset != 'stx' GROUP BY principal, asset ORDER BY cityHash64(principal, asset) ${lim}`);
  for (const { principal, asset } of holders) urls.push(`/extended/v2/addresses/${principal}/balances/ft/${encodeURIComponent(asset)}`);
  for (const { principal, tx_id } of pairs) {
    urls.push(`/extended/v1/address/${principal}/${tx_id}/with_transfers`, `/extended/v2/addresses/${principal}/transactions/${tx_id}/events`);
    urls.push(`/extended/v2/addresses/${principal}/transactions/${tx_id}/events?offset=1&limit=2`);
  }
  return urls;
}
