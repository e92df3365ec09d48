// Brute-force answers for the analytics tests: each computed straight from the base fact tables
// (txs, events, contracts, principal_balance_changes, blocks) filtered to the canonical chain through the
// overlay tables, without the aggregates — what the analytics answers must equal.
import type { Store } from '../storage/client.ts';
import { POX_PARAMS, type Network, type Unit } from '../stacks/buckets.ts';

const q = async <T>(store: Store, query: string, params: Record<string, unknown> = {}): Promise<T[]> =>
  (await store.client.query({ query, query_params: params, format: 'JSONEachRow' })).json<T>();

/** Canonical blocks with their time and burn height. */
const CANON = `(SELECT index_block_hash, any(block_time) AS block_time, any(burn_block_height) AS burn_block_height, any(block_height) AS block_height,
  any(parent_index_block_hash) AS parent FROM blocks WHERE index_block_hash IN (SELECT index_block_hash FROM block_canonical FINAL WHERE canonical = 1) GROUP BY index_block_hash)`;

/** Rows of a placed table on the canonical chain (a microblock's only while accepted by that block). */
const placed = (table: string, key: string) => `(SELECT * FROM ${table}
  WHERE microblock_hash = '' OR (microblock_hash, index_block_hash) IN (SELECT microblock_hash, index_block_hash FROM microblock_canonical FINAL WHERE canonical = 1)
  LIMIT 1 BY ${key})`;
const TXS = placed('txs', 'tx_id, index_block_hash, microblock_hash');
const ev = (t: string) => placed(t, 'tx_id, index_block_hash, microblock_hash, event_index');

export class BruteForce {
  constructor(
    private readonly store: Store,
    private readonly network: Network,
  ) {}

  private bucket(unit: Unit): string {
    if (unit === 'hour') return 'intDiv(k.block_time, 3600) * 3600';
    if (unit === 'day') return 'intDiv(k.block_time, 86400) * 86400';
    const p = POX_PARAMS[this.network];
    return `if(k.burn_block_height < ${p.firstBurnHeight}, 0, intDiv(k.burn_block_height - ${p.firstBurnHeight}, ${p.cycleLength}))`;
  }

  /** bucket -> value of a query selecting (bucket, v). */
  private async map(sql: string, params: Record<string, unknown> = {}): Promise<Map<number, string>> {
    const list = await q<{ bucket: number; v: string }>(this.store, sql, params);
    return new Map(list.filter((r) => r.v !== '0').map((r) => [Number(r.bucket), String(r.v)]));
  }

  /** Chain metric per bucket (txs: also by type; blocks: also the mean gap). */
  async chain(metric: string, unit: Unit): Promise<{ values: Map<number, string>; byType?: Map<number, Record<string, string>>; avg?: Map<number, number | null> }> {
    const b = this.bucket(unit);
    const txs = (v: string, where = '1') => this.map(`SELECT ${b} AS bucket, toString(${v}) AS v FROM ${TXS} AS t INNER JOIN ${CANON} AS k USING index_block_hash WHERE ${where} GROUP BY bucket`);
    switch (metric) {
      case 'txs': {
        const list = await q<{ bucket: number; type_id: string; v: string }>(
          this.store,
          `SELECT ${b} AS bucket, type_id, toString(count()) AS v FROM ${TXS} AS t INNER JOIN ${CANON} AS k USING index_block_hash GROUP BY bucket, type_id`,
        );
        const values = new Map<number, string>();
        const byType = new Map<number, Record<string, string>>();
        for (const r of list) {
          const k = Number(r.bucket);
          values.set(k, (BigInt(values.get(k) ?? '0') + BigInt(r.v)).toString());
          byType.set(k, { ...(byType.get(k) ?? {}), [r.type_id]: r.v });
        }
        return { values, byType };
      }
      case 'fees':
        return { values: await txs('sum(fee_rate)') };
      case 'failed_txs':
        return { values: await txs('count()', "status != 'success'") };
      case 'microblock_txs':
        return { values: await txs('count()', "microblock_hash != ''") };
      case 'active_senders':
        return { values: await txs('uniqExact(sender_address)', "sender_address != ''") };
      case 'new_contracts':
        return {
          values: await this.map(`SELECT ${b} AS bucket, toString(count()) AS v FROM ${placed('contracts', 'contract_id, index_block_hash, microblock_hash')} AS c
            INNER JOIN ${CANON} AS k USING index_block_hash
            WHERE (c.tx_id, c.index_block_hash, c.microblock_hash) IN (SELECT tx_id, index_block_hash, microblock_hash FROM txs WHERE status = 'success') GROUP BY bucket`),
        };
      case 'stx_transferred':
        return { values: await this.map(`SELECT ${b} AS bucket, toString(sum(amount)) AS v FROM ${ev('stx_events')} AS e INNER JOIN ${CANON} AS k USING index_block_hash WHERE asset_event_type = 'transfer' GROUP BY bucket`) };
      case 'blocks': {
        const list = await q<{ bucket: number; n: string; gap: string; gaps: string }>(
          this.store,
          `SELECT ${b} AS bucket, toString(count()) AS n, toString(sumIf(toInt64(k.block_time) - toInt64(p.block_time), p.index_block_hash != '' AND k.block_height > 1)) AS gap,
                  toString(countIf(p.index_block_hash != '' AND k.block_height > 1)) AS gaps
           FROM ${CANON} AS k LEFT JOIN (SELECT index_block_hash, any(block_time) AS block_time FROM blocks GROUP BY index_block_hash) AS p ON p.index_block_hash = k.parent
           GROUP BY bucket SETTINGS join_use_nulls = 0`,
        );
        return {
          values: new Map(list.map((r) => [Number(r.bucket), r.n])),
          avg: new Map(list.map((r) => [Number(r.bucket), Number(r.gaps) > 0 ? Number(r.gap) / Number(r.gaps) : null])),
        };
      }
    }
    throw new Error(`no brute force for ${metric}`);
  }

