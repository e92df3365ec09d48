// The construction flow end to end against the service, a loopback HTTP server standing in for the
// Stacks node: derive -> preprocess -> metadata -> payloads, the payload signed with
// @stacks/transactions, combine -> parse -> hash -> submit, for a token transfer, a PoX-4 stack-stx
// and a delegate-stx. The node must receive bytes that @stacks/transactions decodes to the intended
// tx with a valid origin signature, and /construction/hash must equal their txid. Every request and
// answer is checked against the Mesh schemas.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  addressToString,
  Cl,
  deserializeTransaction,
  getAddressFromPublicKey,
  makeUnsignedSTXTokenTransfer,
  privateKeyToPublic,
  randomPrivateKey,
  serializeCV,
  signMessageHashRsv,
  type StacksTransactionWire,
} from '@stacks/transactions';
import { startService, waitForProcessing, type RunningService } from '../../testing/service.ts';
import { feedFixture } from '../../testing/goldens.ts';
import { startNode, type FakeNode, type Hit } from '../proxy/test-support.ts';
import { rosettaPost } from '../../testing/rosetta-mesh-check.ts';

const network_identifier = { blockchain: 'stacks', network: 'testnet' };
const STX = { symbol: 'STX', decimals: 6 };
const NONCE = 7;
const ESTIMATE = 250;
const BURN_HEIGHT = 120;
const MOCKNET_TIP = '0x7682af212d3c1ef62613412f9b5a727269b4548f14eca2e3f941f7ad8b3c11b2';

let node: FakeNode;
let svc: RunningService;
const problems: string[] = [];
const broadcasts: Buffer[] = [];
let rejectBroadcasts = false;

function standIn(hit: Hit, _req: unknown, res: import('node:http').ServerResponse): boolean {
  const reply = (body: unknown, status = 200) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };
  if (hit.method === 'GET' && hit.url.startsWith('/v2/accounts/')) reply({ balance: '0x0', locked: '0x0', nonce: NONCE });
  else if (hit.method === 'GET' && hit.url === '/v2/neighbors') reply({ sample: [], inbound: [{ public_key_hash: 'aa'.repeat(20) }], outbound: [{ public_key_hash: 'aa'.repeat(20) }, { public_key_hash: 'bb'.repeat(20) }] });
  else if (hit.method === 'GET' && hit.url === '/v2/pox') reply({ contract_id: 'ST000000000000000000002AMW42H.pox-4', current_burnchain_block_height: BURN_HEIGHT, current_cycle: { id: 5 } });
  else if (hit.method === 'POST' && hit.url === '/v2/fees/transaction') reply({ estimations: [{ fee: 180 }, { fee: ESTIMATE }, { fee: 400 }] });
  else if (hit.method === 'POST' && hit.url === '/v2/transactions') {
    const txid = deserializeTransaction(hit.body).txid();
    if (rejectBroadcasts) reply({ error: 'transaction rejected', reason: 'BadNonce', txid }, 400);
    else {
      broadcasts.push(hit.body);
      reply(txid);
    }
  } else return false;
  return true;
}

before(async () => {
  node = await startNode('stand-in', { handler: standIn });
  svc = await startService({ env: { STACKS_CHAIN_ID: '0x80000000', STACKS_CORE_RPC_HOST: '127.0.0.1', STACKS_CORE_RPC_PORT: String(node.port), STACKS_CORE_PROXY_HEALTH_INTERVAL_MS: '200' } });
  // A chain to stand on (recent_block_hash, network status): the mocknet log (testnet).
  await feedFixture(svc.eventUrl, 'mocknet');
  await waitForProcessing(svc.apiUrl);
});

after(async () => {
  await svc?.stop();
  await node?.stop();
});

const post = async (path: string, body: Record<string, unknown>) => {
  const r = await rosettaPost<Record<string, any>>(svc.apiUrl, `/rosetta/v1/construction/${path}`, { network_identifier, ...body }, problems);
  assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
  return r.body;
};

interface Flow {
  signed: StacksTransactionWire;
  received: StacksTransactionWire;
  metadata: Record<string, any>;
  unsignedHex: string;
  parsedUnsigned: any[];
  parsedSigned: any[];
  sender: string;
  publicKey: string;
  hash: string;
}

