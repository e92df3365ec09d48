// /rosetta/v1/block, /block/transaction, /mempool and /mempool/transaction.
import type { RouteDef } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { decodeTransaction } from '../../stacks/codec/index.ts';
import { getTip, unanchoredTxs } from '../tx/lists.ts';
import { pendingEntries } from '../tx/mempool.ts';
import { fetchTxRows, placeTxRows } from '../tx/queries.ts';
import { contractAbis } from '../tx/abi-cache.ts';
import { blockByHash } from '../blocks/queries.ts';
import { rosettaError } from './errors.ts';
import { normalizeHash, rosettaBody } from './request.ts';
import { meshResponses, meshSchema } from './schemas.ts';
import { findBlock, pendingTx } from './queries.ts';
import { correctionTransactionOf, rosettaBlock, rosettaBlockTransaction, rosettaTransaction } from './block.ts';
import { opTxOf, txOperations } from './operations.ts';
import { stackingOperationType } from './stacking.ts';

const tags = ['Rosetta'];

interface PartialBlockId {
  index?: number;
  hash?: string;
}

export const dataRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'post',
    path: '/rosetta/v1/block',
    summary: 'A block and its transactions, by height or hash (none: the tip)',
    tags,
    body: meshSchema('RosettaBlockRequest'),
    responses: meshResponses('RosettaBlockResponse'),
    handler: async (req, ctx) => {
      const body = rosettaBody<{ block_identifier: PartialBlockId }>(req, ctx, 'RosettaBlockRequest');
      const id = body.block_identifier;
      const block = await findBlock(ctx.store, { hash: id.hash === undefined ? undefined : normalizeHash(id.hash), index: id.index });
      const out = block ? await rosettaBlock(ctx, block) : undefined;
      if (!out) throw rosettaError('blockNotFound');
      return out;
    },
  },
  {
    method: 'post',
    path: '/rosetta/v1/block/transaction',
    summary: 'A mined transaction',
    tags,
    body: meshSchema('RosettaBlockTransactionRequest'),
    responses: meshResponses('RosettaBlockTransactionResponse'),
    handler: async (req, ctx) => {
      const body = rosettaBody<{ block_identifier: PartialBlockId; transaction_identifier: { hash: string } }>(req, ctx, 'RosettaBlockTransactionRequest');
      const txId = normalizeHash(body.transaction_identifier.hash);
      const wanted = body.block_identifier;
      const placed = (await placeTxRows(ctx.store, await fetchTxRows(ctx.store, [txId]))).filter((p) => !p.unanchored);
      // The named block's placement (canonical first); without a hash, the canonical one.
      const hash = wanted.hash === undefined ? undefined : normalizeHash(wanted.hash);
      const candidates = placed
        .filter((p) => (hash === undefined ? p.canonical && p.microblock_canonical : p.block_hash === hash) && (wanted.index === undefined || p.block_height === wanted.index))
        .sort((a, b) => Number(b.canonical && b.microblock_canonical) - Number(a.canonical && a.microblock_canonical));
      const row = candidates[0];
      const block = row ? await blockByHash(ctx.store, 'index_block_hash', row.index_block_hash) : undefined;
      let tx = row && block ? await rosettaBlockTransaction(ctx, block, row) : undefined;
      // Not a mined tx: the named block's correcting transaction (see corrections.ts)?
      if (!row && (hash !== undefined || wanted.index !== undefined)) {
        const named = await findBlock(ctx.store, { hash, index: wanted.index });
        tx = named && (wanted.index === undefined || named.block_height === wanted.index) ? await correctionTransactionOf(ctx, named, txId) : undefined;
      }
      if (!tx) throw rosettaError('transactionNotFound', hash === undefined ? undefined : `no transaction ${txId} in block ${hash}`);
      // The reference answered the transaction object itself; Mesh wraps it in `transaction`: both.
      return { ...tx, transaction: tx };
    },
  },
  {
    method: 'post',
    path: '/rosetta/v1/mempool',
    summary: 'Pending transactions',
    tags,
    body: meshSchema('RosettaNetworkRequest'),
    responses: meshResponses('RosettaMempoolResponse'),
    cache: false,
    handler: async (req, ctx) => {
      rosettaBody(req, ctx, 'RosettaNetworkRequest');
      const { entries } = await pendingEntries(ctx.store, false);
      // Newest received first; txs received in the same second in the order they arrived (as the reference).
      entries.sort((a, b) => b.receipt_time - a.receipt_time || a.log_id - b.log_id);
      return { transaction_identifiers: entries.map((e) => ({ hash: e.tx_id })) };
    },
  },
  {
    method: 'post',
    path: '/rosetta/v1/mempool/transaction',
    summary: 'A pending transaction',
    tags,
    body: meshSchema('RosettaMempoolTransactionRequest'),
    responses: meshResponses('RosettaMempoolTransactionResponse'),
    cache: false,
    handler: async (req, ctx) => {
      const body = rosettaBody<{ transaction_identifier: { hash: string } }>(req, ctx, 'RosettaMempoolTransactionRequest');
      const txId = normalizeHash(body.transaction_identifier.hash);
      let row = await pendingTx(ctx.store, txId);
      // As the reference: a tx mined only in a microblock no block has confirmed yet is still pending.
      if (!row) {
        const streamed = await unanchoredTxs(ctx.store, await getTip(ctx.store));
        const s = streamed.find((t) => t.tx_id === txId);
        if (s) row = { tx_id: txId, raw_tx: s.raw_tx } as Awaited<ReturnType<typeof pendingTx>>;
      }
      if (!row) throw rosettaError('transactionNotFound');
      let decoded;
      try {
        decoded = decodeTransaction(row.raw_tx, { txId });
      } catch {
        throw rosettaError('invalidTransactionString', 'the stored transaction bytes do not decode');
      }
      // Status '' for a pending tx, as the reference renders it.
      const abis = decoded.payload.type === 'contract_call' ? await contractAbis(ctx.store, [`${decoded.payload.contractAddress}.${decoded.payload.contractName}`]) : new Map<string, string>();
      const tx = opTxOf(decoded, '', { abi: [...abis.values()][0] });
      // A stacking call's metadata needs its result: the reference cannot describe a pending one.
      if (tx.call && stackingOperationType(tx.call)) throw rosettaError('unknownError', 'a pending stacking call is described once mined (its operation needs the call result)');
      return { transaction: rosettaTransaction(tx, txOperations(tx, { mainnet: ctx.config.isMainnet })) };
    },
  },
];
