import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePayload, MalformedPayload } from './validate-payload.ts';

// /new_mempool_tx's body is a list of raw txs, each `txHex`: 0x and whole bytes of hex.
test('raw txs are checked as 0x and whole bytes of hex: odd lengths and non-hex refused', () => {
  const body = (txs: string[]) => JSON.stringify(txs);
  for (const good of ['0x', '0x00', '0xAbCdEf01', `0x${'ab'.repeat(5000)}`]) assert.deepEqual(parsePayload('/new_mempool_tx', body([good])), [good]);
  for (const bad of ['0x0', '0xabc', '0xzz', 'abcd', '0x00 ', `0x${'ab'.repeat(5000)}a`]) {
    assert.throws(() => parsePayload('/new_mempool_tx', body([bad])), MalformedPayload, JSON.stringify(bad.slice(0, 12)));
  }
});
