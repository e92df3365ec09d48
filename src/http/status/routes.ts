// GET /extended: server status and chain tip, as the reference API answers it, plus how far
// processing is behind the event log (in a process that ingests) and where the serving store is.
// `/` and `/extended/v1/status`
// redirect there, as in the reference.
import type { RouteDef } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { getChainTip, type ChainTip } from './queries.ts';
import { SERVER_VERSION } from '../conventions/version.ts';
import { SERVER_STATUS } from '../blocks/schemas.ts';
import { REDIRECT } from '../schema-home.ts';

/**
 * The tip as read while processing stood at one log entry. It changes only when a batch is stored
 * (processed_id moves after its rows are in), and clients poll /extended: three engine reads each,
 * ~2 ms of the engine's CPU, which a poll every 20 ms (the live bench's) made ~7% of live ingest's
 * CPU. Only in a process that ingests or follows the log: elsewhere nothing says when data changed.
 */
const tipMemo = new WeakMap<ApiContext['store'], { at: number; tip: Promise<ChainTip | undefined> }>();

function tipAt(ctx: ApiContext, processed: number | undefined): Promise<ChainTip | undefined> {
  if (processed === undefined) return getChainTip(ctx.store);
  const memo = tipMemo.get(ctx.store);
  if (memo?.at === processed) return memo.tip;
  const tip = getChainTip(ctx.store);
  tipMemo.set(ctx.store, { at: processed, tip });
  // A failed read is not kept.
  tip.catch(() => tipMemo.get(ctx.store)?.tip === tip && tipMemo.delete(ctx.store));
  return tip;
}

const redirect = async () => ({ status: 301, headers: { location: '/extended' }, body: '' });

export const statusRoutes: RouteDef<ApiContext>[] = [
  { method: 'get', path: '/', operationId: 'redirectRootToStatus', summary: 'Redirects to /extended', tags: ['Info'], responses: { 301: REDIRECT }, handler: redirect },
  { method: 'get', path: '/extended/v1/status', operationId: 'redirectV1StatusToStatus', summary: 'Redirects to /extended', tags: ['Info'], responses: { 301: REDIRECT }, handler: redirect },
  {
    method: 'get',
    path: '/extended',
    // Carries the event log's received id, which moves without new stored data.
    cache: false,
    summary: 'API status',
    tags: ['Info'],
    responses: { 200: SERVER_STATUS },
    handler: async (_req, ctx) => {
      // The log positions are read before the tip: processed_id then never runs ahead of the data
      // the tip was read from (a client waiting for behind = 0 sees the tip of what was processed).
      const log = ctx.ingest && { received: ctx.ingest.receivedId(), processed: ctx.ingest.processedId(), error: ctx.ingest.error(), held: ctx.ingest.heldBlocks(), quarantined: ctx.ingest.quarantined() };
      const tip = await tipAt(ctx, log?.processed);
      const body: Record<string, unknown> = { server_version: SERVER_VERSION, status: 'ready' };
      if (tip) {
        body.pox_v1_unlock_height = tip.pox_v1_unlock_height || null;
        body.pox_v2_unlock_height = tip.pox_v2_unlock_height || null;
        body.pox_v3_unlock_height = tip.pox_v3_unlock_height || null;
      }
      if (tip && tip.block_height > 0) {
        body.chain_tip = {
          block_height: tip.block_height,
          block_hash: tip.block_hash,
          index_block_hash: tip.index_block_hash,
          ...(tip.microblock_hash ? { microblock_hash: tip.microblock_hash, microblock_sequence: tip.microblock_sequence } : {}),
          burn_block_height: tip.burn_block_height,
        };
      }
      if (log) {
        const { received, processed, error, held, quarantined } = log;
        body.event_log = {
          received_id: received,
          processed_id: processed,
          behind: received - processed,
          ...(error ? { error } : {}),
          ...(quarantined.length > 0 ? { quarantined } : {}),
          ...(held.count > 0 ? { held_blocks: held } : {}),
        };
        if (error) body.status = 'processing_stopped';
      }
      // The serving store answers point reads once it covers what ClickHouse holds.
      if (ctx.serving) body.serving_store = { applied_id: ctx.serving.view.appliedLogId, ready: ctx.serving.view.ready };
      return body;
    },
  },
];
