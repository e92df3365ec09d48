// Per-block facts of the secondary route families, decoded beside a block's main rows (decode-block.ts)
// from the same payload: the STX the block issues (the reference's supply) and the counts it changes
// (NFT mints per asset), which the block event carries for the processor's running totals (a reorg
// decodes the block again to undo them); the PoX reward set a Nakamoto block announces for a cycle,
// the function names of the contracts it deploys (the index /contract/by_trait reads), and its BNS
// names and namespaces (bns.ts).
import { RowSet } from './rows.ts';
import type { CountDelta, DecodedText } from './decoded.ts';
import type { NodeBlock } from './decode-block.ts';
import { u128Amount, type NodeEvent } from './decode-tx-events.ts';
import { summarizeTx } from '../stacks/tx-summary.ts';
import { writeBnsRows, writeSubdomainRows } from './bns.ts';

type BlockEvent = Extract<DecodedText, { kind: 'block' }>;

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

interface NodeRewardSet {
  signers?: Array<{ signing_key: string; weight: number; stacked_amt: string }> | null;
}

/** Percent as the reference stores it: BigNumber division (20 decimals, half up) times 100, as a double. */
function bigPercent(part: bigint, whole: bigint): number {
  if (whole === 0n) return 0;
  const scale = 10n ** 20n;
  const q = (part * scale * 2n + whole) / (2n * whole);
  const hundred = (q * 100n).toString().padStart(21, '0');
  return Number(`${hundred.slice(0, -20)}.${hundred.slice(-20)}`);
}

/** The cycle's reward set (signers, their weights and stacked amounts) as pox_cycles / pox_signers rows. */
export function writeRewardSet(rows: RowSet, b: NodeBlock): void {
  const set = b.reward_set as NodeRewardSet | null | undefined;
  if (!set || b.cycle_number == null) return;
  const signers = (set.signers ?? []).map((s) => ({ signing_key: `0x${s.signing_key.replace(/^0x/, '')}`, weight: s.weight, stacked: u128Amount(s.stacked_amt) }));
  const totalWeight = signers.reduce((n, s) => n + s.weight, 0);
  const totalStacked = signers.reduce((n, s) => n + s.stacked, 0n);
  const at = { cycle_number: b.cycle_number, index_block_hash: b.index_block_hash, block_height: b.block_height };
  rows.add('pox_cycles', { ...at, total_weight: totalWeight, total_stacked_amount: totalStacked, total_signers: signers.length });
  for (const s of signers) {
    rows.add('pox_signers', {
      ...at,
      signing_key: s.signing_key,
      weight: s.weight,
      stacked_amount: s.stacked,
      weight_percent: totalWeight === 0 ? 0 : (s.weight / totalWeight) * 100,
      stacked_amount_percent: bigPercent(s.stacked, totalStacked),
    });
  }
}

/** One contract_functions row per function of each contract the block deployed successfully. */
export function writeContractFunctions(rows: RowSet, b: NodeBlock): void {
  for (const tx of b.transactions) {
    const abi = (tx.contract_interface ?? tx.contract_abi) as { functions?: Array<{ name?: unknown }> } | null | undefined;
    if (tx.status !== 'success' || !abi || !Array.isArray(abi.functions) || tx.raw_tx === '0x00') continue;
    const contract_id = summarizeTx(tx.raw_tx, tx.txid).contract_id;
    for (const name of new Set(abi.functions.map((f) => String(f?.name ?? '')))) {
      rows.add('contract_functions', { name, contract_id, tx_id: tx.txid, index_block_hash: b.index_block_hash, microblock_hash: tx.microblock_hash ?? '', block_height: b.block_height });
    }
  }
}

/** Per-block changes of the running event counts: NFT mints per asset (see counts.ts in the processor). */
export function countChanges(b: NodeBlock, boot?: NodeBlock): CountDelta[] {
  const n = new Map<string, number>();
  for (const block of boot ? [b, boot] : [b]) {
    for (const e of effectiveEvents(block)) {
      if (e.type !== 'nft_mint_event') continue;
      const asset = String((e.nft_mint_event as { asset_identifier?: unknown } | undefined)?.asset_identifier ?? '');
      n.set(asset, (n.get(asset) ?? 0) + 1);
    }
  }
  return [...n].map(([key, count]) => ({ name: 'nft_mints', key, n: count }));
}

/** The block event with its extra facts (serialized with the rest) and its supply change. */
export function withBlockExtras(ev: DecodedText, b: NodeBlock, boot?: NodeBlock): DecodedText {
  if (ev.kind !== 'block') return ev;
  const rows = new RowSet();
  const supply = issuedStx(b, boot);
  const counts = countChanges(b, boot);
  writeRewardSet(rows, b);
  writeContractFunctions(rows, b);
  if (boot) writeContractFunctions(rows, { ...boot, index_block_hash: b.index_block_hash, block_height: b.block_height });
  writeBnsRows(rows, b);
  return { ...ev, supply: supply.toString(), counts, facts: { ...ev.facts, ...rows.serialize() } } satisfies BlockEvent;
}

/** /attachments/new with the BNS subdomains its name-update zonefiles list. */
export function withAttachmentExtras(ev: DecodedText, list: Parameters<typeof writeSubdomainRows>[1]): DecodedText {
  if (ev.kind !== 'facts') return ev;
  const rows = new RowSet();
  writeSubdomainRows(rows, list);
  return { ...ev, facts: { ...ev.facts, ...rows.serialize() } };
}
