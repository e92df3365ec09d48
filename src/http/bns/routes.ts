// The BNS routes (/v1/names, /v1/namespaces, /v1/addresses, /v2/prices), as the reference answers
// them: names and namespaces from the BNS contract's prints, zonefiles from attachments, subdomains
// from name-update zonefiles, prices computed as the BNS contract does. Errors are {error}.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import type { ApiRequest } from '../request.ts';
import { httpError } from '../errors.ts';
import { tipHeight } from '../tx/queries.ts';
import { nftHoldings } from '../tokens/queries.ts';
import { decodeClarityValue, tupleGet } from '../../stacks/codec/clarity.ts';
import { BNS_CONTRACTS } from '../../stacks/bns.ts';
import { nameHistories, namesInOrder, namespaces, subdomainsOf, subdomainsOwnedBy, zonefileOf } from './queries.ts';
import { nameState, parentName, type NameState } from './names.ts';
import { namePrice, namespacePrice } from './pricing.ts';
import {
  ADDRESS_PARAMS,
  BNS_ERROR,
  NAME_INFO,
  NAME_LIST,
  NAME_PARAMS,
  NAMES_BY_ADDRESS,
  NAMES_QUERY,
  NAMESPACE_NAMES,
  NAMESPACES,
  PRICE,
  SUBDOMAIN_LIST,
  TLD_PARAMS,
  UNANCHORED_QUERY,
  ZONEFILE,
  ZONEFILE_HASH_PARAMS,
} from './schemas.ts';

const PAGE_SIZE = 100;
const bnsError = (status: number, error: string) => ({ status, body: { error } });

/** The height BNS reads at: the tip, or the block after it with `unanchored`. */
async function readHeight(req: ApiRequest, ctx: ApiContext): Promise<number> {
  return (await tipHeight(ctx.store)) + (queryOf<{ unanchored?: boolean }>(req).unanchored ? 1 : 0);
}

/** The current state of the given names (those that exist and are not revoked). */
async function nameStates(ctx: ApiContext, names: readonly string[], height: number): Promise<Map<string, NameState>> {
  const histories = await nameHistories(ctx.store, names, height);
  const ns = await namespaces(ctx.store, height, [...new Set([...histories.values()].map((h) => h[0].namespace_id))]);
  const out = new Map<string, NameState>();
  for (const [name, history] of histories) {
    const state = nameState(history, ns);
    if (state) out.set(name, state);
  }
  return out;
}

/** "name.namespace" of a BNS names NFT value. */
function nameOfNft(hex: string): string | undefined {
  try {
    const cv = decodeClarityValue(hex);
    const part = (k: string) => {
      const v = tupleGet(cv, k);
      return v?.type === 'buffer' ? Buffer.from(v.value).toString('utf8') : undefined;
    };
    const [name, namespace] = [part('name'), part('namespace')];
    return name === undefined || namespace === undefined ? undefined : `${name}.${namespace}`;
  } catch {
    return undefined;
  }
}

async function subdomainInfo(ctx: ApiContext, fqn: string, height: number, url: string) {
  const parent = parentName(fqn);
  const [states, records] = await Promise.all([nameStates(ctx, [parent], height), subdomainsOf(ctx.store, parent, height)]);
  const record = states.has(parent) ? records.find((r) => r.fully_qualified_subdomain === fqn) : undefined;
  if (!record) {
    const resolver = records[0]?.resolver;
    if (resolver === '') return bnsError(404, 'missing resolver from a malformed zonefile');
    if (resolver) return { status: 302, headers: { location: `${resolver}${url}` }, body: '' };
    return bnsError(404, `cannot find subdomain ${fqn}`);
  }
  const info: Record<string, unknown> = {
    address: record.owner,
    blockchain: 'stacks',
    last_txid: record.tx_id,
    resolver: record.resolver,
    status: 'registered_subdomain',
    zonefile: record.zonefile,
    zonefile_hash: record.zonefile_hash,
  };
  return Object.fromEntries(Object.entries(info).filter(([, v]) => v !== null && v !== undefined));
}

