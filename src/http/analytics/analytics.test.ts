// Every analytics answer equals a brute-force computation over the base tables, on recorded chains
// (the reorg and poison-microblock ones included): the answers are read from the running service,
// then the service stops and the same figures are computed from the canonical facts directly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fedService } from '../../testing/goldens.ts';
import { withStore } from '../../testing/store.ts';
import { BruteForce } from '../../testing/analytics-brute-force.ts';
import { networkOfPrincipal, type Unit } from '../../stacks/buckets.ts';
import { CHAIN_METRICS, TOP_BY, topContracts } from './queries.ts';
import { ANALYTICS_TEST_ENV as ENV, ANALYTICS_TEST_TOKEN as TOKEN, analyticsClient } from './test-client.ts';
// mocknet, mainnet-out-of-order-microblock and fuzzed-transactions-1 pass too; left out to keep CI
// under its 30 minutes.
const FIXTURES = ['mainnet-reorg-scenario2', 'poisonmicroblock', 'regtest-env-pox-4-stack-stx-in-reward-phase-S3'];

/** The answer lists every bucket with data in its range, each with the brute-force value (else 0). */
function assertSeries(name: string, answer: { from: number | null; to: number | null; results: Array<{ bucket: number }> }, expected: ReadonlyMap<number, string>, field = 'value'): void {
  for (const b of expected.keys()) assert.ok(answer.from !== null && answer.to !== null && b >= answer.from && b <= answer.to, `${name}: bucket ${b} with data is in the range`);
  for (const p of answer.results) assert.equal(String((p as Record<string, unknown>)[field]), expected.get(p.bucket) ?? '0', `${name} @${p.bucket}`);
}

