// Supply reads: the running supply (sql/0005_route_reads.sql) summed up to a height, and the tip.
import type { Store } from '../../storage/client.ts';
import { firstRow } from '../reads/query.ts';
import { tipHeight } from '../tx/queries.ts';

export { tipHeight };

/** microSTX issued by the canonical chain up to and including `height`. */
export async function supplyAt(store: Store, height: number): Promise<bigint> {
  const r = await firstRow<{ amount: string }>(store, `SELECT toString(sum(amount)) AS amount FROM stx_supply WHERE block_height <= {h:UInt32}`, { h: height });
  return BigInt(r?.amount ?? '0');
}
