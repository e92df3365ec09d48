// Our rendering vs the reference API's recorded answers (shared/goldens): every transaction object in
// every golden body (tx, lists, address history, mempool, search …) is re-rendered from the fixture's
// raw_tx / raw_result and compared field by field; every {hex, repr} pair anywhere is re-rendered from
// its hex; every contract `abi` string is re-rendered from the deploy's ABI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixtures, goldenNames, loadGoldens, type FixtureTx } from '../../testing/stacks/fixtures.ts';
import { decodeTransaction, type DecodedTransaction } from './transaction.ts';
import { formatTransaction, formatPostCondition, formatFunctionArgs, formatClarityHexRepr, type ApiTxFields } from './api-format.ts';
import { clarityHexRepr, decodeClarity } from './clarity.ts';
import { renderAbiJson, abiFunctionSignature, abiTypeString, type ClarityAbi } from './abi.ts';

/** The fields of a tx body that come from the tx bytes (listed in the brief) plus the payload object. */
const TX_FIELDS = ['tx_id', 'nonce', 'sponsor_nonce', 'fee_rate', 'sender_address', 'sponsored', 'sponsor_address', 'post_condition_mode', 'post_conditions', 'anchor_mode', 'tx_type'] as const;
const PAYLOAD_KEYS = ['token_transfer', 'smart_contract', 'contract_call', 'poison_microblock', 'coinbase_payload', 'tenure_change_payload'] as const;

/** A deep copy with every object's keys in reverse order (the node's order is not jsonb's). */
function reverseKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reverseKeys(x)]));
  return v;
}

interface FixtureIndex {
  byTxId: Map<string, { decoded: DecodedTransaction; tx: FixtureTx }>;
  abiByContract: Map<string, ClarityAbi>;
  /** txids of burnchain operations (raw_tx "0x00"): the reference synthesises their tx bodies. */
  burnOps: Set<string>;
  /** Every event raw_value the node sent. */
  rawValues: Set<string>;
}

function indexFixture(name: string): FixtureIndex {
  const fixture = loadFixtures().find((f) => f.name === name);
  assert.ok(fixture, `fixture ${name} exists`);
  const byTxId = new Map<string, { decoded: DecodedTransaction; tx: FixtureTx }>();
  const abiByContract = new Map<string, ClarityAbi>();
  const burnOps = new Set<string>();
  for (const tx of fixture.txs) {
    if (tx.rawTx === '0x00') {
      if (tx.txid) burnOps.add(tx.txid);
      continue;
    }
    const decoded = decodeTransaction(tx.rawTx);
    // block entries (with raw_result) win over mempool copies of the same tx
    const prev = byTxId.get(decoded.txId);
    if (!prev || (!prev.tx.rawResult && tx.rawResult)) byTxId.set(decoded.txId, { decoded, tx });
    const p = decoded.payload;
    if ((p.type === 'smart_contract' || p.type === 'versioned_smart_contract') && tx.abi) {
      abiByContract.set(`${decoded.senderAddress}.${p.contractName}`, tx.abi as ClarityAbi);
    }
  }
  return { byTxId, abiByContract, burnOps, rawValues: new Set(fixture.events.map((e) => e.rawValue)) };
}

function* walk(node: unknown): Generator<Record<string, any>> {
  if (Array.isArray(node)) for (const x of node) yield* walk(x);
  else if (node && typeof node === 'object') {
    yield node as Record<string, any>;
    for (const v of Object.values(node)) yield* walk(v);
  }
}

const isTxBody = (o: Record<string, any>) => typeof o.tx_id === 'string' && typeof o.tx_type === 'string' && 'anchor_mode' in o;

interface Counts {
  txBodies: number;
  distinctTxs: Set<string>;
  txResults: number;
  hexRepr: number;
  functionArgs: number;
  abis: number;
  eventValues: number;
}

const totals: Counts = { txBodies: 0, distinctTxs: new Set(), txResults: 0, hexRepr: 0, functionArgs: 0, abis: 0, eventValues: 0 };

