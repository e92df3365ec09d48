// /extended/v1/stx_supply: the STX issued by the canonical chain (mints minus burns plus matured
// coinbase), at the tip or at a height, in the reference's current, plain-text and legacy formats.
// Everything issued counts as unlocked, as in the reference.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import type { Store } from '../../storage/client.ts';
import { supplyAt, tipHeight } from './queries.ts';
import { microStxToStx, percent, withThousands } from './format.ts';
import { STX_AMOUNT_TEXT, STX_SUPPLY, STX_SUPPLY_LEGACY, SUPPLY_QUERY } from './schemas.ts';

/** The reference's estimate of the total supply in 2050, in STX. */
const TOTAL_STX_YEAR_2050 = 2_318_000_000n;

interface SupplyInfo {
  unlockedPercent: string;
  totalStx: string;
  totalStxYear2050: string;
  unlockedStx: string;
  blockHeight: number;
}

async function supplyInfo(store: Store, height: number | undefined): Promise<SupplyInfo> {
  const blockHeight = height ?? (await tipHeight(store));
  const issued = await supplyAt(store, blockHeight);
  return {
    unlockedPercent: percent(issued, issued),
    totalStx: microStxToStx(issued),
    totalStxYear2050: microStxToStx(TOTAL_STX_YEAR_2050 * 1_000_000n),
    unlockedStx: microStxToStx(issued),
    blockHeight,
  };
}

const heightOf = (req: Parameters<RouteDef<ApiContext>['handler']>[0]) => queryOf<{ height?: number }>(req).height;

/** A deprecated plain-text route: one amount of the tip's supply. */
const plainText = (path: string, summary: string, pick: (s: SupplyInfo) => string): RouteDef<ApiContext> => ({
  method: 'get',
  path,
  summary,
  tags: ['Info'],
  responses: { 200: STX_AMOUNT_TEXT },
  handler: async (_req, ctx) => ({ status: 200, body: pick(await supplyInfo(ctx.store, undefined)) }),
});

export const supplyRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v1/stx_supply',
    summary: 'Get total and unlocked STX supply',
    tags: ['Info'],
    query: SUPPLY_QUERY,
    responses: { 200: STX_SUPPLY },
    handler: async (req, ctx) => {
      const s = await supplyInfo(ctx.store, heightOf(req));
      return { unlocked_percent: s.unlockedPercent, total_stx: s.totalStx, total_stx_year_2050: s.totalStxYear2050, unlocked_stx: s.unlockedStx, block_height: s.blockHeight };
    },
  },
  plainText('/extended/v1/stx_supply/total/plain', 'Get total STX supply in plain text format', (s) => s.totalStx),
  plainText('/extended/v1/stx_supply/circulating/plain', 'Get circulating STX supply in plain text format', (s) => s.unlockedStx),
  {
    method: 'get',
    path: '/extended/v1/stx_supply/legacy_format',
    summary: 'Get total and unlocked STX supply (results formatted the same as the legacy 1.0 API)',
    tags: ['Info'],
    query: SUPPLY_QUERY,
    responses: { 200: STX_SUPPLY_LEGACY },
    handler: async (req, ctx) => {
      const s = await supplyInfo(ctx.store, heightOf(req));
      return {
        unlockedPercent: s.unlockedPercent,
        totalStacks: s.totalStx,
        totalStacksFormatted: withThousands(s.totalStx),
        totalStacksYear2050: s.totalStxYear2050,
        totalStacksYear2050Formatted: withThousands(s.totalStxYear2050),
        unlockedSupply: s.unlockedStx,
        unlockedSupplyFormatted: withThousands(s.unlockedStx),
        blockHeight: s.blockHeight.toString(),
      };
    },
  },
];
