// The roles a principal plays in a tx (principal_txs.roles and the serving store's lists), which
// roles each reference list counts, and the stacking state a PoX operation leaves.
import type { PoxOp } from './pox-print.ts';

/** Bits of principal_txs.roles. */
export const ROLE = {
  /** The tx's origin (sender_address). */
  SENDER: 1,
  /** The sponsor of a sponsored tx. */
  SPONSOR: 2,
  /** Token-transfer recipient, called contract, or deployed contract. */
  TX_PARTY: 4,
  STX_EVENT: 8,
  FT_EVENT: 16,
  NFT_EVENT: 32,
  /** Named otherwise (STX lock, coinbase alt recipient, burnchain delegate): in no reference list. */
  OTHER: 64,
  /**
   * A boot receipt shown as block 1's tx. The reference relabels these txs and their events from
   * block 0 but not its address index, so its /transactions lists miss them (v2 finds them through
   * their events only).
   */
  BOOT: 128,
} as const;

/** Which rows a list counts: roles intersecting `any`; boot receipts only with roles in `boot`. */
export interface RoleFilter {
  any: number;
  boot: number;
}

/** True when a row with these roles is in the list. */
export const listsRow = (f: RoleFilter, roles: number): boolean => (roles & f.any) !== 0 && ((roles & ROLE.BOOT) === 0 || (roles & f.boot) !== 0);

/** Roles the reference's lists count (its v1 and v2 lists read an address index that misses boot receipts). */
const EVENTS = ROLE.STX_EVENT | ROLE.FT_EVENT | ROLE.NFT_EVENT;
export const V1_TX_ROLES: RoleFilter = { any: ROLE.SENDER | ROLE.SPONSOR | ROLE.TX_PARTY | ROLE.STX_EVENT, boot: 0 };
export const WITH_TRANSFERS_ROLES: RoleFilter = { any: ROLE.SENDER | ROLE.TX_PARTY | EVENTS, boot: 0xff };
export const SINGLE_WITH_TRANSFERS_ROLES: RoleFilter = { any: ROLE.SENDER | ROLE.TX_PARTY | ROLE.STX_EVENT, boot: 0xff };
export const V2_TX_ROLES: RoleFilter = { any: ROLE.SENDER | ROLE.SPONSOR | ROLE.TX_PARTY | EVENTS, boot: EVENTS };
/** Txs whose nonce is the principal's own (as origin or sponsor). */
export const OWN_TX_ROLES: RoleFilter = { any: ROLE.SENDER | ROLE.SPONSOR, boot: 0xff };

/** The send-many-memo contracts (mainnet, testnet): a print after an STX transfer is its memo. */
export const SEND_MANY_CONTRACTS = new Set(['SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE.send-many-memo', 'STR8P3RD1EHA8AA37ERSSSZSWKS9T2GYQFGXNA4C.send-many-memo']);

const dataField = (data: Record<string, unknown>, key: string): bigint | null => {
  const v = data[key];
  return typeof v === 'string' && /^\d+$/.test(v) ? BigInt(v) : null;
};

/**
 * The locked amount and burnchain unlock height a PoX operation leaves the stacker with. The boot
 * contracts print the state *before* the operation; the reference corrects it from the op's data
 * (stack-stx: the lock amount and unlock height; increase: adds; extend: the new unlock height).
 */
export function poxLockState(op: PoxOp): { locked: bigint; unlock: bigint } {
  let locked = BigInt(op.locked);
  let unlock = BigInt(op.burnchain_unlock_height);
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(op.data) as Record<string, unknown>;
  } catch {
    // keep the printed values
  }
  switch (op.name) {
    case 'stack-stx':
    case 'delegate-stack-stx':
      locked = dataField(data, 'lock-amount') ?? locked;
      unlock = dataField(data, 'unlock-burn-height') ?? unlock;
      break;
    case 'stack-increase':
    case 'delegate-stack-increase':
      locked += dataField(data, 'increase-by') ?? 0n;
      break;
    case 'stack-extend':
    case 'delegate-stack-extend':
      unlock = dataField(data, 'unlock-burn-height') ?? unlock;
      break;
    case 'delegate-stx':
      // An optional height: only a non-zero one replaces the printed value.
      unlock = dataField(data, 'unlock-burn-height') || unlock;
      break;
  }
  return { locked, unlock };
}