  /** All contracts by calls / fees / unique callers / print events, ordered as the endpoint orders them. */
  async topContracts(by: string): Promise<Array<{ contract_id: string; value: string }>> {
    const calls = `FROM ${TXS} AS t INNER JOIN ${CANON} AS k USING index_block_hash WHERE type_id = 'contract_call' GROUP BY contract_id`;
    const sql: Record<string, string> = {
      calls: `SELECT contract_id, toString(count()) AS value, count() AS o ${calls}`,
      fees: `SELECT contract_id, toString(sum(fee_rate)) AS value, sum(fee_rate) AS o ${calls}`,
      unique_callers: `SELECT contract_id, toString(uniqExact(sender_address)) AS value, uniqExact(sender_address) AS o ${calls}`,
      events: `SELECT contract_identifier AS contract_id, toString(count()) AS value, count() AS o FROM ${ev('contract_logs')} AS e INNER JOIN ${CANON} AS k USING index_block_hash GROUP BY contract_identifier`,
    };
    return (await q<{ contract_id: string; value: string }>(this.store, `SELECT contract_id, value FROM (${sql[by]}) ORDER BY o DESC, contract_id`)).map(({ contract_id, value }) => ({ contract_id, value }));
  }

  async contractSeries(contract: string, metric: string, unit: Unit): Promise<Map<number, string>> {
    const v = metric === 'calls' ? 'count()' : metric === 'fees' ? 'sum(fee_rate)' : 'uniqExact(sender_address)';
    return this.map(
      `SELECT ${this.bucket(unit)} AS bucket, toString(${v}) AS v FROM ${TXS} AS t INNER JOIN ${CANON} AS k USING index_block_hash
       WHERE type_id = 'contract_call' AND contract_id = {c:String} GROUP BY bucket`,
      { c: contract },
    );
  }

  async contractFunctions(contract: string): Promise<Array<{ function_name: string; calls: string; fees: string }>> {
    return q(
      this.store,
      `SELECT function_name, toString(count()) AS calls, toString(sum(fee_rate)) AS fees FROM ${TXS} AS t INNER JOIN ${CANON} AS k USING index_block_hash
       WHERE type_id = 'contract_call' AND contract_id = {c:String} GROUP BY function_name ORDER BY count() DESC, function_name`,
      { c: contract },
    );
  }

