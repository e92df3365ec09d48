// /extended/v1/contract: a contract's deploy (source and ABI), its print events, and the contracts
// implementing a trait; /extended/v2/smart-contracts/status: the deploy status of a batch of ids.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { httpError, notFound } from '../errors.ts';
import { limitOffset } from '../params.ts';
import { formatEvent } from '../tx/events.ts';
import { canonicalContracts, contractDeploys, contractEventsPage, contractsWithAbi, contractsWithFunctions, deployStatuses } from './queries.ts';
import { formatContract, implementsTrait, traitFunctions } from './format.ts';
import { CONTRACT_EVENTS, CONTRACT_ID_PARAMS, CONTRACT_LIST, CONTRACT_STATUS_LIST, SMART_CONTRACT, STATUS_QUERY, TRAIT_QUERY } from './schemas.ts';

type Page = { limit: number; offset: number };

function parseTrait(text: string): { functions: Array<Record<string, unknown>> } {
  let trait: unknown;
  try {
    trait = JSON.parse(text);
  } catch {
    throw httpError(400, `Invalid 'trait_abi': not JSON`);
  }
  if (!trait || typeof trait !== 'object' || !Array.isArray((trait as { functions?: unknown }).functions)) throw httpError(400, `Invalid 'trait_abi'`);
  return trait as { functions: Array<Record<string, unknown>> };
}

export const contractRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v1/contract/by_trait',
    summary: 'Get contracts by trait',
    tags: ['Smart Contracts'],
    query: TRAIT_QUERY,
    responses: { 200: CONTRACT_LIST },
    handler: async (req, ctx) => {
      const { trait_abi, limit, offset } = queryOf<Page & { trait_abi: string }>(req);
      const wanted = traitFunctions(parseTrait(trait_abi));
      const names = wanted.map((f) => String((f as { name: unknown }).name));
      const candidates = names.length ? await contractsWithFunctions(ctx.store, names) : await contractsWithAbi(ctx.store);
      const matching = (await canonicalContracts(ctx.store, candidates))
        .filter((c) => implementsTrait(c.abi, wanted))
        // Newest first; the contract id makes the order total.
        .sort((a, b) => b.block_height - a.block_height || (a.contract_id < b.contract_id ? -1 : 1));
      const results = matching.slice(offset, offset + limit).map((c) => formatContract(c, true));
      if (results.length === 0) throw notFound('cannot find contract for this trait');
      return { limit, offset, results };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/contract/:contract_id',
    summary: 'Get contract info',
    tags: ['Smart Contracts'],
    params: CONTRACT_ID_PARAMS,
    responses: { 200: SMART_CONTRACT },
    handler: async (req, ctx) => {
      const deploys = await contractDeploys(ctx.store, req.params.contract_id);
      // As the reference picks: one with an ABI, canonical, in a canonical microblock, newest.
      const [pick] = deploys.sort(
        (a, b) =>
          Number(!!b.abi && b.abi !== 'null') - Number(!!a.abi && a.abi !== 'null') ||
          Number(b.canonical) - Number(a.canonical) ||
          Number(b.microblock_canonical) - Number(a.microblock_canonical) ||
          b.block_height - a.block_height,
      );
      if (!pick) throw notFound('cannot find contract by ID');
      return formatContract(pick, pick.canonical);
    },
  },
  {
    method: 'get',
    path: '/extended/v1/contract/:contract_id/events',
    summary: 'Get contract events',
    tags: ['Smart Contracts'],
    params: CONTRACT_ID_PARAMS,
    query: limitOffset(20, 50),
    responses: { 200: CONTRACT_EVENTS },
    handler: async (req, ctx) => {
      const { limit, offset } = queryOf<Page>(req);
      const events = await contractEventsPage(ctx.store, req.params.contract_id, limit, offset);
      return { limit, offset, results: events.map(formatEvent) };
    },
  },
  {
    method: 'get',
    path: '/extended/v2/smart-contracts/status',
    summary: 'Get smart contracts status',
    tags: ['Smart Contracts'],
    query: STATUS_QUERY,
    responses: { 200: CONTRACT_STATUS_LIST },
    handler: async (req, ctx) => {
      const ids = req.query.getAll('contract_id');
      const found = new Map((await deployStatuses(ctx.store, ids)).map((s) => [s.contract_id, s]));
      const out: Record<string, unknown> = {};
      for (const id of ids) {
        const s = found.get(id);
        out[id] = s ? { found: true, result: { contract_id: s.contract_id, ...(s.block_height !== undefined ? { block_height: s.block_height } : {}), status: s.status, tx_id: s.tx_id } } : { found: false };
      }
      return out;
    },
  },
];
