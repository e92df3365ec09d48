// Request checks shared by the address routes: the principal's checksum, and the height a request
// reads at (tip, tip + 1 with `unanchored`, an `until_block` height or hash, or a `height`).
import type { ApiContext } from '../context.ts';
import { httpError, notFound } from '../errors.ts';
import { isValidPrincipal } from '../../stacks/codec/index.ts';
import { blockByHash } from '../blocks/queries.ts';
import { chainTip, readHeight, type ReadHeight } from './scope.ts';

/** The pattern passed; the address must also decode (version, checksum, contract name). */
export function checkPrincipal(principal: string): string {
  if (!isValidPrincipal(principal)) throw httpError(400, `invalid STX address "${principal}"`);
  return principal;
}

const badRequest = (message: string) => httpError(400, message);

/** until_block: a block hash (0x…) or a height >= 1; not with unanchored. */
export function parseUntilBlock(untilBlock: string | undefined, unanchored: boolean | undefined): number | string | undefined {
  if (!untilBlock) return undefined;
  if (unanchored) throw badRequest(`can't handle both 'unanchored=true' and 'until_block' in the same request`);
  if (untilBlock.startsWith('0x')) return untilBlock;
  const h = Number.parseInt(untilBlock, 10);
  if (Number.isNaN(h) || h < 1) throw badRequest('Unexpected integer value for block height path parameter');
  return h;
}

/** The reference's read height for balance and list routes. */
export async function resolveReadHeight(ctx: Pick<ApiContext, 'store' | 'ingest'>, q: { until_block?: string; unanchored?: boolean }): Promise<ReadHeight> {
  const until = parseUntilBlock(q.until_block, q.unanchored);
  let height: number | undefined;
  if (typeof until === 'number') height = until;
  else if (typeof until === 'string') {
    const b = await blockByHash(ctx.store, 'block_hash', until.toLowerCase());
    if (!b) throw notFound('block not found with hash');
    height = b.block_height;
  }
  const tip = await chainTip(ctx);
  return readHeight(tip, height ?? tip.block_height + (q.unanchored ? 1 : 0));
}

/** List routes also take `height` (only txs at that height); not together with until_block. */
export async function resolveListHeight(
  ctx: Pick<ApiContext, 'store' | 'ingest'>,
  q: { height?: number; until_block?: string; unanchored?: boolean },
): Promise<{ at: ReadHeight; atHeight?: number }> {
  const until = parseUntilBlock(q.until_block, q.unanchored);
  // As the reference: height 0 is no filter.
  if (q.height) {
    if (until !== undefined) throw badRequest(`can't handle until_block and block_height in the same request`);
    const tip = await chainTip(ctx);
    return { at: readHeight(tip, q.height), atHeight: q.height };
  }
  return { at: await resolveReadHeight(ctx, q) };
}
