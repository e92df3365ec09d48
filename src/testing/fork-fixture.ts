// A reorg log of our own making, for the fork tests and the goldens tests: the recorded reorg
// (mainnet-reorg-scenario2.tsv: block 2a canonical until block 3 builds on its sibling 2b) with
// edits, then a block on its tip and burn blocks that arrive after it. What each part exercises:
// - block 4's index block hash is raised above 2a's, so the orphaned placement (2a) of the coinbase
//   block 4 mined again sorts first in the reference's index of txs (search);
// - in block 4, anchored and microblock txs print to one contract and mint one NFT asset, and one
//   of them (TX_REMINED) is made anchored and also mined in the orphaned 2a (contract events, mints);
// - block 5 carries a sponsored call of the send-many-memo contract (Rosetta);
// - two burn blocks arrive after block 5, the last Stacks block (the tip's burn height).
// `node --import tsx src/testing/fork-fixture.ts <out.tsv>` writes it.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readTsvRows } from '../ingest/tsv/read-tsv.ts';
import { copyEscape, formatTimestamp, parseTimestamp, type TsvRow } from '../ingest/tsv/copy-text.ts';
import { Cv, clarityHex, type Address } from '../stacks/encode/clarity.ts';
import { AnchorMode, HashMode, PostConditionMode, encodeTxWithId } from '../stacks/encode/transaction.ts';
import { parsePrincipal } from '../stacks/codec/c32.ts';
import { SHARED } from './service.ts';

type Json = Record<string, unknown>;
type NodeTx = Json & { txid: string; tx_index: number };
type NodeEvent = Json & { txid: string; event_index: number; type: string };
type NodeBlock = Json & { transactions: NodeTx[]; events: NodeEvent[] };

const SOURCE = join(SHARED, 'fixtures', 'mainnet-reorg-scenario2.tsv');
const BLOCK_2A = 58775;
const BLOCK_4 = 58778;

const hash32 = (label: string) => `0x${createHash('sha256').update(`fork-fixture:${label}`).digest('hex')}`;
const addressOf = (principal: string): Address => {
  const p = parsePrincipal(principal);
  return { version: p.version, hash160: Buffer.from(p.hash160, 'hex') };
};