  /** FT / NFT event series: transfers, volume, mints, burns. */
  async tokenSeries(table: 'ft_events' | 'nft_events', asset: string, metric: string, unit: Unit): Promise<Map<number, string>> {
    const type = { transfers: 'transfer', volume: 'transfer', mints: 'mint', burns: 'burn' }[metric];
    const v = metric === 'volume' ? 'sum(amount)' : 'count()';
    return this.map(
      `SELECT ${this.bucket(unit)} AS bucket, toString(${v}) AS v FROM ${ev(table)} AS e INNER JOIN ${CANON} AS k USING index_block_hash
       WHERE asset_identifier = {a:String} AND asset_event_type = {t:String} GROUP BY bucket`,
      { a: asset, t: type },
    );
  }

  /** Per principal, its balance change of an asset per bucket (canonical blocks' principal_balance_changes). */
  async balanceChanges(asset: string, unit: Unit, principal?: string): Promise<Array<{ principal: string; bucket: number; d: string }>> {
    return q(
      this.store,
      `SELECT principal, ${this.bucket(unit)} AS bucket, toString(sum(balance)) AS d
       FROM (SELECT * FROM principal_balance_changes LIMIT 1 BY index_block_hash, principal, asset) AS c INNER JOIN ${CANON} AS k USING index_block_hash
       WHERE asset = {a:String} ${principal ? 'AND principal = {p:String}' : ''} GROUP BY principal, bucket ORDER BY bucket`,
      { a: asset, p: principal ?? '' },
    );
  }

  /** Holders at the end of `bucket`: principals whose summed changes up to it are positive. */
  static holdersAt(changes: ReadonlyArray<{ principal: string; bucket: number; d: string }>, bucket: number): number {
    const bal = new Map<string, bigint>();
    for (const c of changes) if (Number(c.bucket) <= bucket) bal.set(c.principal, (bal.get(c.principal) ?? 0n) + BigInt(c.d));
    return [...bal.values()].filter((b) => b > 0n).length;
  }

  /** Transfers of an asset to (in) or from (out) a principal, per counterparty. */
  async flows(principal: string, asset: string, dir: 'in' | 'out'): Promise<Array<{ principal: string; amount: string; transfers: string }>> {
    const table = asset === 'stx' ? ev('stx_events') : ev('ft_events');
    const [self, other] = dir === 'in' ? ['recipient', 'sender'] : ['sender', 'recipient'];
    const list = await q<{ who: string; total: string; count: string }>(
      this.store,
      `SELECT ${other} AS who, toString(sum(amount)) AS total, toString(count()) AS count FROM ${table} AS e INNER JOIN ${CANON} AS k USING index_block_hash
       WHERE asset_event_type = 'transfer' AND ${self} = {p:String} ${asset === 'stx' ? '' : 'AND asset_identifier = {a:String}'}
       GROUP BY ${other} ORDER BY sum(amount) DESC, who`,
      { p: principal, a: asset },
    );
    return list.map((r) => ({ principal: r.who, amount: r.total, transfers: r.count }));
  }

  /** A principal's txs sent and fees paid per bucket. */
  async principalTxs(principal: string, unit: Unit): Promise<{ txs: Map<number, string>; fees: Map<number, string> }> {
    const b = this.bucket(unit);
    const base = `FROM ${TXS} AS t INNER JOIN ${CANON} AS k USING index_block_hash`;
    return {
      txs: await this.map(`SELECT ${b} AS bucket, toString(count()) AS v ${base} WHERE sender_address = {p:String} GROUP BY bucket`, { p: principal }),
      fees: await this.map(`SELECT ${b} AS bucket, toString(sum(fee_rate)) AS v ${base} WHERE if(sponsor_address != '', sponsor_address, sender_address) = {p:String} GROUP BY bucket`, { p: principal }),
    };
  }

  async principalStx(principal: string, unit: Unit, dir: 'in' | 'out'): Promise<Map<number, string>> {
    return this.map(
      `SELECT ${this.bucket(unit)} AS bucket, toString(sum(amount)) AS v FROM ${ev('stx_events')} AS e INNER JOIN ${CANON} AS k USING index_block_hash
       WHERE asset_event_type = 'transfer' AND ${dir === 'in' ? 'recipient' : 'sender'} = {p:String} GROUP BY bucket`,
      { p: principal },
    );
  }

