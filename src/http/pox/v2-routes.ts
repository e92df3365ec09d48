// /extended/v2/pox/cycles: each cycle's reward set (from the Nakamoto block that announced it), its
// signers, and the stackers behind each signer (from the PoX-4 operations covering the cycle).
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { chainIsMainnet } from '../reads/network.ts';
import { limitOffset } from '../params.ts';
import { cycleKnown, poxCycle, poxCyclesPage, poxEventsCovering, poxSigners, signerKnown, type PoxEventRow, type PoxSignerRow } from './queries.ts';
import { parseData, poxAddrOf, signerAddress } from './format.ts';
import { poxLockState } from '../../stacks/roles.ts';
import { CYCLE_PARAMS, POX_CYCLE, POX_CYCLES, POX_SIGNER, POX_SIGNERS, POX_STACKERS, SIGNER_PARAMS } from './schemas.ts';

type Page = { limit: number; offset: number };

interface CycleStacker {
  stacker: string;
  signer_key: string | undefined;
  locked: bigint;
  pox_addr: string | null;
  stacker_type: 'solo' | 'pooled';
}

const SOLO = new Set(['stack-stx', 'stack-extend']);
const POOLED = new Set(['delegate-stack-stx', 'delegate-stack-increase', 'delegate-stack-extend']);
const COMMIT = new Set(['stack-aggregation-commit', 'stack-aggregation-commit-indexed']);

const signerKey = (data: Record<string, unknown> | undefined): string | undefined => (typeof data?.['signer-key'] === 'string' ? data['signer-key'] : undefined);

const cycleId = (data: Record<string, unknown>, key: string): number | null => (typeof data[key] === 'string' ? Number(data[key]) : null);

/** The latest of `rows` (newest first) per stacker among those matching. */
function latestPerStacker(rows: PoxEventRow[], keep: (row: PoxEventRow, data: Record<string, unknown>) => boolean): Map<string, { row: PoxEventRow; data: Record<string, unknown> }> {
  const out = new Map<string, { row: PoxEventRow; data: Record<string, unknown> }>();
  for (const row of rows) {
    const data = parseData(row);
    if (!out.has(row.stacker) && keep(row, data)) out.set(row.stacker, { row, data });
  }
  return out;
}

/**
 * The stackers locked in `cycle`, as the reference finds them: a solo stacker's latest stack-stx /
 * stack-extend covering the cycle gives its signer key; a pool member's latest delegate-stack-*
 * covering it, with the key of its pool's latest aggregation commit for the cycle. (The reference
 * names 'stacks-increase', so a stack-increase never counts; nor here.)
 */
function cycleStackers(events: PoxEventRow[], cycle: number, mainnet: boolean): CycleStacker[] {
  const covers = (data: Record<string, unknown>) => (cycleId(data, 'start-cycle-id') ?? Infinity) <= cycle && (cycleId(data, 'end-cycle-id') ?? -Infinity) > cycle;
  const commits = latestPerStacker(events, (row, data) => COMMIT.has(row.name) && cycleId(data, 'start-cycle-id') === cycle && cycleId(data, 'end-cycle-id') === cycle + 1);
  const stacker = (type: 'solo' | 'pooled') => ({ row, data }: { row: PoxEventRow; data: Record<string, unknown> }): CycleStacker => ({
    stacker: row.stacker,
    signer_key: signerKey(type === 'solo' ? data : commits.get(String(data.delegator))?.data),
    locked: poxLockState(row).locked,
    pox_addr: poxAddrOf(data, mainnet).pox_addr,
    stacker_type: type,
  });
  return [
    ...[...latestPerStacker(events, (row, data) => POOLED.has(row.name) && covers(data)).values()].map(stacker('pooled')),
    ...[...latestPerStacker(events, (row, data) => SOLO.has(row.name) && covers(data)).values()].map(stacker('solo')),
  ];
}

function formatSigner(s: PoxSignerRow, stackers: CycleStacker[], mainnet: boolean) {
  const mine = stackers.filter((x) => x.signer_key === s.signing_key);
  return {
    signing_key: s.signing_key,
    signer_address: signerAddress(s.signing_key, mainnet),
    weight: s.weight,
    stacked_amount: s.stacked_amount,
    weight_percent: s.weight_percent,
    stacked_amount_percent: s.stacked_amount_percent,
    solo_stacker_count: new Set(mine.filter((x) => x.stacker_type === 'solo').map((x) => x.stacker)).size,
    pooled_stacker_count: new Set(mine.filter((x) => x.stacker_type === 'pooled').map((x) => x.stacker)).size,
  };
}