/** The ids, hashes and accounts the tests ask about. */
export const FORK = {
  block2a: { hash: '0xebee0ee47d54fcce3e40b7ff93dcd2f8747c054daf9bc9eb9df5b5c1cf459781', indexHash: '0xd4e86b872a4799fe275f4a759257400cadc60b3e6b9382bd1ff2a1c7473aff7a', burnHash: '0x000000000000000000142f51853336d9ba1f218030c8dccd7f6f027ba2b17252', burnHeight: 693418, burnTime: 1627662339 },
  block4: { hash: '0x5d0618b4b1f1d44573fac30ce5cfa0f6849586f8312b33b19b34db2b67a5921c', indexHash: '0xf8152e9344939b515e1c10c35eb6d96b14caf79bac02d81173da0d8c4a5369c1', burnHeight: 693420 },
  block5: { hash: hash32('block 5'), indexHash: hash32('block 5 index'), burnHash: hash32('burn 693421'), burnHeight: 693421 },
  /** Burn blocks after block 5. */
  lateBurnHeights: [693422, 693423],
  /** The coinbase of 2a, mined again in block 4. */
  txCoinbaseRemined: '0x5ce46d2b37dceab3ff5cfc86cc08d75ff7052df44b32136326dc11ed765e3e1c',
  /** Block 4's contract call, made anchored there and also mined in 2a. */
  txRemined: '0x840c7f04510be7784a700debf9cc969b11af8ba17b00c327a94e61b95083c704',
  /** Block 4's microblock txs (sequence 0 and 1) that print and mint too. */
  txMicroblock0: '0x9429dd333db06784e2fd1b91fcd3b5f4f796b4151dd01174f559de2f886f459c',
  txMicroblock1: '0xda94b500aa1b0e2d9d16f35213d849c5c7d8162059f796b7f5fdb7a6fb32383a',
  printer: 'SP32AEEF6WW5Y0NMJ1S8SBSZDAY8R5J32NBZFPKKZ.wrapped-nothing-v8',
  nftAsset: 'SP32AEEF6WW5Y0NMJ1S8SBSZDAY8R5J32NBZFPKKZ.wrapped-nothing-v8::badge',
  sendMany: { contract: 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE.send-many-memo', origin: 'SP3HXJJMJQ06GNAZ8XWDN1QM48JEDC6PP6W3YZPZJ', sponsor: 'SP3J201RTPW4QD4SX7ES1RVBA22G78M18A4ADATN4', fee: 3000n },
  transfers: [
    { recipient: 'SP1P72Z3704VMT3DMHPP2CB8TGQWGDBHD3RPR9GZS', amount: 1200n, memo: 'fork fixture one' },
    { recipient: 'SPG771RDGXHQ60N3SAZ3KF4PGBEXN0V30AWVAEJF', amount: 3400n, memo: 'fork fixture two' },
  ],
};

const print = (txid: string, event_index: number, contract: string, value: string): NodeEvent => ({
  txid, type: 'contract_event', committed: true, event_index, contract_event: { topic: 'print', raw_value: value, contract_identifier: contract },
});
const mint = (txid: string, event_index: number, recipient: string, id: number): NodeEvent => ({
  txid, type: 'nft_mint_event', committed: true, event_index, nft_mint_event: { asset_identifier: FORK.nftAsset, recipient, raw_value: clarityHex(Cv.uint(id)) },
});

/** Block 4: the higher index hash, TX_REMINED anchored, prints and mints from anchored and microblock txs. */
function editBlock4(b: NodeBlock): void {
  b.index_block_hash = FORK.block4.indexHash;
  const remined = b.transactions.find((t) => t.txid === FORK.txRemined)!;
  Object.assign(remined, { microblock_hash: null, microblock_sequence: null, microblock_parent_hash: null });
  const next = Math.max(...b.events.map((e) => e.event_index)) + 1;
  const owner = 'SPSB49HKZCW32JAN7D7Y9N1DV41N6K6RPMA3PRZD';
  b.events.push(
    print(FORK.txRemined, next, FORK.printer, clarityHex(Cv.uint(4))),
    print(FORK.txMicroblock0, next + 1, FORK.printer, clarityHex(Cv.uint(5))),
    print(FORK.txMicroblock1, next + 2, FORK.printer, clarityHex(Cv.uint(6))),
    mint(FORK.txRemined, next + 3, owner, 1),
    mint(FORK.txMicroblock1, next + 4, owner, 2),
  );
}

/** 2a also mines TX_REMINED (anchored, last), with the same print and mint. */
function editBlock2a(b: NodeBlock, block4: NodeBlock): void {
  const tx = structuredClone(block4.transactions.find((t) => t.txid === FORK.txRemined)!);
  Object.assign(tx, { tx_index: b.transactions.length, microblock_hash: null, microblock_sequence: null, microblock_parent_hash: null });
  b.transactions.push(tx);
  const next = Math.max(...b.events.map((e) => e.event_index)) + 1;
  b.events.push(print(FORK.txRemined, next, FORK.printer, clarityHex(Cv.uint(4))), mint(FORK.txRemined, next + 1, 'SPSB49HKZCW32JAN7D7Y9N1DV41N6K6RPMA3PRZD', 1));
}

/** The sponsored send-many-memo call (signatures are filler: nothing checks them). */
function sendManyTx(): { txid: string; raw: string } {
  const { origin, sponsor, fee } = FORK.sendMany;
  const [address, name] = FORK.sendMany.contract.split('.');
  const condition = (who: string, nonce: number, amount: number) => ({ kind: 'single' as const, hashMode: HashMode.P2PKH, signer: addressOf(who).hash160, nonce, fee: amount, signature: Buffer.alloc(65) });
  const items = FORK.transfers.map((t) => Cv.tuple({ to: Cv.principal(addressOf(t.recipient)), ustx: Cv.uint(t.amount), memo: Cv.buffer(Buffer.from(t.memo)) }));
  return encodeTxWithId({
    mainnet: true,
    chainId: 1,
    origin: condition(origin, 7, 0),
    sponsor: condition(sponsor, 11, Number(fee)),
    anchorMode: AnchorMode.Any,
    postConditionMode: PostConditionMode.Allow,
    postConditions: [],
    payload: { type: 'contract_call', address: addressOf(address), contractName: name, functionName: 'send-many', args: [Cv.list(items)] },
  });
}

/** Block 5 on block 4, at the next burn block, with the sponsored call. */
function block5(block4: NodeBlock): NodeBlock {
  const tx = sendManyTx();
  const b = structuredClone(block4);
  const events: NodeEvent[] = FORK.transfers.flatMap((t, i) => [
    { txid: tx.txid, type: 'stx_transfer_event', committed: true, event_index: 2 * i, stx_transfer_event: { sender: FORK.sendMany.origin, recipient: t.recipient, amount: t.amount.toString() } },
    print(tx.txid, 2 * i + 1, FORK.sendMany.contract, clarityHex(Cv.buffer(Buffer.from(t.memo)))),
  ]);
  const template = block4.transactions.find((t) => t.txid === FORK.txRemined)!;
  const nodeTx: NodeTx = { ...structuredClone(template), txid: tx.txid, raw_tx: tx.raw, tx_index: 0, raw_result: '0x0703' };
  return Object.assign(b, {
    block_height: 5,
    block_hash: FORK.block5.hash,
    index_block_hash: FORK.block5.indexHash,
    parent_block_hash: FORK.block4.hash,
    parent_index_block_hash: FORK.block4.indexHash,
    parent_microblock: `0x${'00'.repeat(32)}`,
    parent_microblock_sequence: 0,
    burn_block_hash: FORK.block5.burnHash,
    burn_block_height: FORK.block5.burnHeight,
    burn_block_time: Number(block4.burn_block_time) + 600,
    parent_burn_block_hash: block4.burn_block_hash,
    parent_burn_block_height: block4.burn_block_height,
    parent_burn_block_timestamp: block4.burn_block_time,
    miner_txid: hash32('block 5 miner'),
    matured_miner_rewards: [],
    transactions: [nodeTx],
    events,
  });
}

const burnBlock = (height: number) => ({ burn_amount: 0, burn_block_hash: hash32(`burn ${height}`), burn_block_height: height, reward_recipients: [], reward_slot_holders: [] });

/** The fixture's rows in id order. */
export async function forkFixtureRows(): Promise<TsvRow[]> {
  const rows: TsvRow[] = [];
  for await (const r of readTsvRows(SOURCE)) rows.push({ id: r.id, timestamp: r.timestamp, path: r.path, payload: r.payload });
  const body = (id: number) => JSON.parse(rows.find((r) => r.id === id)!.payload) as NodeBlock;
  const original4 = body(BLOCK_4);
  const edited = new Map<number, NodeBlock>([[BLOCK_4, body(BLOCK_4)], [BLOCK_2A, body(BLOCK_2A)]]);
  editBlock4(edited.get(BLOCK_4)!);
  editBlock2a(edited.get(BLOCK_2A)!, original4);
  for (const r of rows) if (edited.has(r.id)) r.payload = JSON.stringify(edited.get(r.id));
  const last = rows.at(-1)!;
  let id = last.id;
  let ms = parseTimestamp(last.timestamp);
  const add = (path: string, payload: unknown) => rows.push({ id: ++id, timestamp: formatTimestamp((ms += 1000)), path, payload: JSON.stringify(payload) });
  add('/new_burn_block', burnBlock(FORK.block5.burnHeight));
  add('/new_block', block5(edited.get(BLOCK_4)!));
  for (const h of FORK.lateBurnHeights) add('/new_burn_block', burnBlock(h));
  return rows;
}

/** Writes the fixture as a Hiro TSV export. */
export async function writeForkFixture(file: string): Promise<void> {
  const rows = await forkFixtureRows();
  writeFileSync(file, rows.map((r) => `${r.id}\t${r.timestamp}\t${r.path}\t${copyEscape(r.payload)}\n`).join(''));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: node --import tsx src/testing/fork-fixture.ts <out.tsv>');
  await writeForkFixture(out);
}