export const bnsRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/v1/names',
    summary: 'Get All Names',
    tags: ['Names'],
    query: NAMES_QUERY,
    responses: { 200: NAME_LIST, 400: BNS_ERROR },
    handler: async (req, ctx) => {
      const { page } = queryOf<{ page: number }>(req);
      const names = await namesInOrder(ctx.store, await readHeight(req, ctx), { limit: PAGE_SIZE, offset: page * PAGE_SIZE });
      if (names.length === 0 && page) return bnsError(400, 'Invalid page');
      return { status: 200, body: names };
    },
  },
  {
    method: 'get',
    path: '/v1/names/:name',
    summary: 'Get Name Details',
    tags: ['Names'],
    params: NAME_PARAMS,
    query: UNANCHORED_QUERY,
    responses: { 200: NAME_INFO, 404: BNS_ERROR },
    handler: async (req, ctx) => {
      const name = req.params.name;
      const height = await readHeight(req, ctx);
      if (name.split('.').length === 3) return subdomainInfo(ctx, name, height, `${req.path}${req.rawQuery ? `?${req.rawQuery}` : ''}`);
      const state = (await nameStates(ctx, [name], height)).get(name);
      if (!state) return bnsError(404, `cannot find name ${name}`);
      return {
        address: state.latest.address,
        blockchain: 'stacks',
        expire_block: state.expire_block,
        last_txid: state.latest.tx_id,
        status: state.latest.status,
        zonefile: await zonefileOf(ctx.store, state.zonefileOp),
        zonefile_hash: state.zonefileOp.zonefile_hash,
      };
    },
  },
  {
    method: 'get',
    path: '/v1/names/:name/zonefile',
    summary: 'Get Zone File',
    tags: ['Names'],
    params: NAME_PARAMS,
    query: UNANCHORED_QUERY,
    responses: { 200: ZONEFILE, 404: BNS_ERROR },
    handler: async (req, ctx) => {
      const name = req.params.name;
      const height = await readHeight(req, ctx);
      if (name.split('.').length > 2) {
        const parent = parentName(name);
        const [states, records] = await Promise.all([nameStates(ctx, [parent], height), subdomainsOf(ctx.store, parent, height)]);
        const record = states.has(parent) ? records.find((r) => r.fully_qualified_subdomain === name) : undefined;
        return record ? { zonefile: record.zonefile } : bnsError(404, 'No such name or zonefile does not exist');
      }
      const state = (await nameStates(ctx, [name], height)).get(name);
      if (!state) return bnsError(404, 'No such name or zonefile does not exist');
      return { zonefile: await zonefileOf(ctx.store, state.zonefileOp) };
    },
  },
  {
    method: 'get',
    path: '/v1/names/:name/zonefile/:zoneFileHash',
    summary: 'Get Historical Zone File',
    tags: ['Names'],
    params: ZONEFILE_HASH_PARAMS,
    query: UNANCHORED_QUERY,
    responses: { 200: ZONEFILE, 404: BNS_ERROR },
    handler: async (req, ctx) => {
      const { name } = req.params;
      const hash = req.params.zoneFileHash.replace(/^0x/, '').toLowerCase();
      const height = await readHeight(req, ctx);
      const parent = parentName(name);
      const states = await nameStates(ctx, [parent], height);
      if (!states.has(parent)) return bnsError(404, 'No such name or zonefile');
      if (name.split('.').length > 2) {
        const record = (await subdomainsOf(ctx.store, parent, height)).find((r) => r.fully_qualified_subdomain === name && r.zonefile_hash === hash);
        return record ? { zonefile: record.zonefile } : bnsError(404, 'No such name or zonefile');
      }
      const history = (await nameHistories(ctx.store, [name], height)).get(name) ?? [];
      const op = [...history].reverse().find((h) => h.zonefile_hash === hash);
      return op ? { zonefile: await zonefileOf(ctx.store, op) } : bnsError(404, 'No such name or zonefile');
    },
  },
  {
    method: 'get',
    path: '/v1/names/:name/subdomains',
    summary: 'Get Name Subdomains',
    tags: ['Names'],
    params: NAME_PARAMS,
    query: UNANCHORED_QUERY,
    responses: { 200: SUBDOMAIN_LIST },
    handler: async (req, ctx) => {
      const name = req.params.name;
      const height = await readHeight(req, ctx);
      if (!(await nameStates(ctx, [name], height)).has(name)) return { status: 200, body: [] };
      const records = await subdomainsOf(ctx.store, name, height);
      return { status: 200, body: [...new Set(records.map((r) => r.fully_qualified_subdomain))].sort() };
    },
  },
  {
    method: 'get',
    path: '/v1/namespaces',
    summary: 'Get All Namespaces',
    tags: ['Names'],
    query: UNANCHORED_QUERY,
    responses: { 200: NAMESPACES },
    handler: async (req, ctx) => ({ namespaces: (await namespaces(ctx.store, await readHeight(req, ctx))).map((n) => n.namespace_id).sort() }),
  },
  {
    method: 'get',
    path: '/v1/namespaces/:tld/names',
    summary: 'Get Namespace Names',
    tags: ['Names'],
    params: TLD_PARAMS,
    query: NAMES_QUERY,
    responses: { 200: NAMESPACE_NAMES, 400: BNS_ERROR },
    handler: async (req, ctx) => {
      const { tld } = req.params;
      const { page } = queryOf<{ page: number }>(req);
      const height = await readHeight(req, ctx);
      if ((await namespaces(ctx.store, height, [tld])).length === 0) return bnsError(400, 'No such namespace');
      const names = await namesInOrder(ctx.store, height, { limit: PAGE_SIZE, offset: page * PAGE_SIZE }, tld);
      if (names.length === 0 && page) return bnsError(400, 'Invalid page');
      return { status: 200, body: names };
    },
  },
  {
    method: 'get',
    path: '/v1/addresses/:blockchain/:address',
    summary: 'Get Names Owned by Address',
    tags: ['Names'],
    params: ADDRESS_PARAMS,
    query: UNANCHORED_QUERY,
    responses: { 200: NAMES_BY_ADDRESS },
    handler: async (req, ctx) => {
      const { blockchain, address } = req.params;
      if (blockchain !== 'stacks') throw httpError(400, 'Unsupported blockchain');
      const height = await tipHeight(ctx.store);
      const [subdomains, nfts] = await Promise.all([subdomainsOwnedBy(ctx.store, address, height), nftHoldings(ctx.store, address, [...BNS_CONTRACTS].map((c) => `${c}::names`))]);
      const owned = nfts.map((n) => nameOfNft(n.value)).filter((n): n is string => !!n);
      const parents = new Map<string, string[]>();
      for (const s of subdomains) parents.set(s.name, [...new Set([...(parents.get(s.name) ?? []), s.fully_qualified_subdomain])]);
      const valid = await nameStates(ctx, [...new Set([...parents.keys(), ...owned])], height);
      const names: string[] = [];
      for (const name of valid.keys()) {
        names.push(...(parents.get(name) ?? []));
        if (owned.includes(name)) names.push(name);
      }
      return { names: names.sort() };
    },
  },
  {
    method: 'get',
    path: '/v2/prices/namespaces/:tld',
    summary: 'Get Namespace Price',
    tags: ['Names'],
    params: TLD_PARAMS,
    responses: { 200: PRICE, 400: BNS_ERROR },
    handler: async (req) => {
      const ns = Buffer.from(req.params.tld, 'utf8');
      const price = ns.length > 20 ? undefined : namespacePrice(ns);
      return price === undefined ? bnsError(400, 'Invalid namespace') : { units: 'STX', amount: price.toString() };
    },
  },
  {
    method: 'get',
    path: '/v2/prices/names/:name',
    summary: 'Get Name Price',
    tags: ['Names'],
    params: NAME_PARAMS,
    responses: { 200: PRICE, 400: BNS_ERROR },
    handler: async (req, ctx) => {
      const parts = req.params.name.split('.');
      if (parts.length !== 2) return bnsError(400, 'Invalid name');
      const [name, namespace] = parts;
      const [ns] = await namespaces(ctx.store, await tipHeight(ctx.store), [namespace]);
      const price = ns ? namePrice(Buffer.from(name, 'utf8'), ns) : undefined;
      return price === undefined ? bnsError(400, 'Invalid name') : { units: 'STX', amount: price.toString() };
    },
  },
];
