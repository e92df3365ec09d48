// One decoded log entry → the batch: dispatch by kind to the apply-* steps.
import type { DecodeOutcome } from '../../workers/decoded.ts';
import type { ApplyContext } from './context.ts';
import { applyBlock } from './apply-block.ts';
import { applyMicroblocks } from './apply-microblocks.ts';
import { applyDrop, applyMempoolTxs, flushMempoolChanges } from './apply-mempool.ts';

export async function applyEntry(ctx: ApplyContext, path: string, outcome: DecodeOutcome): Promise<void> {
  if (!outcome.ok) {
    ctx.batch.addRows('rejected_events', [{ log_id: ctx.logId, path, reason: outcome.reason }]);
    return;
  }
  const ev = outcome.event;
  switch (ev.kind) {
    case 'block':
      await applyBlock(ctx, ev);
      break;
    case 'microblocks':
      applyMicroblocks(ctx, ev);
      break;
    case 'mempool':
      applyMempoolTxs(ctx, ev);
      break;
    case 'drop_mempool':
      applyDrop(ctx, ev);
      break;
    case 'burn_block':
      ctx.batch.addFacts(ev.facts);
      ctx.batch.addRows('burn_blocks', [{ ...ev.burnBlock, log_id: ctx.logId }]);
      break;
    case 'facts':
      ctx.batch.addFacts(ev.facts);
      break;
    case 'signer':
      ctx.batch.addRows(ev.table, ev.rows.map((r) => ({ ...r, log_id: ctx.logId, received_at: new Date(ctx.receivedAt).toISOString().replace('T', ' ').replace('Z', '') })));
      break;
    case 'ignored':
      break;
  }
  flushMempoolChanges(ctx);
}
