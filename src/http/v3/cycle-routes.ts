// /extended/v3/staking/cycles/current/signers (newer than v9.0.2: the reference's main branch) and
// /extended/v3/tokens/stx/supply. The current cycle is the newest with a reward set; its signers
// come from the PoX-4 reward set we keep (/extended/v2/pox). Signer manager bindings are PoX-5's,
// which our chains do not have: every signer lists none.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { poxV2Routes } from '../pox/v2-routes.ts';
import { supplyAt, tipHeight } from '../supply/queries.ts';
import { askTwin, twinRoute } from './twin.ts';
import { bodyOf } from './queries.ts';
import { keysetPage } from './keyset.ts';
import { cursorQuery } from './params.ts';
import { v3Schema } from './schemas.ts';

const V2_CYCLES = twinRoute(poxV2Routes, '/extended/v2/pox/cycles');
const V2_CYCLE_SIGNERS = twinRoute(poxV2Routes, '/extended/v2/pox/cycles/:cycle_number/signers');

/** The reference's estimate of the total supply in 2050, in micro-STX. */
const TOTAL_MICRO_STX_2050 = (2_318_000_000n * 1_000_000n).toString();

interface V2Signer {
  signing_key: string;
  weight: number;
  stacked_amount: string;
  weight_percent: number;
  stacked_amount_percent: number;
}

/** Weight descending, then signing key. */
const bySigningWeight = (a: { weight: number; signing_key: string }, b: { weight: number; signing_key: string }) => b.weight - a.weight || (a.signing_key < b.signing_key ? -1 : a.signing_key > b.signing_key ? 1 : 0);

export const v3CycleRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v3/staking/cycles/:cycle_number/signers',
    summary: 'Get cycle signers',
    description: "The signer set of the current PoX cycle: each signer's weight and staked STX, by cursor (the signing key).",
    operationId: 'get_cycle_signers',
    tags: ['Staking'],
    params: { type: 'object', properties: { cycle_number: { const: 'current' } }, required: ['cycle_number'] },
    query: cursorQuery('^(0x)?[0-9a-fA-F]{66}$', { def: 100, max: 250 }),
    responses: { 200: v3Schema('CycleSignerList') },
    handler: async (req, ctx) => {
      const q = queryOf<{ limit: number; cursor?: string }>(req);
      const cycles = bodyOf<{ results: Array<{ cycle_number: number }> }>(await askTwin(V2_CYCLES, ctx, {}, { limit: 1 }));
      const cycle = cycles.results[0]?.cycle_number;
      if (cycle === undefined) throw notFound('No PoX cycles found');
      const signers: V2Signer[] = [];
      for (;;) {
        const page = bodyOf<{ total: number; results: V2Signer[] }>(await askTwin(V2_CYCLE_SIGNERS, ctx, { cycle_number: String(cycle) }, { offset: signers.length, limit: 250 }));
        signers.push(...page.results);
        if (page.results.length < 250) break;
      }
      signers.sort(bySigningWeight);
      const cursor = q.cursor && (q.cursor.startsWith('0x') ? q.cursor : `0x${q.cursor}`).toLowerCase();
      // As the reference: the cursor must be one of the cycle's signing keys.
      if (cursor && !signers.some((s) => s.signing_key === cursor)) throw notFound('Cursor not found');
      const page = keysetPage(signers, { limit: q.limit, cursor }, (s) => s.signing_key, (s, c) => bySigningWeight(s, signers.find((x) => x.signing_key === c)!) >= 0);
      return {
        ...page,
        results: page.results.map((s) => ({
          signing_key: s.signing_key,
          weight: { amount: s.weight, percent: s.weight_percent },
          staked_stx: { amount: s.stacked_amount, percent: s.stacked_amount_percent },
          signer_managers: [],
        })),
      };
    },
  },
  {
    method: 'get',
    path: '/extended/v3/tokens/stx/supply',
    summary: 'Get total STX supply',
    description: 'The liquid STX supply at the chain tip, in micro-STX: all STX minted plus matured miner rewards, minus burned STX.',
    operationId: 'get_stx_total_supply',
    tags: ['Info'],
    responses: { 200: v3Schema('StxSupply') },
    handler: async (_req, ctx) => ({ total: (await supplyAt(ctx.store, await tipHeight(ctx.store))).toString(), projected_total_2050: TOTAL_MICRO_STX_2050 }),
  },
];