for (const name of goldenNames()) {
  test(`goldens: ${name}`, () => {
    const idx = indexFixture(name);
    const mismatches: string[] = [];
    const fail = (url: string, what: string, ours: unknown, theirs: unknown) => {
      if (mismatches.length < 20) mismatches.push(`${url} ${what}: ours ${JSON.stringify(ours)?.slice(0, 300)} vs golden ${JSON.stringify(theirs)?.slice(0, 300)}`);
      else mismatches.push('');
    };
    const same = (a: unknown, b: unknown) => {
      try {
        assert.deepStrictEqual(a, b);
        return true;
      } catch {
        return false;
      }
    };
    let txBodies = 0;
    for (const line of loadGoldens(name)) {
      if (line.status !== 200) continue;
      for (const o of walk(line.body)) {
        // every rendered Clarity value
        if (typeof o.hex === 'string' && typeof o.repr === 'string') {
          totals.hexRepr++;
          const ours = formatClarityHexRepr(o.hex);
          if (ours.repr !== o.repr || ours.hex !== o.hex) fail(line.url, 'hex/repr', ours, { hex: o.hex, repr: o.repr });
          if (typeof o.type === 'string' && o.name === '' && decodeClarity(o.hex).type_signature !== o.type) {
            fail(line.url, 'arg type', decodeClarity(o.hex).type_signature, o.type);
          }
        }
        // contract_log / nft event values must be the node's raw_value rendered
        // contract_log / NFT event values: the node's raw_value, rendered (repr checked above)
        const eventValue = o.contract_log?.value ?? (o.event_type === 'non_fungible_token_asset' ? o.asset?.value : undefined);
        if (eventValue) {
          totals.eventValues++;
          if (!idx.rawValues.has(eventValue.hex)) fail(line.url, 'event value not among the fixture raw_values', eventValue.hex, eventValue.repr);
        }
        if (typeof o.abi === 'string' && typeof o.contract_id === 'string') {
          const abi = idx.abiByContract.get(o.contract_id);
          if (abi) {
            totals.abis++;
            const ours = renderAbiJson(abi);
            if (ours !== o.abi) fail(line.url, 'abi', ours, o.abi);
            // the fixtures were dumped from jsonb already; key order must not depend on the input's
            if (renderAbiJson(reverseKeys(abi)) !== o.abi) fail(line.url, 'abi from reordered keys', renderAbiJson(reverseKeys(abi)), o.abi);
          }
        }
        if (!isTxBody(o)) continue;
        const entry = idx.byTxId.get(o.tx_id);
        if (!entry) {
          // only burnchain ops (no raw_tx in the fixture) may lack bytes to compare
          if (!idx.burnOps.has(o.tx_id)) fail(line.url, `${o.tx_id}`, 'no raw_tx in the fixture', o.tx_type);
          continue;
        }
        txBodies++;
        totals.distinctTxs.add(`${name}:${o.tx_id}`);
        const cc = entry.decoded.payload.type === 'contract_call' ? entry.decoded.payload : undefined;
        // the reference's /extended/v2 tx lists do not join the ABI: signature '' and unnamed args there
        const abi = cc && !line.url.startsWith('/extended/v2/') ? idx.abiByContract.get(`${cc.contractAddress}.${cc.contractName}`) : undefined;
        const ours = formatTransaction(entry.decoded, { abi, excludeFunctionArgs: o.contract_call !== undefined && !('function_args' in o.contract_call) }) as ApiTxFields & Record<string, unknown>;
        for (const k of TX_FIELDS) {
          if (!same(ours[k], o[k])) fail(line.url, `${o.tx_id} ${k}`, ours[k], o[k]);
        }
        for (const k of PAYLOAD_KEYS) {
          if (k in o || k in ours) {
            if (!same(ours[k], o[k])) fail(line.url, `${o.tx_id} ${k}`, ours[k], o[k]);
            if (k === 'contract_call' && o[k]?.function_args) totals.functionArgs += o[k].function_args.length;
          }
        }
        if (o.tx_result && entry.tx.rawResult) {
          totals.txResults++;
          const r = formatClarityHexRepr(entry.tx.rawResult);
          if (!same(r, o.tx_result)) fail(line.url, `${o.tx_id} tx_result`, r, o.tx_result);
        }
      }
    }
    totals.txBodies += txBodies;
    assert.ok(txBodies > 0, `${name}: compared no transaction bodies`);
    assert.equal(mismatches.length, 0, `${name}: ${mismatches.length} mismatches\n${mismatches.filter(Boolean).join('\n')}`);
  });
}

test('goldens: summary', () => {
  console.log(
    `goldens compared: ${totals.txBodies} tx bodies (${totals.distinctTxs.size} distinct fixture txs), ${totals.txResults} tx_results, ` +
      `${totals.hexRepr} {hex, repr} values (${totals.eventValues} event values), ${totals.functionArgs} function args, ${totals.abis} abi strings`,
  );
  assert.ok(totals.distinctTxs.size >= 200, 'expected to compare at least 200 distinct transactions');
  assert.ok(totals.hexRepr > 1000);
  assert.ok(totals.abis > 0);
});

test('post-condition and function-arg rendering of shapes the goldens lack', () => {
  assert.deepEqual(formatPostCondition({ type: 'pox', principal: { type: 'origin' }, conditionCode: 0x31 }), {
    principal: { type_id: 'principal_origin' },
    condition_code: 'maybe_performed',
    type: 'pox',
  });
  assert.deepEqual(formatPostCondition({ type: 'staking', principal: { type: 'origin' }, conditionCode: 0x05, amount: 7n }), {
    principal: { type_id: 'principal_origin' },
    condition_code: 'sent_less_than_or_equal_to',
    amount: '7',
    type: 'staking',
  });
  const fn = { name: 'f', access: 'read_only', args: [{ name: 'a', type: { list: { type: { tuple: [{ name: 'x', type: 'int128' }] }, length: 3 } } }] } as const;
  assert.equal(abiFunctionSignature(fn as never), '(define-read-only (f (a (list 3 (tuple (x int))))))');
  assert.equal(abiTypeString({ response: { ok: 'bool', error: { 'string-utf8': { length: 5 } } } }), '(response bool (string-utf8 5))');
  assert.deepEqual(formatFunctionArgs(['0x0100000000000000000000000000000001']), [{ hex: '0x0100000000000000000000000000000001', repr: 'u1', name: '', type: 'uint' }]);
  assert.equal(renderAbiJson({ functions: [], maps: [{ value: 1, name: 'm', key: 'k' }] }), '{"maps":[{"key":"k","name":"m","value":1}],"functions":[]}');
  assert.deepEqual(clarityHexRepr('0X0703'), { hex: '0x0703', repr: '(ok true)' });
});
