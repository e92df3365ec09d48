// /extended/v3/staking and a principal's staking: PoX-5 signers, bonds and positions. The chains
// we index have no PoX-5 contract, so, as the reference on such a chain, every list is empty and
// every single entity is not found; a principal's staking summary is all zeros.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { v3Schema } from './schemas.ts';
import { notFound } from '../errors.ts';
import { PRINCIPAL_PARAM } from '../address/params.ts';
import { TX_CURSOR_PATTERN } from './cursor.ts';
import { cursorQuery, PAGE, PRINCIPAL_PARAMS } from './params.ts';

const PRINCIPAL_CURSOR = '^[0123456789ABCDEFGHJKMNPQRSTVWXYZ]{28,41}(\\.[a-zA-Z]([a-zA-Z0-9]|[-_]){0,39})?$';
const BOND_CURSOR = '^\\d+$';
const SIGNER_PAGE = { def: 100, max: 250 };
const STAKER_PAGE = { def: 100, max: 200 };

const BOND_PARAMS = { type: 'object', properties: { bond_index: { type: 'integer' } }, required: ['bond_index'] };
const BOND_PRINCIPAL_PARAMS = { type: 'object', properties: { bond_index: { type: 'integer' }, principal: PRINCIPAL_PARAM }, required: ['bond_index', 'principal'] };

/** An empty v3 list answered with the request's limit. */
const emptyList = (req: Parameters<RouteDef<ApiContext>['handler']>[0]) => ({
  total: 0,
  limit: queryOf<{ limit: number }>(req).limit,
  cursor: { next: null, previous: null, current: null },
  results: [],
});

const NO_REWARDS = { btc: { accrued: '0', claimed: '0', claimable: '0' } };

type Def = Pick<RouteDef<ApiContext>, 'path' | 'summary' | 'description' | 'operationId' | 'params' | 'query'>;
const list = (d: Def): RouteDef<ApiContext> => ({ method: 'get', tags: ['Staking'], ...d, responses: { 200: v3Schema('StakingEntityList') }, handler: async (req) => emptyList(req) });
const missing = (d: Def, message: string): RouteDef<ApiContext> => ({ method: 'get', tags: ['Staking'], ...d, responses: { 200: v3Schema('StakingEntity') }, handler: async () => { throw notFound(message); } });

export const v3StakingRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v3/principals/:principal/staking',
    responses: { 200: v3Schema('PrincipalStakingSummary') },
    summary: 'Get principal staking summary',
    description: "A principal's PoX-5 staking: its locked STX and rewards, and totals over its bond positions.",
    operationId: 'get_principal_staking_summary',
    tags: ['Staking'],
    params: PRINCIPAL_PARAMS,
    handler: async () => ({ stx: { locked: '0', rewards: NO_REWARDS }, bonds: { count: 0, locked: { btc: '0', stx: '0' }, rewards: NO_REWARDS } }),
  },
  list({ path: '/extended/v3/principals/:principal/staking/bonds', summary: 'Get principal bond positions', description: "A principal's PoX-5 bond positions, by cursor.", operationId: 'get_principal_bond_positions', params: PRINCIPAL_PARAMS, query: cursorQuery(BOND_CURSOR, PAGE.tx) }),
  list({ path: '/extended/v3/staking/bonds', summary: 'Get bonds', description: 'PoX-5 bonds, by cursor.', operationId: 'get_bonds', query: cursorQuery(BOND_CURSOR, PAGE.tx) }),
  missing({ path: '/extended/v3/staking/bonds/:bond_index', summary: 'Get bond', description: 'One PoX-5 bond.', operationId: 'get_bond', params: BOND_PARAMS }, 'Bond not found'),
  list({ path: '/extended/v3/staking/bonds/:bond_index/allowlist', summary: 'Get bond allowlist', description: "A bond's allowlist, by cursor.", operationId: 'get_bond_allowlist', params: BOND_PARAMS, query: cursorQuery(TX_CURSOR_PATTERN, PAGE.tx) }),
  missing({ path: '/extended/v3/staking/bonds/:bond_index/allowlist/:principal', summary: 'Get bond allowlist entry', description: "A principal's entry in a bond's allowlist.", operationId: 'get_bond_allowlist_entry', params: BOND_PRINCIPAL_PARAMS }, 'Bond allowlist entry not found'),
  list({ path: '/extended/v3/staking/bonds/:bond_index/registrations', summary: 'Get bond registrations', description: "A bond's registrations, by cursor.", operationId: 'get_bond_registrations', params: BOND_PARAMS, query: cursorQuery(TX_CURSOR_PATTERN, PAGE.tx) }),
  missing({ path: '/extended/v3/staking/bonds/:bond_index/registrations/:principal', summary: 'Get bond registration', description: "A principal's registration in a bond.", operationId: 'get_bond_registration', params: BOND_PRINCIPAL_PARAMS }, 'Bond registration not found'),
  list({ path: '/extended/v3/staking/signers', summary: 'Get staking signers', description: 'PoX-5 signers, by cursor.', operationId: 'get_staking_signers', query: cursorQuery(PRINCIPAL_CURSOR, SIGNER_PAGE) }),
  missing({ path: '/extended/v3/staking/signers/:principal', summary: 'Get staking signer', description: 'One PoX-5 signer.', operationId: 'get_staking_signer', params: PRINCIPAL_PARAMS }, 'Staking signer not found'),
  list({ path: '/extended/v3/staking/signers/:principal/stakers', summary: 'Get signer stakers', description: "A PoX-5 signer's stakers, by cursor.", operationId: 'get_signer_stakers', params: PRINCIPAL_PARAMS, query: cursorQuery(PRINCIPAL_CURSOR, STAKER_PAGE) }),
];