const signerKeyOf = (k: string) => (k.startsWith('0x') ? k : `0x${k}`);

async function requireCycle(ctx: ApiContext, cycle: number): Promise<void> {
  if (!(await cycleKnown(ctx.store, cycle))) throw notFound('PoX cycle not found');
}

export const poxV2Routes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v2/pox/cycles',
    summary: 'Get PoX cycles',
    tags: ['Proof of Transfer'],
    query: limitOffset(20, 60),
    responses: { 200: POX_CYCLES },
    handler: async (req, ctx) => {
      const { limit, offset } = queryOf<Page>(req);
      const { total, results } = await poxCyclesPage(ctx.store, limit, offset);
      return { limit, offset, total, results };
    },
  },
  {
    method: 'get',
    path: '/extended/v2/pox/cycles/:cycle_number',
    summary: 'Get PoX cycle',
    tags: ['Proof of Transfer'],
    params: CYCLE_PARAMS,
    responses: { 200: POX_CYCLE },
    handler: async (req, ctx) => {
      const cycle = await poxCycle(ctx.store, Number(req.params.cycle_number));
      if (!cycle) throw notFound('Not found');
      return cycle;
    },
  },
  {
    method: 'get',
    path: '/extended/v2/pox/cycles/:cycle_number/signers',
    summary: 'Get signers in PoX cycle',
    tags: ['Proof of Transfer'],
    params: CYCLE_PARAMS,
    query: limitOffset(100, 250),
    responses: { 200: POX_SIGNERS },
    handler: async (req, ctx) => {
      const cycle = Number(req.params.cycle_number);
      const { limit, offset } = queryOf<Page>(req);
      await requireCycle(ctx, cycle);
      const [signers, events, mainnet] = await Promise.all([poxSigners(ctx.store, cycle), poxEventsCovering(ctx.store, cycle), chainIsMainnet(ctx)]);
      const stackers = cycleStackers(events, cycle, mainnet);
      const results = signers.slice(offset, offset + limit).map((s) => formatSigner(s, stackers, mainnet));
      return { limit, offset, total: results.length === 0 ? 0 : signers.length, results };
    },
  },
  {
    method: 'get',
    path: '/extended/v2/pox/cycles/:cycle_number/signers/:signer_key',
    summary: 'Get signer in PoX cycle',
    tags: ['Proof of Transfer'],
    params: SIGNER_PARAMS,
    responses: { 200: POX_SIGNER },
    handler: async (req, ctx) => {
      const cycle = Number(req.params.cycle_number);
      await requireCycle(ctx, cycle);
      const [signer] = await poxSigners(ctx.store, cycle, signerKeyOf(req.params.signer_key));
      if (!signer) throw notFound('Not found');
      const mainnet = await chainIsMainnet(ctx);
      return formatSigner(signer, cycleStackers(await poxEventsCovering(ctx.store, cycle), cycle, mainnet), mainnet);
    },
  },
  {
    method: 'get',
    path: '/extended/v2/pox/cycles/:cycle_number/signers/:signer_key/stackers',
    summary: 'Get stackers for signer in PoX cycle',
    tags: ['Proof of Transfer'],
    params: SIGNER_PARAMS,
    query: limitOffset(100, 200),
    responses: { 200: POX_STACKERS },
    handler: async (req, ctx) => {
      const cycle = Number(req.params.cycle_number);
      const key = signerKeyOf(req.params.signer_key);
      const { limit, offset } = queryOf<Page>(req);
      await requireCycle(ctx, cycle);
      if (!(await signerKnown(ctx.store, cycle, key))) throw notFound('PoX cycle signer not found');
      const [canonical] = await poxSigners(ctx.store, cycle, key);
      const all = canonical
        ? cycleStackers(await poxEventsCovering(ctx.store, cycle), cycle, await chainIsMainnet(ctx))
            .filter((s) => s.signer_key === key)
            .sort((a, b) => (a.locked === b.locked ? (a.stacker < b.stacker ? -1 : a.stacker > b.stacker ? 1 : 0) : a.locked > b.locked ? -1 : 1))
        : [];
      const results = all.slice(offset, offset + limit).map((s) => ({ stacker_address: s.stacker, stacked_amount: s.locked.toString(), pox_address: s.pox_addr ?? '', stacker_type: s.stacker_type }));
      return { limit, offset, total: results.length === 0 ? 0 : all.length, results };
    },
  },
];