  /** Current positive balances of an asset, from the canonical blocks' balance changes. */
  async balances(asset: string): Promise<Array<{ principal: string; balance: bigint }>> {
    const list = await q<{ principal: string; b: string }>(
      this.store,
      `SELECT principal, toString(sum(balance)) AS b FROM (SELECT * FROM principal_balance_changes LIMIT 1 BY index_block_hash, principal, asset) AS c
       WHERE asset = {a:String} AND index_block_hash IN (SELECT index_block_hash FROM ${CANON}) GROUP BY principal`,
      { a: asset },
    );
    return list.map((r) => ({ principal: r.principal, balance: BigInt(r.b) })).filter((r) => r.balance > 0n);
  }

  /** Per cycle: the canonical reward set (from the blocks' payload JSON), stackers from the pox prints' data, BTC rewards. */
  async poxCycles(): Promise<Map<number, { stacked_amount: string | null; signers: number | null; stackers: number; btc_rewards: string; reward_recipients: number }>> {
    const p = POX_PARAMS[this.network];
    const out = new Map<number, { stacked_amount: string | null; signers: number | null; stackers: number; btc_rewards: string; reward_recipients: number }>();
    const at = (c: number) => out.get(c) ?? out.set(c, { stacked_amount: null, signers: null, stackers: 0, btc_rewards: '0', reward_recipients: 0 }).get(c)!;
    const sets = await q<{ c: number; s: string; n: string }>(
      this.store,
      `SELECT assumeNotNull(cycle_number) AS c, toString(sum(toUInt128(JSONExtractString(j, 'stacked_amt')))) AS s, count() AS n
       FROM (SELECT cycle_number, arrayJoin(JSONExtractArrayRaw(assumeNotNull(reward_set), 'signers')) AS j FROM blocks
             WHERE reward_set IS NOT NULL AND cycle_number IS NOT NULL AND index_block_hash IN (SELECT index_block_hash FROM ${CANON}) LIMIT 1 BY index_block_hash, j)
       GROUP BY c`,
    );
    for (const s of sets) Object.assign(at(Number(s.c)), { stacked_amount: s.s, signers: Number(s.n) });
    const locks = await q<{ stacker: string; s: string; e: string }>(
      this.store,
      `SELECT stacker, JSONExtractString(data, 'start-cycle-id') AS s, JSONExtractString(data, 'end-cycle-id') AS e
       FROM (SELECT * FROM pox_events LIMIT 1 BY pox_version, block_height, tx_index, event_index, index_block_hash, microblock_hash)
       WHERE index_block_hash IN (SELECT index_block_hash FROM ${CANON})
         AND name IN ('stack-stx', 'stack-extend', 'stack-increase', 'delegate-stack-stx', 'delegate-stack-extend', 'delegate-stack-increase')`,
    );
    const stackers = new Map<number, Set<string>>();
    for (const l of locks) {
      const s = Number(l.s || 0);
      const e = Number(l.e || 0);
      for (let c = s; c < e && c < s + 1000; c++) (stackers.get(c) ?? stackers.set(c, new Set()).get(c)!).add(l.stacker);
    }
    for (const [c, set] of stackers) at(c).stackers = set.size;
    const rewards = await q<{ h: number; hash: string; amount: string; recipient: string }>(
      this.store,
      `SELECT burn_block_height AS h, burn_block_hash AS hash, toString(reward_amount) AS amount, reward_recipient AS recipient
       FROM (SELECT * FROM burn_rewards LIMIT 1 BY burn_block_height, burn_block_hash, reward_index)`,
    );
    const newest = new Map((await q<{ h: number; hash: string }>(this.store, `SELECT burn_block_height AS h, argMax(burn_block_hash, log_id) AS hash FROM burn_blocks GROUP BY h`)).map((r) => [Number(r.h), r.hash]));
    const recipients = new Map<number, Set<string>>();
    for (const r of rewards) {
      if (newest.get(Number(r.h)) !== r.hash || Number(r.h) < p.firstBurnHeight) continue;
      const c = Math.floor((Number(r.h) - p.firstBurnHeight) / p.cycleLength);
      const row = at(c);
      row.btc_rewards = (BigInt(row.btc_rewards) + BigInt(r.amount)).toString();
      (recipients.get(c) ?? recipients.set(c, new Set()).get(c)!).add(r.recipient);
    }
    for (const [c, set] of recipients) at(c).reward_recipients = set.size;
    return out;
  }
}
