// Bad input to the Rosetta family is a 4xx Mesh Error, never a 5xx: malformed JSON, wrong types,
// out-of-range heights and amounts, bad hashes, keys and transactions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startService } from '../../testing/service.ts';
import { responseProblems } from '../../testing/rosetta-mesh-check.ts';

const net = { blockchain: 'stacks', network: 'testnet' };
const A = 'ST1THWXQ8368SDN2MJGE4BMDKMCHZ2GSVTSQDA7QF';
const KEY = { hex_bytes: '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798', curve_type: 'secp256k1' };
const stx = (value: string) => ({ value, currency: { symbol: 'STX', decimals: 6 } });
const transfer = (fee: string, amount: string) => [
  { operation_identifier: { index: 0 }, type: 'fee', account: { address: A }, amount: stx(`-${fee}`) },
  { operation_identifier: { index: 1 }, type: 'token_transfer', account: { address: A }, amount: stx(`-${amount}`) },
  { operation_identifier: { index: 2 }, type: 'token_transfer', account: { address: A }, amount: stx(amount) },
];

const CASES: Array<[string, unknown]> = [
  ['/block', 'not json'],
  ['/block', [1, 2]],
  ['/block', { network_identifier: net, block_identifier: { index: 1e15 } }],
  ['/block', { network_identifier: net, block_identifier: { index: 1.5 } }],
  ['/block', { network_identifier: net, block_identifier: { hash: 'zz' } }],
  ['/block', { network_identifier: net, block_identifier: null }],
  ['/block', { network_identifier: { blockchain: 5, network: 'testnet' }, block_identifier: {} }],
  ['/block/transaction', { network_identifier: net, block_identifier: { index: 2 }, transaction_identifier: { hash: '00'.repeat(32) } }],
  ['/account/balance', { network_identifier: net, account_identifier: { address: A }, block_identifier: { index: 1e15 } }],
  ['/account/balance', { network_identifier: net, account_identifier: { address: A }, block_identifier: { hash: '11'.repeat(32) } }],
  ['/mempool/transaction', { network_identifier: net, transaction_identifier: { hash: 'x' } }],
  ['/network/status', { network_identifier: net }],
  ['/construction/derive', { network_identifier: net, public_key: { hex_bytes: `04${'00'.repeat(64)}`, curve_type: 'secp256k1' } }],
  ['/construction/preprocess', { network_identifier: net, operations: transfer('1', `1${'0'.repeat(40)}`) }],
  ['/construction/payloads', { network_identifier: net, operations: transfer('9'.repeat(30), '5'), metadata: { account_sequence: 1 }, public_keys: [KEY] }],
  ['/construction/payloads', { network_identifier: net, operations: transfer('5', '9'.repeat(30)), metadata: { account_sequence: 1 }, public_keys: [KEY] }],
  ['/construction/payloads', { network_identifier: net, operations: transfer('5', '5'), metadata: { account_sequence: 1e30 }, public_keys: [KEY] }],
  ['/construction/metadata', { network_identifier: net, options: { type: 'token_transfer', sender_address: A, token_transfer_recipient_address: A, symbol: 'STX', decimals: 6, amount: '9'.repeat(30), size: 180 } }],
  ['/construction/combine', { network_identifier: net, unsigned_transaction: 'zz', signatures: [] }],
  ['/construction/parse', { network_identifier: net, signed: false, transaction: '0x' }],
  ['/construction/hash', { network_identifier: net, signed_transaction: '0x80' }],
];

test('bad Rosetta input gets a 4xx Mesh Error', async () => {
  const svc = await startService({ env: { STACKS_CHAIN_ID: '0x80000000', STACKS_CORE_RPC_PORT: '1' } });
  try {
    const wrong: string[] = [];
    for (const [path, body] of CASES) {
      const r = await fetch(`${svc.apiUrl}/rosetta/v1${path}`, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
      const answer = await r.json();
      if (r.status < 400 || r.status >= 500) wrong.push(`${path} ${JSON.stringify(body).slice(0, 80)}: ${r.status} ${JSON.stringify(answer).slice(0, 120)}`);
      wrong.push(...responseProblems(`/rosetta/v1${path}`, r.status, answer));
    }
    assert.deepEqual(wrong, []);
  } finally {
    await svc.stop();
  }
});
