// Per-principal facts for the serving store, from the address-index rows a payload decoded into
// (principal_txs, principal_events): what each principal did in each tx, its STX locks and PoX
// operations.
import type { Row } from '../rows.ts';
import { ROLE } from '../../stacks/roles.ts';
import { assetEventCode, type AssetEvent, type LockFact, type PrincipalTxFact } from '../../serving/docs.ts';
import { packFact } from '../../serving/principal-fact.ts';
import type { ServedTx } from '../../serving/input.ts';
import type { ServedLock, ServedPrincipalTx } from '../../serving/input.ts';

/** The NFTs a principal sent and received in one tx, per asset (as the reference counts holdings);
 *  undefined when none (most txs: no empty array to copy to the processor and keep there). */
function nftCounts(principal: string, events: readonly AssetEvent[]): Array<[string, number, number]> | undefined {
  const out = new Map<string, [string, number, number]>();
  for (const e of events) {
    if (e.kind !== 'nft') continue;
    let c = out.get(e.asset_identifier);
    if (!c) out.set(e.asset_identifier, (c = [e.asset_identifier, 0, 0]));
    if (e.sender === principal) c[1]++;
    if (e.recipient === principal) c[2]++;
  }
  return out.size === 0 ? undefined : [...out.values()];
}

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
const keyOf = (r: Row): string => `${r.tx_id}|${r.index_block_hash}|${r.microblock_hash}`;
const LOCK_KINDS = new Set(['stx_lock', 'pox2', 'pox3', 'pox4']);
const ASSET_KINDS = new Set(['stx', 'ft', 'nft']);

export function principalFacts(captured: ReadonlyMap<string, Row[]>, txs: readonly ServedTx[]): { principalTxs: ServedPrincipalTx[]; locks: ServedLock[] } {
  const txIndex = new Map<string, number>();
  txs.forEach((t, i) => txIndex.set(`${t.doc.tx_id}|${t.doc.index_block_hash}|${t.doc.microblock_hash}`, i));
  const assetEvents = new Map<string, AssetEvent[]>();
  const locks: ServedLock[] = [];
  for (const r of captured.get('principal_events') ?? []) {
    const kind = str(r.kind);
    if (ASSET_KINDS.has(kind)) {
      const key = `${r.principal}|${keyOf(r)}`;
      let list = assetEvents.get(key);
      if (!list) assetEvents.set(key, (list = []));
      list.push({
        event_index: Number(r.event_index),
        kind: kind as AssetEvent['kind'],
        asset_event_type: str(r.asset_event_type),
        asset_identifier: str(r.asset_identifier),
        sender: str(r.sender),
        recipient: str(r.recipient),
        amount: str(r.amount ?? 0),
        value: str(r.value),
      });
    } else if (LOCK_KINDS.has(kind)) {
      locks.push({
        principal: str(r.principal),
        microblock_sequence: Number(r.microblock_sequence),
        tx_index: Number(r.tx_index),
        event_index: Number(r.event_index),
        fact: {
          kind: kind as LockFact['kind'],
          asset_event_type: str(r.asset_event_type),
          tx_id: str(r.tx_id),
          index_block_hash: str(r.index_block_hash),
          microblock_hash: str(r.microblock_hash),
          block_height: Number(r.block_height),
          amount: str(r.amount ?? 0),
          unlock_height: str(r.unlock_height ?? 0),
        },
      });
    }
  }
  const principalTxs: ServedPrincipalTx[] = [];
  for (const r of captured.get('principal_txs') ?? []) {
    const tx = txIndex.get(keyOf(r));
    if (tx === undefined) continue;
    const principal = str(r.principal);
    const roles = Number(r.roles);
    const served = txs[tx];
    const events = (assetEvents.get(`${principal}|${keyOf(r)}`) ?? []).sort((a, b) => a.event_index - b.event_index);
    const fact: PrincipalTxFact = {
      roles,
      stx_sent: str(r.stx_sent),
      stx_received: str(r.stx_received),
      events: events.map((e) => [e.event_index, assetEventCode(e.kind, e.asset_event_type)]),
    };
    if (roles & ROLE.SENDER) fact.nonce = served.nonce;
    if (roles & ROLE.SPONSOR && served.sponsor_nonce !== undefined) fact.sponsor_nonce = served.sponsor_nonce;
    principalTxs.push({ principal, tx, roles, nft: nftCounts(principal, events), packed: packFact(fact) });
  }
  return { principalTxs, locks };
}