for (const fixture of FIXTURES) {
  test(`analytics answers equal brute force over the base tables: ${fixture}`, async () => {
    const svc = await fedService(fixture, ENV);
    const api = analyticsClient(svc.apiUrl, TOKEN);
    let a: Awaited<ReturnType<typeof api.collect>>;
    try {
      a = await api.collect();
    } finally {
      await svc.stop();
    }
    await withStore(svc.dataDir, async (store) => {
      const bf = new BruteForce(store, a.network);
      const units: Unit[] = ['hour', 'day', 'cycle'];
      for (const metric of CHAIN_METRICS) {
        for (const unit of units) {
          const expected = await bf.chain(metric, unit);
          const answer = a.chain[`${metric}:${unit}`];
          assertSeries(`chain ${metric}/${unit}`, answer, expected.values);
          for (const p of answer.results) {
            if (expected.byType) assert.deepEqual(p.by_type, expected.byType.get(p.bucket) ?? {}, `txs by type @${p.bucket}`);
            if (expected.avg) assert.equal(p.avg_block_time, expected.avg.get(p.bucket) ?? null, `avg block time @${p.bucket}`);
          }
        }
      }
      const txTotal = [...(await bf.chain('txs', 'day')).values.values()].reduce((n, v) => n + BigInt(v), 0n);
      assert.ok(txTotal > 0n, 'the fixture has canonical txs');
      for (const by of TOP_BY) {
        assert.deepEqual(a.top[by].results, (await bf.topContracts(by)).slice(0, 200), `top contracts by ${by}`);
        // The answer covered the whole history (read from cycle rows): day rows give it too, as
        // a range over part of a longer history reads them (the fixtures span a day at most).
        if (a.top[by].from === null) continue;
        const r = { unit: 'day' as const, from: a.top[by].from!, to: a.top[by].to! };
        assert.deepEqual(await topContracts(store, by, r, 200, false), a.top[by].results, `top contracts by ${by} from day rows`);
      }
      for (const [id, c] of Object.entries(a.contracts)) {
        for (const unit of ['day', 'cycle'] as Unit[]) {
          for (const metric of ['calls', 'callers', 'fees']) assertSeries(`${id} ${metric}/${unit}`, c[`${metric}:${unit}`], await bf.contractSeries(id, metric, unit));
        }
        assert.deepEqual(c.functions.results, await bf.contractFunctions(id), `${id} functions`);
      }
      for (const [asset, t] of Object.entries(a.ft)) {
        for (const unit of ['day', 'cycle'] as Unit[]) {
          for (const metric of ['transfers', 'volume', 'mints', 'burns']) assertSeries(`${asset} ${metric}/${unit}`, t[`${metric}:${unit}`], await bf.tokenSeries('ft_events', asset, metric, unit));
          const changes = await bf.balanceChanges(asset, unit);
          const holders = t[`holders:${unit}`];
          for (const p of holders.results) assert.equal(p.value, String(BruteForce.holdersAt(changes, p.bucket)), `${asset} holders/${unit} @${p.bucket}`);
        }
        const balances = (await bf.balances(asset)).sort((x, y) => (x.balance === y.balance ? (x.principal < y.principal ? -1 : 1) : x.balance > y.balance ? -1 : 1));
        const d = t.distribution;
        assert.equal(d.holders, balances.length, `${asset} holders`);
        assert.equal(d.total_supply, balances.reduce((n, b) => n + b.balance, 0n).toString(), `${asset} supply`);
        assert.deepEqual(d.top_holders, balances.slice(0, 200).map((b) => ({ principal: b.principal, balance: b.balance.toString() })), `${asset} top holders`);
        const decades = new Map<number, number>();
        for (const b of balances) decades.set(b.balance.toString().length - 1, (decades.get(b.balance.toString().length - 1) ?? 0) + 1);
        assert.deepEqual(d.buckets.map((x) => [x.min_balance.length - 1, x.holders]), [...decades].sort((x, y) => x[0] - y[0]), `${asset} decades`);
        const asc = balances.map((b) => Number(b.balance)).sort((x, y) => x - y);
        const sum = asc.reduce((n, x) => n + x, 0);
        const gini = asc.length === 0 || sum === 0 ? null : (2 * asc.reduce((n, x, i) => n + (i + 1) * x, 0)) / (asc.length * sum) - (asc.length + 1) / asc.length;
        if (gini === null) assert.equal(d.gini, null);
        else assert.ok(Math.abs(d.gini! - gini) < 1e-9, `${asset} gini ${d.gini} vs ${gini}`);
      }
      for (const [asset, t] of Object.entries(a.nft)) {
        for (const unit of ['day', 'cycle'] as Unit[]) {
          for (const metric of ['transfers', 'mints', 'burns']) assertSeries(`${asset} ${metric}/${unit}`, t[`${metric}:${unit}`], await bf.tokenSeries('nft_events', asset, metric, unit));
        }
      }
      for (const f of a.flows) {
        for (const [side, dir] of [['inbound', 'in'], ['outbound', 'out']] as const) {
          const all = await bf.flows(f.principal, f.asset, dir);
          const answer = f.answer[side];
          assert.deepEqual(answer.top, all.slice(0, 200), `${f.principal} ${f.asset} ${side}`);
          assert.equal(answer.counterparties, all.length);
          assert.equal(answer.total_amount, all.reduce((n, x) => n + BigInt(x.amount), 0n).toString());
          assert.equal(answer.transfers, all.reduce((n, x) => n + BigInt(x.transfers), 0n).toString());
        }
      }
      for (const [p, byUnit] of Object.entries(a.principals)) {
        for (const unit of ['day', 'cycle'] as Unit[]) {
          const answer = byUnit[unit];
          const { txs, fees } = await bf.principalTxs(p, unit);
          assertSeries(`${p} txs/${unit}`, answer, txs, 'txs');
          assertSeries(`${p} fees/${unit}`, answer, fees, 'fees');
          assertSeries(`${p} stx in/${unit}`, answer, await bf.principalStx(p, unit, 'in'), 'stx_received');
          assertSeries(`${p} stx out/${unit}`, answer, await bf.principalStx(p, unit, 'out'), 'stx_sent');
          const changes = await bf.balanceChanges('stx', unit, p);
          for (const point of answer.results) {
            const expected = changes.filter((c) => Number(c.bucket) <= point.bucket).reduce((n, c) => n + BigInt(c.d), 0n);
            assert.equal(point.balance, expected.toString(), `${p} balance/${unit} @${point.bucket}`);
          }
        }
      }
      const cycles = await bf.poxCycles();
      for (const c of a.pox.results) {
        const { cycle, ...rest } = c;
        assert.deepEqual(rest, cycles.get(cycle) ?? { stacked_amount: null, signers: null, stackers: 0, btc_rewards: '0', reward_recipients: 0 }, `cycle ${cycle}`);
      }
      for (const [cycle, row] of cycles) {
        if (row.stackers || row.signers || row.btc_rewards !== '0') assert.ok(a.pox.results.some((c) => c.cycle === cycle), `cycle ${cycle} is listed: ${JSON.stringify(a.pox.results)} vs ${JSON.stringify([...cycles])}`);
      }
    });
  });
}

test('brute-force network detection matches the chain', () => {
  assert.equal(networkOfPrincipal('SP000000000000000000002Q6VF78'), 'mainnet');
  assert.equal(networkOfPrincipal('ST000000000000000000002AMW42H'), 'testnet');
});
