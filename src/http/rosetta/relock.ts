// STX locked again while already locked. The node reports a stack-extend or stack-increase (and
// their delegate- forms) with an STX lock event for the whole new amount, and the reference shows
// it as an stx_lock operation of that amount: counted with the first lock, the STX already locked
// would leave the spendable balance twice. The recorded answers fix those operations, so the part
// locked before is given back by the block's correcting transaction (corrections.ts): one
// stx_unlock per such lock, with the locking tx in its metadata.
import type { Store } from '../../storage/client.ts';
import { rows } from '../reads/query.ts';
import { CANONICAL_BLOCKS } from '../reads/canonical.ts';

/** A lock event of the block: which tx, where, whose STX, how many. */
export interface LockEvent {
  tx_id: string;
  tx_index: number;
  event_index: number;
  stacker: string;
  amount: bigint;
}

export interface Relock {
  tx_id: string;
  stacker: string;
  /** The STX that were already locked and are counted again by the lock event. */
  amount: bigint;
}

interface LockRow {
  principal: string;
  kind: string;
  op: string;
  amount: string;
  unlock: string;
  tx_id: string;
  block_height: number;
  tx_index: number;
  event_index: number;
}

const after = (a: Pick<LockRow, 'block_height' | 'tx_index' | 'event_index'>, b: Pick<LockRow, 'block_height' | 'tx_index' | 'event_index'>) =>
  a.block_height - b.block_height || a.tx_index - b.tx_index || a.event_index - b.event_index;

/** The stackers' PoX-2/3/4 operations up to `height` on the canonical chain (their lock history, read by principal). */
async function poxHistory(store: Store, stackers: string[], height: number): Promise<LockRow[]> {
  const list = await rows<Record<string, string>>(
    store,
    `SELECT principal, kind, asset_event_type AS op, toString(amount) AS amount, toString(unlock_height) AS unlock, tx_id, block_height, tx_index, event_index
     FROM principal_events
     WHERE principal IN {ps:Array(String)} AND kind IN ('pox2', 'pox3', 'pox4') AND block_height <= {h:UInt32} AND index_block_hash != ''
       AND (block_height, index_block_hash) IN (SELECT block_height, index_block_hash FROM ${CANONICAL_BLOCKS} WHERE block_height <= {h:UInt32})
     LIMIT 1 BY principal, tx_id, event_index, kind`,
    { ps: stackers, h: height },
  );
  return list.map((r) => ({ ...(r as unknown as LockRow), block_height: Number(r.block_height), tx_index: Number(r.tx_index), event_index: Number(r.event_index) }));
}

/** Lock events of the block at `height` (burn height `burn`) that lock again STX already locked. */
export async function relocksIn(store: Store, height: number, burn: number, locks: readonly LockEvent[]): Promise<Relock[]> {
  if (locks.length === 0) return [];
  const history = await poxHistory(store, [...new Set(locks.map((l) => l.stacker))], height);
  const out: Relock[] = [];
  for (const lock of locks) {
    const mine = history.filter((r) => r.principal === lock.stacker).sort(after);
    // The lock in force before this tx: the newest earlier operation, if it still holds at this burn height.
    const earlier = mine.filter((r) => r.block_height < height || (r.block_height === height && r.tx_index < lock.tx_index)).at(-1);
    const before = earlier && earlier.op !== 'handle-unlock' && BigInt(earlier.unlock) >= BigInt(burn) ? BigInt(earlier.amount) : 0n;
    // What this tx leaves locked: its own PoX operation's amount (else the event's).
    const own = mine.filter((r) => r.tx_id === lock.tx_id).at(-1);
    const now = own ? BigInt(own.amount) : lock.amount;
    const twice = before + lock.amount - now;
    if (twice > 0n) out.push({ tx_id: lock.tx_id, stacker: lock.stacker, amount: twice });
  }
  return out;
}