/** Runs the whole flow for the intent `operations(sender)` and returns what each step produced. */
async function constructAndSubmit(operations: (sender: string) => Array<Record<string, unknown>>, metadataIn: Record<string, unknown> = {}): Promise<Flow> {
  const privateKey = randomPrivateKey();
  const publicKey = privateKeyToPublic(privateKey) as string;
  const public_keys = [{ hex_bytes: publicKey, curve_type: 'secp256k1' }];
  const derived = await post('derive', { public_key: public_keys[0] });
  const sender = derived.account_identifier.address;
  assert.equal(sender, getAddressFromPublicKey(publicKey, 'testnet'));
  const ops = operations(sender);
  const pre = await post('preprocess', { operations: ops, metadata: metadataIn });
  assert.deepEqual(pre.required_public_keys, [{ address: sender }]);
  const meta = await post('metadata', { options: pre.options, public_keys });
  assert.equal(meta.metadata.account_sequence, NONCE);
  assert.equal(meta.metadata.recent_block_hash, MOCKNET_TIP);
  assert.deepEqual(meta.suggested_fee, [{ value: String(ESTIMATE), currency: STX }]);
  const payloads = await post('payloads', { operations: ops, metadata: meta.metadata, public_keys });
  assert.equal(payloads.payloads.length, 1);
  const payload = payloads.payloads[0];
  assert.equal(payload.signature_type, 'ecdsa_recovery');
  const signature = signMessageHashRsv({ messageHash: payload.hex_bytes, privateKey });
  const combined = await post('combine', {
    unsigned_transaction: payloads.unsigned_transaction,
    signatures: [{ signing_payload: payload, public_key: public_keys[0], signature_type: 'ecdsa_recovery', hex_bytes: signature }],
  });
  const parsedUnsigned = (await post('parse', { signed: false, transaction: payloads.unsigned_transaction })).operations;
  const parsedSigned = await post('parse', { signed: true, transaction: combined.signed_transaction });
  assert.deepEqual(parsedSigned.account_identifier_signers, [{ address: sender }]);
  const hash = (await post('hash', { signed_transaction: combined.signed_transaction })).transaction_identifier.hash;
  const before = broadcasts.length;
  const submitted = await post('submit', { signed_transaction: combined.signed_transaction });
  assert.equal(broadcasts.length, before + 1, 'the node received one broadcast');
  const received = deserializeTransaction(broadcasts.at(-1)!);
  assert.equal(submitted.transaction_identifier.hash, `0x${received.txid()}`);
  return { signed: deserializeTransaction(combined.signed_transaction.slice(2)), received, metadata: meta.metadata, unsignedHex: payloads.unsigned_transaction, parsedUnsigned, parsedSigned: parsedSigned.operations, sender, publicKey, hash };
}

/** What Mesh compares of intent and parsed operations: type, account, amount. */
const essentials = (ops: any[]) => ops.map((o) => ({ type: o.type, account: o.account?.address, amount: o.amount?.value }));

function assertReceived(f: Flow, fee: bigint) {
  // The node got the signed tx: same bytes, a valid origin signature, our nonce and fee.
  assert.equal(f.received.serialize(), f.signed.serialize());
  assert.doesNotThrow(() => f.received.verifyOrigin());
  assert.equal(f.hash, `0x${f.received.txid()}`);
  const origin = f.received.auth.spendingCondition;
  assert.equal(BigInt(origin.nonce), BigInt(NONCE));
  assert.equal(BigInt(origin.fee), fee);
  assert.equal(f.received.chainId, 0x80000000);
}

test('a token transfer: constructed, signed, combined, parsed, hashed and submitted', async () => {
  const recipient = getAddressFromPublicKey(privateKeyToPublic(randomPrivateKey()) as string, 'testnet');
  const ops = (sender: string) => [
    { operation_identifier: { index: 0 }, type: 'fee', account: { address: sender }, amount: { value: '-180', currency: STX } },
    { operation_identifier: { index: 1 }, type: 'token_transfer', account: { address: sender }, amount: { value: '-5000', currency: STX } },
    { operation_identifier: { index: 2 }, type: 'token_transfer', account: { address: recipient }, amount: { value: '5000', currency: STX } },
  ];
  const f = await constructAndSubmit(ops, { memo: 'rosetta test' });
  assertReceived(f, 180n);
  const p = f.received.payload as any;
  assert.equal(p.payloadType, 0x00);
  assert.equal(serializeCV(p.recipient), serializeCV(Cl.standardPrincipal(recipient)));
  assert.equal(BigInt(p.amount), 5000n);
  assert.equal(Buffer.from(p.memo.content.replace(/\0+$/, '')).toString(), 'rosetta test');
  // Byte for byte what @stacks/transactions builds for the same transfer.
  const reference = await makeUnsignedSTXTokenTransfer({ recipient, amount: 5000n, fee: 180n, nonce: BigInt(NONCE), publicKey: f.publicKey, memo: 'rosetta test', network: 'testnet' });
  assert.equal(f.unsignedHex, `0x${reference.serialize()}`);
  for (const parsed of [f.parsedUnsigned, f.parsedSigned]) assert.deepEqual(essentials(parsed), essentials(ops(f.sender)));
});

