// The v3 lists read documents' bodies in sections (served.ts) instead of parsing the v2 answer: on
// recorded logs, every stored placement's summary fields and v3 key equal those of its whole v1 object.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importedServingStore } from '../../testing/serving.ts';
import { ServingView } from '../../serving/view.ts';
import { placedDocOf } from '../../serving/reads.ts';
import { minedTxJson } from '../tx/served.ts';
import { StoredTx, summaryTxOf } from './served.ts';
import { txKeyOf, type SummaryTx } from './tx-shape.ts';

const FIELDS: ReadonlyArray<keyof SummaryTx> = [
  'tx_id', 'nonce', 'fee_rate', 'sender_address', 'sponsored', 'sponsor_address', 'sponsor_nonce',
  'block_hash', 'block_height', 'block_time', 'burn_block_height', 'burn_block_time', 'parent_block_hash', 'is_unanchored',
  'microblock_sequence', 'tx_index', 'tx_status', 'tx_type', 'token_transfer', 'smart_contract', 'coinbase_payload', 'tenure_change_payload',
];

async function checkFixture(fixture: string): Promise<{ sections: number; whole: number; types: Set<string> }> {
  const { store } = await importedServingStore(fixture, 'v3-served-');
  try {
    const s = { store, view: new ServingView(store).load() };
    let sections = 0;
    let whole = 0;
    const types = new Set<string>();
    for (const pid of store.txDocs.getKeys() as Iterable<number>) {
      const p = placedDocOf(store, pid)!;
      const v1 = JSON.parse(minedTxJson(s, p, { withAbi: false })) as SummaryTx;
      const summary = summaryTxOf(p);
      for (const f of FIELDS) assert.deepEqual(summary[f], v1[f], `${v1.tx_id} (${fixture}): ${f}`);
      assert.deepEqual(summary.contract_call, v1.contract_call && { contract_id: v1.contract_call.contract_id, function_name: v1.contract_call.function_name });
      assert.deepEqual(new StoredTx(p).key, txKeyOf(v1), `${v1.tx_id}'s key`);
      if (p.placement) sections++;
      else whole++;
      types.add(v1.tx_type);
    }
    return { sections, whole, types };
  } finally {
    await store.close();
  }
}

test('v3 summaries read from documents equal the v1 objects, on logs with microblocks, forks and every tx type', async () => {
  const seen = { sections: 0, whole: 0, types: new Set<string>() };
  for (const fixture of ['mainnet-reorg-scenario2.tsv', 'mocknet.tsv', 'mainnet-block0.tsv', 'poisonmicroblock.tsv', 'fuzzed-transactions-1.tsv', 'regtest-env-pox-4-out-of-order-multisig-tx.tsv']) {
    const r = await checkFixture(fixture);
    seen.sections += r.sections;
    seen.whole += r.whole;
    for (const t of r.types) seen.types.add(t);
  }
  // Both ways of reading a body were taken, over the tx types a summary shows a payload of.
  assert.ok(seen.sections > 0 && seen.whole > 0, JSON.stringify({ sections: seen.sections, whole: seen.whole }));
  for (const t of ['token_transfer', 'smart_contract', 'contract_call', 'coinbase', 'tenure_change']) assert.ok(seen.types.has(t), `a ${t} tx was checked`);
});
