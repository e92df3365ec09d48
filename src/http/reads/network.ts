// Which network the stored chain belongs to, for answers that encode addresses per network (PoX
// reward addresses, signer addresses): read from the boot contracts the chain deployed (mainnet's
// SP000… or testnet's ST000… address), else the configured chain id.
import type { ApiContext } from '../context.ts';
import { firstRow } from './query.ts';

const BOOT = { mainnet: 'SP000000000000000000002Q6VF78.pox', testnet: 'ST000000000000000000002AMW42H.pox' };

const known = new WeakMap<object, boolean>();

export async function chainIsMainnet(ctx: Pick<ApiContext, 'store' | 'config'>): Promise<boolean> {
  const cached = known.get(ctx.store);
  if (cached !== undefined) return cached;
  const r = await firstRow<{ contract_id: string }>(ctx.store, `SELECT contract_id FROM contracts WHERE contract_id IN {ids:Array(String)} LIMIT 1`, { ids: [BOOT.mainnet, BOOT.testnet] });
  if (!r) return ctx.config.isMainnet;
  const mainnet = r.contract_id === BOOT.mainnet;
  known.set(ctx.store, mainnet);
  return mainnet;
}
