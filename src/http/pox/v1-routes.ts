// /extended/v1/:pox (pox2, pox3, pox4): PoX operations as the boot contracts print them (latest, by
// tx, by stacker) and a pool's current delegations; the legacy /extended/v1/poxN_events paths
// redirect to them.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { httpError, notFound } from '../errors.ts';
import { chainIsMainnet } from '../reads/network.ts';
import { limitOffset } from '../params.ts';
import { canonicalPlacements } from '../tx/tx-object.ts';
import { isValidPrincipal } from '../../stacks/codec/c32.ts';
import { tipHeight } from '../tx/queries.ts';
import { canonicalBlockAt, poolDelegationEvents, poxEventsOfStacker, poxEventsOfTx, poxEventsPage, type PoxEventRow, type PoxVersion } from './queries.ts';
import { formatPoxEvent, parseData, poxAddrOf } from './format.ts';
import { REDIRECT } from '../schema-home.ts';
import { POOL_DELEGATIONS, POX_EVENT_LIST, POX_EVENTS, POX_PARAMS, POX_POOL_PARAMS, POX_STACKER_PARAMS, POX_TX_PARAMS } from './schemas.ts';

type Page = { limit: number; offset: number };

/** The reference's check of a hex tx id (0x prefix, even length, hex digits). */
function checkHexInput(hash: string): void {
  if (!hash.startsWith('0x')) throw httpError(400, 'Hex string is missing the "0x" prefix');
  if (hash.length % 2 !== 0) throw httpError(400, 'Hex string is an odd number of digits');
  if (!/^[0-9a-fA-F]*$/.test(hash.slice(2))) throw httpError(400, 'Invalid hash characters');
}


/** A pool's members: each stacker's latest delegation naming the pool, unless revoked or expired. */
function currentDelegations(events: PoxEventRow[], burnHeight: number, mainnet: boolean) {
  const latest = new Map<string, { row: PoxEventRow; unlock: bigint | null }>();
  for (const row of events) {
    const data = parseData(row);
    const unlock = typeof data['unlock-burn-height'] === 'string' ? BigInt(data['unlock-burn-height']) : null;
    if (unlock !== null && unlock <= BigInt(burnHeight)) continue;
    // Rows come newest first: the first one per stacker is its latest.
    if (!latest.has(row.stacker)) latest.set(row.stacker, { row, unlock });
  }
  return [...latest.values()]
    .filter(({ row }) => row.name === 'delegate-stx')
    .map(({ row, unlock }) => {
      const data = parseData(row);
      const { pox_addr } = poxAddrOf(data, mainnet);
      return {
        stacker: row.stacker,
        ...(pox_addr ? { pox_addr } : {}),
        amount_ustx: String(data['amount-ustx'] ?? '0'),
        ...(unlock ? { burn_block_unlock_height: Number(unlock) } : {}),
        block_height: row.block_height,
        tx_id: row.tx_id,
      };
    });
}

const LEGACY: Array<[string, string]> = [
  ['', '/events'],
  ['/tx/:tx_id', '/tx/:tx_id'],
  ['/stacker/:principal', '/stacker/:principal'],
  ['/:pool_principal/delegations', '/:pool_principal/delegations'],
];

/** /extended/v1/poxN_events[/…] -> /extended/v1/poxN/events (or the same sub-path), as the reference redirects. */
const legacyRoutes: RouteDef<ApiContext>[] = ['pox2', 'pox3', 'pox4'].flatMap((pox) =>
  LEGACY.map(([from, to]) => ({
    method: 'get' as const,
    path: `/extended/v1/${pox}_events${from}`,
    summary: `Legacy path of /extended/v1/${pox}${to}`,
    description: `Redirects (302) to /extended/v1/${pox}${to}.`,
    tags: ['Stacking'],
    responses: { 302: REDIRECT },
    params: { type: 'object', properties: Object.fromEntries((from.match(/:(\w+)/g) ?? []).map((p) => [p.slice(1), { type: 'string' }])) },
    handler: async (req) => {
      const target = to.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(req.params[name] ?? ''));
      return { status: 302, headers: { location: `/extended/v1/${pox}${target}${req.rawQuery ? `?${req.rawQuery}` : ''}` }, body: '' };
    },
  })),
);

export const poxV1Routes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v1/:pox/events',
    summary: 'Get latest PoX events',
    tags: ['Stacking'],
    params: POX_PARAMS,
    query: limitOffset(96, 200),
    responses: { 200: POX_EVENT_LIST },
    handler: async (req, ctx) => {
      const { limit, offset } = queryOf<Page>(req);
      const mainnet = await chainIsMainnet(ctx);
      const list = await poxEventsPage(ctx.store, req.params.pox as PoxVersion, limit, offset);
      return { limit, offset, results: list.map((r) => formatPoxEvent(r, mainnet)) };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/:pox/tx/:tx_id',
    summary: 'Get PoX events for a transaction',
    tags: ['Stacking'],
    params: POX_TX_PARAMS,
    responses: { 200: POX_EVENTS },
    handler: async (req, ctx) => {
      checkHexInput(req.params.tx_id);
      const placed = (await canonicalPlacements(ctx.store, [req.params.tx_id], true)).values().next().value;
      if (!placed) throw notFound('could not find transaction by ID');
      const [list, mainnet] = await Promise.all([poxEventsOfTx(ctx.store, req.params.pox as PoxVersion, placed), chainIsMainnet(ctx)]);
      return { results: list.map((r) => formatPoxEvent(r, mainnet)) };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/:pox/stacker/:principal',
    summary: 'Get events for a stacking address',
    tags: ['Stacking'],
    params: POX_STACKER_PARAMS,
    responses: { 200: POX_EVENTS },
    handler: async (req, ctx) => {
      if (!isValidPrincipal(req.params.principal)) throw httpError(400, `invalid STX address "${req.params.principal}"`);
      const [list, mainnet] = await Promise.all([poxEventsOfStacker(ctx.store, req.params.pox as PoxVersion, req.params.principal), chainIsMainnet(ctx)]);
      return { results: list.map((r) => formatPoxEvent(r, mainnet)) };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/:pox/:pool_principal/delegations',
    summary: 'Stacking pool members',
    tags: ['Stacking'],
    params: POX_POOL_PARAMS,
    query: limitOffset(100, 200, { after_block: { type: 'integer', minimum: 1 }, height: { type: 'integer', minimum: 1 }, unanchored: { type: 'boolean', default: false } }),
    responses: { 200: POOL_DELEGATIONS },
    handler: async (req, ctx) => {
      const pool = req.params.pool_principal;
      if (!isValidPrincipal(pool)) throw httpError(400, `invalid STX address "${pool}"`);
      const { limit, offset, after_block, height } = queryOf<Page & { after_block?: number; height?: number }>(req);
      const blockHeight = height ?? (await tipHeight(ctx.store));
      const block = await canonicalBlockAt(ctx.store, blockHeight);
      if (!block) throw notFound(`no block at height: ${blockHeight}`);
      const events = await poolDelegationEvents(ctx.store, req.params.pox as PoxVersion, pool, after_block ?? 0, blockHeight);
      const all = currentDelegations(events, block.burn_block_height, await chainIsMainnet(ctx));
      const results = all.slice(offset, offset + limit);
      return { limit, offset, total: results.length === 0 ? 0 : all.length, results };
    },
  },
  ...legacyRoutes,
];
