// A name's state as the reference derives it from its operations (oldest first): the owner and
// zonefile hash of the latest; the expiry from the namespace's lifetime at registration (a transfer
// keeps the previous expiry); an operation without a zonefile hash (a bare renewal) keeps the last one.
import type { NameRow, NamespaceRow } from './queries.ts';

export interface NameState {
  latest: NameRow;
  /** The operation whose zonefile the name shows. */
  zonefileOp: NameRow;
  expire_block: number;
}

export function nameState(history: readonly NameRow[], namespaces: readonly NamespaceRow[]): NameState | undefined {
  let state: NameState | undefined;
  for (const op of history) {
    const ns = namespaces.filter((n) => n.namespace_id === op.namespace_id && n.ready_block <= op.registered_at).sort((a, b) => b.ready_block - a.ready_block)[0];
    let expire_block = ns ? op.registered_at + ns.lifetime : 0;
    if (op.status === 'name-transfer' && state) expire_block = state.expire_block;
    state = { latest: op, zonefileOp: op.zonefile_hash === '' && state ? state.zonefileOp : op, expire_block };
  }
  return state && state.latest.status !== 'name-revoke' ? state : undefined;
}

/** "name.namespace" of "sub.name.namespace". */
export const parentName = (fqn: string): string => fqn.split('.').slice(-2).join('.');
