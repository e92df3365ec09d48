// Nonce conflicts in the mempool, as the reference API settles them: txs of one account with one
// nonce compete; a canonical mined tx with that nonce wins, else the highest fee (then the latest
// receipt). The others leave the pending set as dropped by fee replacement, naming the winner —
// whether or not the node ever reported a drop. Evaluated when txs are announced and when a block
// is mined, as the reference does.
//
// The account of a tx is its sponsor when sponsored, else its sender; a competitor names that
// account as sender or sponsor with the same (origin) nonce. Mined txs are matched by sender.
import type { ApplyContext } from './context.ts';
import { setMempool } from './context.ts';
import type { ChainState } from './chain-state.ts';

/** What a pending tx competes with. */
export interface NonceInfo {
  sender: string;
  sponsor: string;
  sponsored: boolean;
  nonce: number;
  fee: bigint;
  /** Receipt time, s. */
  receipt: number;
}

const groupKey = (address: string, nonce: number) => `${address}|${nonce}`;
export const accountOf = (t: Pick<NonceInfo, 'sender' | 'sponsor' | 'sponsored'>): string => (t.sponsored && t.sponsor ? t.sponsor : t.sender);

/** The pending set by (account, nonce), for both the sender and the sponsor of each tx. */
export class PendingNonces {
  readonly info = new Map<string, NonceInfo>();
  private readonly byGroup = new Map<string, Set<string>>();

  add(txId: string, t: NonceInfo): void {
    this.remove(txId);
    this.info.set(txId, t);
    for (const a of new Set([t.sender, t.sponsor].filter(Boolean))) {
      const key = groupKey(a, t.nonce);
      let set = this.byGroup.get(key);
      if (!set) this.byGroup.set(key, (set = new Set()));
      set.add(txId);
    }
  }

  remove(txId: string): void {
    const t = this.info.get(txId);
    if (!t) return;
    this.info.delete(txId);
    for (const a of [t.sender, t.sponsor]) {
      const key = groupKey(a, t.nonce);
      const set = this.byGroup.get(key);
      set?.delete(txId);
      if (set?.size === 0) this.byGroup.delete(key);
    }
  }

  group(address: string, nonce: number): string[] {
    return [...(this.byGroup.get(groupKey(address, nonce)) ?? [])];
  }
}

/** Pending txs (after this entry's changes so far) competing in the group. */
function pendingIn(ctx: ApplyContext, address: string, nonce: number): string[] {
  const { state } = ctx;
  return state.pendingNonces.group(address, nonce).filter((id) => {
    const change = ctx.mempool.get(id);
    return change ? change.status === 'pending' : state.mempoolPending.has(id);
  });
}

/** Settles the groups of txs just announced (their info is in `announced`). */
export function settleAnnounced(ctx: ApplyContext, announced: Map<string, NonceInfo>): void {
  const groups = new Map<string, { address: string; nonce: number }>();
  for (const t of announced.values()) groups.set(groupKey(accountOf(t), t.nonce), { address: accountOf(t), nonce: t.nonce });
  for (const { address, nonce } of groups.values()) {
    const members = [...new Set([...pendingIn(ctx, address, nonce), ...[...announced].filter(([, t]) => accountOf(t) === address && t.nonce === nonce).map(([id]) => id)])];
    const info = (id: string) => announced.get(id) ?? ctx.state.pendingNonces.info.get(id);
    const mined = ctx.minedNonce(address, nonce);
    const winner =
      mined ??
      members.reduce((best, id) => {
        const a = info(id)!;
        const b = info(best)!;
        return a.fee > b.fee || (a.fee === b.fee && a.receipt > b.receipt) ? id : best;
      }, members[0]);
    for (const id of members) if (id !== winner) setMempool(ctx, id, 'dropped', { reason: 'ReplaceByFee', replaced_by: winner });
  }
}

/** A canonical block's txs take their nonces: pending competitors are replaced by them. */
export function settleMined(ctx: ApplyContext, txs: ReadonlyArray<{ tx_id: string; sender_address: string; sponsor_address: string; nonce: string; raw_tx: string }>): void {
  for (const t of txs) {
    if (t.raw_tx === '0x00') continue;
    const nonce = Number(t.nonce);
    const address = t.sponsor_address || t.sender_address;
    for (const id of pendingIn(ctx, address, nonce)) if (id !== t.tx_id) setMempool(ctx, id, 'dropped', { reason: 'ReplaceByFee', replaced_by: t.tx_id });
  }
}

/** Canonical txs' (sender, nonce) of the blocks the chain state remembers, newest wins. */
export function rememberMinedNonces(state: ChainState, txs: ReadonlyArray<{ tx_id: string; sender_address: string; nonce: string; raw_tx: string }>): string[] {
  const keys: string[] = [];
  for (const t of txs) {
    if (t.raw_tx === '0x00' || !t.sender_address) continue;
    const key = groupKey(t.sender_address, Number(t.nonce));
    state.minedNonces.set(key, t.tx_id);
    keys.push(key);
  }
  return keys;
}

export const minedNonceKey = groupKey;
