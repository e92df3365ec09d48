// Per-block facts of the secondary route families, decoded beside a block's main rows (decode-block.ts)
// from the same payload: the STX the block issues (the reference's supply). The block event carries
// the amount for the processor's running supply; the fact row lets it undo the block on a reorg.
import { RowSet } from './rows.ts';
import type { DecodedEvent } from './decoded.ts';
import type { NodeBlock } from './decode-block.ts';
import { u128Amount, type NodeEvent } from './decode-tx-events.ts';

type BlockEvent = Extract<DecodedEvent, { kind: 'block' }>;

/** Events that took effect: committed, of a successful tx (as the event tables keep them). */
export function effectiveEvents(b: NodeBlock): NodeEvent[] {
  const ok = new Set(b.transactions.filter((t) => t.status === 'success').map((t) => t.txid));
  return b.events.filter((e) => e.committed !== false && ok.has(e.txid));
}

/**
 * STX the block issues, as the reference counts supply: STX minted minus STX burned by its events
 * (block 1 with the boot block's too), plus the coinbase of the miner rewards it matures.
 */
export function issuedStx(b: NodeBlock, boot?: NodeBlock): bigint {
  let issued = 0n;
  for (const block of boot ? [b, boot] : [b]) {
    for (const e of effectiveEvents(block)) {
      const body = e[e.type] as { amount?: unknown } | undefined;
      if (e.type === 'stx_mint_event') issued += u128Amount(body?.amount);
      else if (e.type === 'stx_burn_event') issued -= u128Amount(body?.amount);
    }
  }
  for (const r of b.matured_miner_rewards ?? []) issued += u128Amount(r.coinbase_amount ?? '0');
  return issued;
}

/** The block event with its extra facts (serialized with the rest) and its supply change. */
export function withBlockExtras(ev: DecodedEvent, b: NodeBlock, boot?: NodeBlock): DecodedEvent {
  if (ev.kind !== 'block') return ev;
  const rows = new RowSet();
  const supply = issuedStx(b, boot);
  rows.add('supply_changes', { index_block_hash: b.index_block_hash, block_height: b.block_height, amount: supply });
  return { ...ev, supply: supply.toString(), facts: { ...ev.facts, ...rows.serialize() } } satisfies BlockEvent;
}
