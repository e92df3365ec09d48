// /extended/v3/principals/:principal/balances/… and nonces: a principal's STX (with its lock and
// pending mempool movement), its fungible and non-fungible holdings by cursor, its account nonces.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { v3Schema } from './schemas.ts';
import { addressV2Routes } from '../address/v2-routes.ts';
import { addressV1BalanceRoutes } from '../address/v1-balance-routes.ts';
import { tokenRoutes } from '../tokens/routes.ts';
import { PRINCIPAL_PARAM } from '../address/params.ts';
import { askTwin, twinRoute } from './twin.ts';
import { bodyOf, V1_TX } from './queries.ts';
import { keysetPage } from './keyset.ts';
import { ADDRESS_PARAMS, cursorQuery, PAGE, PRINCIPAL_PARAMS } from './params.ts';

const V2_STX = twinRoute(addressV2Routes, '/extended/v2/addresses/:principal/balances/stx');
const V1_STX = twinRoute(addressV1BalanceRoutes, '/extended/v1/address/:principal/stx');
const V2_FT = twinRoute(addressV2Routes, '/extended/v2/addresses/:principal/balances/ft');
const V2_FT_ONE = twinRoute(addressV2Routes, '/extended/v2/addresses/:principal/balances/ft/:token');
const V1_NONCES = twinRoute(addressV1BalanceRoutes, '/extended/v1/address/:principal/nonces');
const V1_NFT_HOLDINGS = twinRoute(tokenRoutes, '/extended/v1/tokens/nft/holdings');

const ASSET_IDENTIFIER = {
  type: 'string',
  pattern: '^[0123456789ABCDEFGHJKMNPQRSTVWXYZ]{28,41}\\.[a-zA-Z]([a-zA-Z0-9]|[-_]){0,39}::[a-zA-Z]([a-zA-Z0-9]|[-_!?+<>=/*]){0,127}$',
};

interface V2Stx {
  balance: string;
  locked: string;
  lock_tx_id: string;
  lock_height: number;
  burnchain_lock_height: number;
  burnchain_unlock_height: number;
  estimated_balance?: string;
  pending_balance_inbound?: string;
  pending_balance_outbound?: string;
}

/** What the lock's tx tells: the PoX version of the contract it called (pox is 1), and its burn
 *  block height (-1 for a tx of a streamed microblock, as the reference records it). */
async function lockTxFacts(ctx: ApiContext, lockTxId: string): Promise<{ poxVersion: number; burnHeight: number }> {
  const a = await askTwin<{ contract_call?: { contract_id: string }; burn_block_height?: number }>(V1_TX, ctx, { tx_id: lockTxId }, { unanchored: true, exclude_function_args: true });
  const name = a.status === 200 ? (a.body.contract_call?.contract_id.split('.')[1] ?? '') : '';
  const m = /^pox(?:-(\d+))?$/.exec(name);
  return { poxVersion: m ? Number(m[1] ?? 1) : 0, burnHeight: a.status === 200 ? (a.body.burn_block_height ?? 0) : 0 };
}

/** Every page of a twin's offset list, read `max` at a time. */
async function wholeList<T>(read: (offset: number, limit: number) => Promise<{ total: number; results: T[] }>, max: number): Promise<T[]> {
  const out: T[] = [];
  for (;;) {
    const page = await read(out.length, max);
    out.push(...page.results);
    if (page.results.length < max || out.length >= page.total) return out;
  }
}

const byBalanceThenToken = (a: { balance: string; token: string }, b: { balance: string; token: string }) => {
  const d = BigInt(b.balance) - BigInt(a.balance);
  return d > 0n ? 1 : d < 0n ? -1 : a.token < b.token ? -1 : a.token > b.token ? 1 : 0;
};

