// A block's analytics changes as the decode worker sends them: amounts are numbers while exact and
// decimal strings beyond, and both sum to what the events moved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyticsChanges, changeKey } from './analytics-changes.ts';

test('amounts within ±(2^53 - 1) are numbers, larger ones decimal strings, both exact', () => {
  const big = '123456789012345678901234567890';
  const captured = new Map<string, Array<Record<string, unknown>>>([
    ['stx_events', [{ asset_event_type: 'transfer', amount: '5', sender: 'SPA', recipient: 'SPB' }, { asset_event_type: 'transfer', amount: String(Number.MAX_SAFE_INTEGER), sender: 'SPA', recipient: 'SPC' }]],
    ['ft_events', [{ asset_identifier: 'SPT.tok::t', asset_event_type: 'transfer', amount: big, sender: 'SPA', recipient: 'SPB' }]],
  ]);
  const c = analyticsChanges(captured, [{ principal: 'SPA', asset: 'stx', balance: '-9007199254740996', total_sent: '0', total_received: '0', total_fees_sent: '0', total_miner_rewards: '0' }]);
  const amountOf = (key: string) => c.amounts[c.keys.indexOf(key)];
  assert.equal(amountOf(changeKey('flow_out', 'SPA', 'stx', 'SPB')), 5);
  assert.equal(amountOf(changeKey('flow_out', 'SPA', 'stx', 'SPC')), Number.MAX_SAFE_INTEGER);
  // Their sum passes 2^53: a string, exact.
  assert.equal(amountOf(changeKey('stx_xfer', '', '', '')), (BigInt(Number.MAX_SAFE_INTEGER) + 5n).toString());
  assert.equal(amountOf(changeKey('flow_in', 'SPB', 'SPT.tok::t', 'SPA')), big);
  assert.equal(amountOf(changeKey('pbal', 'SPA', 'stx', '')), '-9007199254740996');
  assert.ok(c.amounts.every((a) => (typeof a === 'number' ? Number.isSafeInteger(a) : BigInt(a) > BigInt(Number.MAX_SAFE_INTEGER) || BigInt(a) < -BigInt(Number.MAX_SAFE_INTEGER))), 'no string where a number is exact');
});