test('a PoX-4 stack-stx: the node gets the call with the pox address, heights and signer fields', async () => {
  const signerKey = privateKeyToPublic(randomPrivateKey()) as string;
  const signerSignature = '11'.repeat(65);
  const poxAddr = 'n2v875jbJ4RjBnTjgbfikDfnwsDV5iUByw';
  const ops = (sender: string) => [
    { operation_identifier: { index: 0 }, type: 'fee', account: { address: sender }, amount: { value: '-300', currency: STX } },
    {
      operation_identifier: { index: 1 },
      type: 'stack_stx',
      account: { address: sender },
      amount: { value: '-2500000000', currency: STX },
      metadata: { number_of_cycles: 3, pox_addr: poxAddr, signer_key: signerKey, signer_signature: signerSignature },
    },
  ];
  const f = await constructAndSubmit(ops);
  assertReceived(f, 300n);
  assert.equal(f.metadata.contract_name, 'pox-4');
  assert.equal(f.metadata.burn_block_height, BURN_HEIGHT);
  const p = f.received.payload as any;
  assert.equal(addressToString(p.contractAddress), 'ST000000000000000000002AMW42H');
  assert.equal(p.contractName.content, 'pox-4');
  assert.equal(p.functionName.content, 'stack-stx');
  const expected = [
    Cl.uint(2500000000),
    Cl.tuple({ hashbytes: Cl.bufferFromHex('eabc65f3e890fb8bf20d153e95119c72d85765a9'), version: Cl.bufferFromHex('00') }),
    Cl.uint(BURN_HEIGHT),
    Cl.uint(3),
    Cl.some(Cl.bufferFromHex(signerSignature)),
    Cl.bufferFromHex(signerKey),
    Cl.uint(2500000000),
    Cl.uint(f.metadata.pox_auth_id),
  ];
  assert.deepEqual(p.functionArgs.map(serializeCV), expected.map(serializeCV));
  for (const parsed of [f.parsedUnsigned, f.parsedSigned]) assert.deepEqual(essentials(parsed), essentials(ops(f.sender)));
  assert.equal(f.parsedSigned[1].metadata.pox_addr, poxAddr);
  assert.equal(f.parsedSigned[1].metadata.number_of_cycles, 3);
});

test('a delegate-stx: the node gets the call with the delegate, expiry and segwit pox address', async () => {
  const delegate = getAddressFromPublicKey(privateKeyToPublic(randomPrivateKey()) as string, 'testnet');
  const poxAddr = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';
  const ops = (sender: string) => [
    { operation_identifier: { index: 0 }, type: 'fee', account: { address: sender }, amount: { value: '-270', currency: STX } },
    {
      operation_identifier: { index: 1 },
      type: 'delegate_stx',
      account: { address: sender },
      amount: { value: '-1000000', currency: STX },
      metadata: { delegate_to: delegate, pox_addr: poxAddr, until_burn_height: 500 },
    },
  ];
  const f = await constructAndSubmit(ops);
  assertReceived(f, 270n);
  const p = f.received.payload as any;
  assert.equal(p.functionName.content, 'delegate-stx');
  const expected = [
    Cl.uint(1000000),
    Cl.standardPrincipal(delegate),
    Cl.some(Cl.uint(500)),
    Cl.some(Cl.tuple({ hashbytes: Cl.bufferFromHex('751e76e8199196d454941c45d1b3a323f1433bd6'), version: Cl.bufferFromHex('04') })),
  ];
  assert.deepEqual(p.functionArgs.map(serializeCV), expected.map(serializeCV));
  for (const parsed of [f.parsedUnsigned, f.parsedSigned]) assert.deepEqual(essentials(parsed), essentials(ops(f.sender)));
  assert.equal(f.parsedSigned[1].metadata.delegate_to, delegate);
});

test('a revoke-delegate-stx: the node gets the call', async () => {
  const ops = (sender: string) => [
    { operation_identifier: { index: 0 }, type: 'fee', account: { address: sender }, amount: { value: '-200', currency: STX } },
    { operation_identifier: { index: 1 }, type: 'revoke_delegate_stx', account: { address: sender } },
  ];
  const f = await constructAndSubmit(ops);
  assertReceived(f, 200n);
  const p = f.received.payload as any;
  assert.equal(addressToString(p.contractAddress), 'ST000000000000000000002AMW42H');
  assert.equal(p.functionName.content, 'revoke-delegate-stx');
  assert.equal(p.functionArgs.length, 0);
  for (const parsed of [f.parsedUnsigned, f.parsedSigned]) assert.deepEqual(essentials(parsed), essentials(ops(f.sender)));
});