export const v3PrincipalBalanceRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v3/principals/:principal/balances/stx',
    responses: { 200: v3Schema('PrincipalStxBalance') },
    summary: 'Get principal STX balance',
    description: "A principal's STX balance: total, spendable, locked, and the pending mempool movement.",
    operationId: 'get_principal_balances_stx',
    tags: ['Accounts'],
    params: PRINCIPAL_PARAMS,
    handler: async (req, ctx) => {
      const principal = req.params.principal;
      // The balance of the anchored chain; the lock as soon as its tx is streamed (the reference
      // records a lock when its event arrives, a microblock's too).
      const [s, lock] = await Promise.all([
        askTwin<V2Stx>(V2_STX, ctx, { principal }, { include_mempool: true }).then(bodyOf<V2Stx>),
        askTwin<V2Stx>(V1_STX, ctx, { principal }, { unanchored: true }).then(bodyOf<V2Stx>),
      ]);
      const balance = BigInt(s.balance);
      const locked = BigInt(lock.locked);
      const facts = locked > 0n ? await lockTxFacts(ctx, lock.lock_tx_id) : undefined;
      const available = balance - locked;
      const inbound = BigInt(s.pending_balance_inbound ?? '0');
      const outbound = BigInt(s.pending_balance_outbound ?? '0');
      return {
        balance: s.balance,
        available: available.toString(),
        locked:
          facts
            ? {
                amount: lock.locked,
                pox_version: facts.poxVersion,
                lock_tx_id: lock.lock_tx_id,
                stacks_lock_height: lock.lock_height,
                burn_lock_height: facts.burnHeight,
                burn_unlock_height: lock.burnchain_unlock_height,
              }
            : null,
        mempool: inbound > 0n || outbound > 0n ? { estimated_balance: (available + inbound - outbound).toString(), inbound: inbound.toString(), outbound: outbound.toString() } : null,
      };
    },
  },
  {
    method: 'get',
    path: '/extended/v3/principals/:principal/balances/ft',
    responses: { 200: v3Schema('PrincipalFtBalanceList') },
    summary: 'Get principal FT balances',
    description: "A principal's fungible-token balances, largest first, by cursor.",
    operationId: 'get_principal_balances_ft',
    tags: ['Accounts'],
    params: PRINCIPAL_PARAMS,
    query: cursorQuery('^\\d+:.+$', PAGE.balance),
    handler: async (req, ctx) => {
      const q = queryOf<{ limit: number; cursor?: string }>(req);
      const all = await wholeList<{ token: string; balance: string }>(async (offset, limit) => bodyOf(await askTwin(V2_FT, ctx, { principal: req.params.principal }, { offset, limit })), PAGE.balance.max);
      all.sort(byBalanceThenToken);
      const page = keysetPage(all, { limit: q.limit, cursor: q.cursor }, (b) => `${b.balance}:${b.token}`, (b, c) => {
        const i = c.indexOf(':');
        return byBalanceThenToken(b, { balance: c.slice(0, i), token: c.slice(i + 1) }) >= 0;
      });
      return { ...page, results: page.results.map((b) => ({ asset_identifier: b.token, balance: b.balance })) };
    },
  },
  {
    method: 'get',
    path: '/extended/v3/principals/:principal/balances/ft/:asset_identifier',
    responses: { 200: v3Schema('PrincipalFtBalance') },
    summary: 'Get principal FT balance',
    description: "A principal's balance of one fungible token (0 when it holds none).",
    operationId: 'get_principal_balance_ft',
    tags: ['Accounts'],
    params: { type: 'object', properties: { principal: PRINCIPAL_PARAM, asset_identifier: ASSET_IDENTIFIER }, required: ['principal', 'asset_identifier'] },
    handler: async (req, ctx) => {
      const token = req.params.asset_identifier;
      const b = bodyOf<{ balance: string }>(await askTwin(V2_FT_ONE, ctx, { principal: req.params.principal, token }));
      return { asset_identifier: token, balance: b.balance };
    },
  },
  {
    method: 'get',
    path: '/extended/v3/principals/:principal/balances/nft',
    responses: { 200: v3Schema('PrincipalNftBalanceList') },
    summary: 'Get principal NFT balances',
    description: 'The non-fungible token instances a principal owns, by asset identifier and value, by cursor.',
    operationId: 'get_principal_balances_nft',
    tags: ['Accounts'],
    params: PRINCIPAL_PARAMS,
    query: cursorQuery('^0x[0-9a-fA-F]*:.+$', PAGE.balance),
    handler: async (req, ctx) => {
      const q = queryOf<{ limit: number; cursor?: string }>(req);
      type Held = { asset_identifier: string; value: { hex: string; repr: string } };
      const all = await wholeList<Held>(async (offset, limit) => bodyOf(await askTwin(V1_NFT_HOLDINGS, ctx, {}, { principal: req.params.principal, offset, limit })), 200);
      const order = (a: { id: string; hex: string }, b: { id: string; hex: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.hex < b.hex ? -1 : a.hex > b.hex ? 1 : 0);
      const keyOf = (h: Held) => ({ id: h.asset_identifier, hex: h.value.hex });
      all.sort((a, b) => order(keyOf(a), keyOf(b)));
      const page = keysetPage(all, { limit: q.limit, cursor: q.cursor }, (h) => `${h.value.hex}:${h.asset_identifier}`, (h, c) => {
        const i = c.indexOf(':');
        return order(keyOf(h), { id: c.slice(i + 1), hex: c.slice(0, i).toLowerCase() }) >= 0;
      });
      return { ...page, results: page.results.map((h) => ({ asset_identifier: h.asset_identifier, value: { hex: h.value.hex, repr: h.value.repr } })) };
    },
  },
  {
    method: 'get',
    path: '/extended/v3/principals/:principal/nonces',
    responses: { 200: v3Schema('PrincipalNonces') },
    summary: 'Get principal nonces',
    description: "An account's latest confirmed nonce, its pending and missing mempool nonces, and the nonce to use next.",
    operationId: 'get_principal_nonces',
    tags: ['Accounts'],
    params: ADDRESS_PARAMS,
    handler: async (req, ctx) => {
      const n = bodyOf<{ possible_next_nonce: number; last_executed_tx_nonce: number | null; last_mempool_tx_nonce: number | null; detected_mempool_nonces: number[]; detected_missing_nonces: number[] }>(
        await askTwin(V1_NONCES, ctx, { principal: req.params.principal }),
      );
      return {
        next_nonce: n.possible_next_nonce,
        last_confirmed_nonce: n.last_executed_tx_nonce,
        mempool: { last_nonce: n.last_mempool_tx_nonce, pending_nonces: n.detected_mempool_nonces, missing_nonces: n.detected_missing_nonces },
      };
    },
  },
];
