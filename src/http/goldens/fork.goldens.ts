// Goldens of our own: the fork fixture (src/testing/fork-fixture.ts), a reorg log the reference
// never answered, with the answers its rules give, written out by hand from its source (Hiro
// stacks-blockchain-api v8.15.4), each beside the rule. Compared as diff-goldens compares: the same
// status, and every field given here present in ours with an equal value (arrays in order).
// src/http/goldens/goldens.test.ts runs them on one service fed the fixture.
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { matches } from '../../testing/goldens.ts';
import { FORK } from '../../testing/fork-fixture.ts';

interface ForkGolden {
  /** The issue item and what is asked. */
  name: string;
  url: string;
  /** A Rosetta POST's body. */
  body?: unknown;
  status: number;
  expected: unknown;
}

const uint = (n: number) => `0x01${n.toString(16).padStart(32, '0')}`;
const block2a = { canonical: false, block_hash: FORK.block2a.hash, block_height: 2, burn_block_time: FORK.block2a.burnTime };
const { origin, fee } = FORK.sendMany;
const [one, two] = FORK.transfers;
const emptyPage = { limit: 20, offset: 0, total: 0, next_cursor: null, prev_cursor: null, cursor: null, results: [] };

export const FORK_GOLDENS: ForkGolden[] = [
  // 1. pg-store searchHash: `SELECT … FROM txs WHERE tx_id = $1 LIMIT 1` through the unique index
  //    (tx_id, index_block_hash, microblock_hash): the lowest index block hash, orphaned or not.
  //    Block 4's is raised above 2a's, so the coinbase and the call both mined again there are
  //    answered at 2a.
  { name: 'search: a coinbase 2a and block 4 mined', url: `/extended/v1/search/${FORK.txCoinbaseRemined}`, status: 200, expected: { found: true, result: { entity_type: 'tx_id', tx_data: { ...block2a, tx_type: 'coinbase' } } } },
  { name: 'search: a call 2a and block 4 mined', url: `/extended/v1/search/${FORK.txRemined}`, status: 200, expected: { found: true, result: { entity_type: 'tx_id', tx_data: { ...block2a, tx_type: 'contract_call' } } } },
  //    searchHashWithMetadata (getTxListDetails): canonical rows only, as /extended/v1/tx/:id.
  { name: 'search with metadata: the canonical placement', url: `/extended/v1/search/${FORK.txRemined}?include_metadata=true`, status: 200, expected: { found: true, result: { tx_data: { canonical: true, block_hash: FORK.block4.hash, block_height: 4 }, metadata: { tx_id: FORK.txRemined, block_hash: FORK.block4.hash, canonical: true } } } },
  { name: 'tx by id: the canonical placement', url: `/extended/v1/tx/${FORK.txRemined}`, status: 200, expected: { block_hash: FORK.block4.hash, block_height: 4, canonical: true } },

  // 2. getSmartContractEvents: canonical contract_logs ORDER BY block_height DESC,
  //    microblock_sequence DESC, tx_index DESC, event_index DESC (an anchored tx's sequence is
  //    2147483647): block 4's anchored call (also mined in 2a), then the microblock txs of sequence
  //    1 and 0. Event indexes are renumbered per tx: each print is its tx's second event.
  {
    name: 'contract events: newest first by height, microblock sequence, tx index',
    url: `/extended/v1/contract/${FORK.printer}/events`,
    status: 200,
    expected: {
      limit: 20,
      offset: 0,
      results: [
        { event_index: 1, event_type: 'smart_contract_log', tx_id: FORK.txRemined, contract_log: { contract_id: FORK.printer, topic: 'print', value: { hex: uint(4), repr: 'u4' } } },
        { event_index: 1, event_type: 'smart_contract_log', tx_id: FORK.txMicroblock1, contract_log: { contract_id: FORK.printer, topic: 'print', value: { hex: uint(6), repr: 'u6' } } },
        { event_index: 1, event_type: 'smart_contract_log', tx_id: FORK.txMicroblock0, contract_log: { contract_id: FORK.printer, topic: 'print', value: { hex: uint(5), repr: 'u5' } } },
      ],
    },
  },
  //    getNftMints: the same order, on the canonical tx row's microblock_sequence and tx_index.
  {
    name: 'NFT mints: newest first by height, microblock sequence, tx index',
    url: `/extended/v1/tokens/nft/mints?asset_identifier=${FORK.nftAsset}`,
    status: 200,
    expected: { total: 2, results: [{ event_index: 2, value: { hex: uint(1), repr: 'u1' }, tx_id: FORK.txRemined }, { event_index: 2, value: { hex: uint(2), repr: 'u2' }, tx_id: FORK.txMicroblock1 }] },
  },

  // 3. getBlockInternal({ burnBlockHash | burnBlockHeight }): any block, ORDER BY canonical DESC,
  //    block_height DESC; its txs are the block's canonical ones (none for the orphaned 2a). (The
  //    testnet genesis at burn height 0 is checked in blocks/v1-routes.test.ts on a regtest log.)
  { name: 'block by burn block hash: the orphaned 2a', url: `/extended/v1/block/by_burn_block_hash/${FORK.block2a.burnHash}`, status: 200, expected: { canonical: false, height: 2, hash: FORK.block2a.hash, burn_block_height: FORK.block2a.burnHeight, txs: [] } },
  { name: 'block by burn block height: the orphaned 2a', url: `/extended/v1/block/by_burn_block_height/${FORK.block2a.burnHeight}`, status: 200, expected: { canonical: false, height: 2, hash: FORK.block2a.hash, txs: [] } },

  // 4. pg-store-v2 getBlocks({ tenureHeight }): `tenure_height = h` on the height the node reported,
  //    none in epoch 2, so nothing at the tip's height 5 either; the total is read from the first
  //    row, 0 without rows. (A tip reorged at its own height: blocks/v2-routes.test.ts.)
  { name: 'block tenure at the tip (epoch 2)', url: '/extended/v2/block-tenures/5/blocks', status: 200, expected: emptyPage },

  // 5. chain_tip.burn_block_height: set to block 5's burn height when it was inserted, then raised
  //    by each later /new_burn_block (updateBurnChainBlockHeight: GREATEST).
  { name: '/extended: burn blocks after the last Stacks block', url: '/extended', status: 200, expected: { chain_tip: { block_height: 5, block_hash: FORK.block5.hash, burn_block_height: FORK.lateBurnHeights.at(-1) } } },

  // 6. rosetta-helpers getOperations: makeFeeOperation names tx.sender_address (the origin of a
  //    sponsored tx); processEvents gives each STX transfer of a send-many-memo call (the .env's
  //    MAINNET_SEND_MANY_CONTRACT_ID) `metadata: { memo }`, the memo argument as UTF-8 text.
  {
    name: 'Rosetta block: a sponsored send-many-memo call',
    url: '/rosetta/v1/block',
    body: { network_identifier: { blockchain: 'stacks', network: 'mainnet' }, block_identifier: { index: 5 } },
    status: 200,
    expected: {
      block: {
        block_identifier: { index: 5, hash: FORK.block5.hash },
        transactions: [
          {
            operations: [
              { operation_identifier: { index: 0 }, type: 'fee', status: 'success', account: { address: origin }, amount: { value: `-${fee}` } },
              { operation_identifier: { index: 1 }, type: 'contract_call', status: 'success', account: { address: origin }, metadata: { contract_id: FORK.sendMany.contract, function_name: 'send-many' } },
              { operation_identifier: { index: 2 }, type: 'token_transfer', account: { address: origin }, amount: { value: `-${one.amount}` }, metadata: { memo: one.memo } },
              { operation_identifier: { index: 3 }, related_operations: [{ index: 2 }], type: 'token_transfer', account: { address: one.recipient }, amount: { value: `${one.amount}` }, metadata: { memo: one.memo } },
              { operation_identifier: { index: 4 }, type: 'token_transfer', account: { address: origin }, amount: { value: `-${two.amount}` }, metadata: { memo: two.memo } },
              { operation_identifier: { index: 5 }, related_operations: [{ index: 4 }], type: 'token_transfer', account: { address: two.recipient }, amount: { value: `${two.amount}` }, metadata: { memo: two.memo } },
            ],
          },
        ],
      },
    },
  },

  // The 500: /extended/v2/blocks takes limit, offset and cursor (its querystring schema); `tenure`
  // is no parameter of it, so a padded ` 1` there changes nothing.
  { name: 'v2 blocks with an unknown padded parameter', url: '/extended/v2/blocks?limit=1&tenure=%201', status: 200, expected: { limit: 1, offset: 0, total: 5, results: [{ height: 5, hash: FORK.block5.hash }] } },
];

/** Each of FORK_GOLDENS as a subtest, against a service fed the fork fixture. */
export async function checkForkGoldens(t: TestContext, apiUrl: string): Promise<void> {
  for (const g of FORK_GOLDENS) {
    await t.test(g.name, async () => {
      const res = await fetch(`${apiUrl}${g.url}`, g.body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(g.body) });
      const body = (await res.json()) as unknown;
      assert.equal(res.status, g.status, g.url);
      assert.ok(matches(g.expected, body), `${g.url}\nexpected (fields of): ${JSON.stringify(g.expected)}\ngot: ${JSON.stringify(body).slice(0, 3000)}`);
    });
  }
}