test("bad construction input gets the reference's Rosetta errors", async () => {
  const code = async (path: string, body: Record<string, unknown>, invalidRequest = false) => {
    const r = await rosettaPost<{ code: number }>(svc.apiUrl, `/rosetta/v1/construction/${path}`, { network_identifier, ...body }, problems, { invalidRequest });
    assert.equal(r.status, 400, `${path}: ${JSON.stringify(r.body)}`);
    return r.body.code;
  };
  const privateKey = randomPrivateKey();
  const key = { hex_bytes: privateKeyToPublic(privateKey) as string, curve_type: 'secp256k1' };
  const sender = getAddressFromPublicKey(key.hex_bytes, 'testnet');
  const ops = [
    { operation_identifier: { index: 0 }, type: 'fee', account: { address: sender }, amount: { value: '-180', currency: STX } },
    { operation_identifier: { index: 1 }, type: 'token_transfer', account: { address: sender }, amount: { value: '-1', currency: STX } },
    { operation_identifier: { index: 2 }, type: 'token_transfer', account: { address: sender }, amount: { value: '1', currency: STX } },
  ];
  assert.equal(await code('derive', { public_key: { ...key, curve_type: 'edwards25519' } }), 619);
  assert.equal(await code('derive', { public_key: { ...key, hex_bytes: '02'.padEnd(66, 'f') } }), 620);
  assert.equal(await code('preprocess', { operations: [{ ...ops[0], type: 'mint' }, ops[1], ops[2]] }), 621);
  assert.equal(await code('preprocess', { operations: [ops[0], { ...ops[1], amount: { value: '-1', currency: { symbol: 'BTC', decimals: 8 } } }, ops[2]] }), 623);
  assert.equal(await code('metadata', { options: { type: 'token_transfer', sender_address: 'nope', symbol: 'STX', decimals: 6, size: 180 } }), 626);
  assert.equal(await code('payloads', { operations: ops, metadata: { account_sequence: 0 } }), 632);
  assert.equal(await code('payloads', { operations: ops, public_keys: [key] }), 643);
  const unsigned = await post('payloads', { operations: ops, metadata: { account_sequence: 0 }, public_keys: [key] });
  const payload = unsigned.payloads[0];
  const stranger = randomPrivateKey();
  const foreign = signMessageHashRsv({ messageHash: payload.hex_bytes, privateKey: stranger });
  const combine = (hex: string, signer = key) => ({ unsigned_transaction: unsigned.unsigned_transaction, signatures: [{ signing_payload: payload, public_key: signer, signature_type: 'ecdsa_recovery', hex_bytes: hex }] });
  assert.equal(await code('combine', combine(foreign)), 635);
  assert.equal(await code('combine', combine(foreign, { hex_bytes: privateKeyToPublic(stranger) as string, curve_type: 'secp256k1' })), 635);
  assert.equal(await code('combine', { ...combine(foreign), signatures: [] }), 633);
  assert.equal(await code('combine', { ...combine(foreign), unsigned_transaction: '0x00' }), 628);
  assert.equal(await code('parse', { signed: true, transaction: unsigned.unsigned_transaction }), 609);
  assert.equal(await code('hash', { signed_transaction: unsigned.unsigned_transaction }), 629);
  assert.equal(await code('submit', { signed_transaction: unsigned.unsigned_transaction }), 629);
  assert.equal(await code('hash', { network_identifier: { blockchain: 'stacks', network: 'mainnet' }, signed_transaction: '0x00' }), 610);
  assert.equal(await code('hash', {}, true), 609);
  const signed = await post('combine', combine(signMessageHashRsv({ messageHash: payload.hex_bytes, privateKey })));
  rejectBroadcasts = true;
  try {
    const r = await rosettaPost<{ code: number; details: { node: { reason: string } } }>(svc.apiUrl, '/rosetta/v1/construction/submit', { network_identifier, signed_transaction: signed.signed_transaction }, problems);
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 628);
    assert.equal(r.body.details.node.reason, 'BadNonce');
  } finally {
    rejectBroadcasts = false;
  }
});

test("/network/status reads the peers and the sync target from the node pool", async () => {
  const r = await rosettaPost<Record<string, any>>(svc.apiUrl, '/rosetta/v1/network/status', { network_identifier }, problems);
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.current_block_identifier, { index: 28, hash: MOCKNET_TIP });
  assert.deepEqual(r.body.peers, [{ peer_id: 'aa'.repeat(20) }, { peer_id: 'bb'.repeat(20) }]);
  // The stand-in node claims a tip of 1000: we are behind it.
  assert.deepEqual(r.body.sync_status, { current_index: 28, target_index: node.tip, synced: false });
});

test('every construction request and answer above validates against the Mesh schemas', () => {
  assert.deepEqual(problems, []);
});
