// sql/0050 on a store made before it: each stored block's analytics changes computed in SQL from its
// stored rows (as src/workers/analytics-changes.ts computes them at ingest), then the canonical
// blocks' rows in analytics_by_bucket (as src/ingest/processor/analytics.ts adds them).
import type { Store } from './client.ts';
import { POX_PARAMS, networkOfPrincipal } from '../ingest/processor/analytics-buckets.ts';

const one = (table: string, key: string) => `(SELECT * FROM ${table} WHERE index_block_hash != '' LIMIT 1 BY ${key})`;
const TXS = one('txs', 'tx_id, index_block_hash, microblock_hash');
const ev = (t: string) => one(t, 'tx_id, index_block_hash, microblock_hash, event_index');
const INSERT = 'INSERT INTO analytics_changes (index_block_hash, kind, a, b, c, n, amount)';

const CHANGES = [
  `${INSERT} SELECT index_block_hash, 'tx', type_id, if(status = 'success', '', 'failed'), if(microblock_hash != '', 'micro', ''), count(), sum(toInt128(fee_rate))
   FROM ${TXS} GROUP BY index_block_hash, type_id, status = 'success', microblock_hash != ''`,
  `${INSERT} SELECT index_block_hash, 'ptx', p, '', '', sum(n), sum(f) FROM (
     SELECT index_block_hash, sender_address AS p, 1 AS n, toInt128(0) AS f FROM ${TXS} WHERE sender_address != ''
     UNION ALL SELECT index_block_hash, if(sponsor_address != '', sponsor_address, sender_address), 0, toInt128(fee_rate) FROM ${TXS} WHERE fee_rate != 0)
   WHERE p != '' GROUP BY index_block_hash, p`,
  `${INSERT} SELECT index_block_hash, 'call', contract_id, function_name, '', count(), sum(toInt128(fee_rate)) FROM ${TXS} WHERE type_id = 'contract_call' GROUP BY index_block_hash, contract_id, function_name`,
  `${INSERT} SELECT index_block_hash, 'caller', contract_id, sender_address, '', count(), 0 FROM ${TXS} WHERE type_id = 'contract_call' GROUP BY index_block_hash, contract_id, sender_address`,
  `${INSERT} SELECT index_block_hash, 'deploy', '', '', '', count(), 0 FROM ${one('contracts', 'contract_id, index_block_hash, microblock_hash')}
   WHERE (tx_id, index_block_hash, microblock_hash) IN (SELECT tx_id, index_block_hash, microblock_hash FROM txs WHERE status = 'success') GROUP BY index_block_hash`,
  `${INSERT} SELECT index_block_hash, 'stx_xfer', '', '', '', count(), sum(toInt128(amount)) FROM ${ev('stx_events')} WHERE asset_event_type = 'transfer' GROUP BY index_block_hash`,
  `${INSERT} SELECT index_block_hash, 'ft', asset_identifier, asset_event_type, '', count(), sum(toInt128(amount)) FROM ${ev('ft_events')} GROUP BY index_block_hash, asset_identifier, asset_event_type`,
  `${INSERT} SELECT index_block_hash, 'nft', asset_identifier, asset_event_type, '', count(), 0 FROM ${ev('nft_events')} GROUP BY index_block_hash, asset_identifier, asset_event_type`,
  `${INSERT} SELECT index_block_hash, 'cevents', contract_identifier, '', '', count(), 0 FROM ${ev('contract_logs')} GROUP BY index_block_hash, contract_identifier`,
  ...(['out', 'in'] as const).map(
    (dir) => `${INSERT} SELECT index_block_hash, 'flow_${dir}', ${dir === 'out' ? 'sender' : 'recipient'}, asset, ${dir === 'out' ? 'recipient' : 'sender'}, count(), sum(toInt128(amount)) FROM (
       SELECT index_block_hash, sender, recipient, 'stx' AS asset, amount FROM ${ev('stx_events')} WHERE asset_event_type = 'transfer'
       UNION ALL SELECT index_block_hash, sender, recipient, asset_identifier, amount FROM ${ev('ft_events')} WHERE asset_event_type = 'transfer')
     GROUP BY index_block_hash, ${dir === 'out' ? 'sender' : 'recipient'}, asset, ${dir === 'out' ? 'recipient' : 'sender'}`,
  ),
  `${INSERT} SELECT index_block_hash, if(asset = 'stx', 'pbal', 'hold'), if(asset = 'stx', principal, asset), if(asset = 'stx', 'stx', principal), '', 0, sum(balance)
   FROM (SELECT * FROM balance_changes LIMIT 1 BY index_block_hash, microblock_hash, principal, asset) GROUP BY index_block_hash, asset, principal HAVING sum(balance) != 0`,
];

/** analytics_by_bucket rows of the canonical blocks: their changes and their own block row, per unit. */
function bucketRows(first: number, length: number): string {
  const canon = `(SELECT index_block_hash, any(block_time) AS t, any(burn_block_height) AS h, any(block_height) AS height, any(parent_index_block_hash) AS parent FROM blocks
    WHERE index_block_hash IN (SELECT index_block_hash FROM block_canonical FINAL WHERE canonical = 1) GROUP BY index_block_hash)`;
  const bucket = `multiIf(unit = 'hour', intDiv(t, 3600) * 3600, unit = 'day', intDiv(t, 86400) * 86400, if(h < ${first}, 0, intDiv(h - ${first}, ${length})))`;
  const units = `arrayJoin(if(kind IN ('tx', 'ptx', 'deploy', 'stx_xfer', 'block'), ['hour', 'day', 'cycle'], ['day', 'cycle']))`;
  return `INSERT INTO analytics_by_bucket (unit, kind, bucket, a, b, c, n, amount)
    SELECT unit, kind, toUInt32(${bucket}), a, b, c, n, amount FROM (
      SELECT ${units} AS unit, kind, k.t AS t, k.h AS h, a, b, c, n, amount FROM (
        SELECT index_block_hash, kind, a, b, c, n, amount FROM (SELECT * FROM analytics_changes LIMIT 1 BY index_block_hash, kind, a, b, c)
        UNION ALL
        SELECT k2.index_block_hash, 'block', '', if(p.index_block_hash != '' AND k2.height > 1, '1', '0'), '', 1,
               if(p.index_block_hash != '' AND k2.height > 1, toInt128(k2.t) - toInt128(p.t), toInt128(0))
        FROM ${canon} AS k2 LEFT JOIN (SELECT index_block_hash, any(block_time) AS t FROM blocks GROUP BY index_block_hash) AS p ON p.index_block_hash = k2.parent
      ) AS x INNER JOIN ${canon} AS k ON k.index_block_hash = x.index_block_hash
    ) SETTINGS join_use_nulls = 0`;
}

export async function backfillAnalytics(store: Store): Promise<void> {
  for (const query of CHANGES) await store.client.command({ query });
  const [sender] = await (await store.client.query({ query: `SELECT sender_address AS s FROM txs WHERE sender_address != '' LIMIT 1`, format: 'JSONEachRow' })).json<{ s: string }>();
  if (!sender) return;
  const p = POX_PARAMS[networkOfPrincipal(sender.s) ?? 'mainnet'];
  await store.client.command({ query: bucketRows(p.firstBurnHeight, p.cycleLength) });
}
