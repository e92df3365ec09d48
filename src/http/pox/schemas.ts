// JSON Schemas of the PoX routes (the reference API's entities, v8.15.4).
import { PRINCIPAL_PARAM as PRINCIPAL } from '../address/params.ts';

type S = Record<string, unknown>;

const str: S = { type: 'string' };
const int: S = { type: 'integer' };
const num: S = { type: 'number' };
const nullableStr: S = { type: ['string', 'null'] };
const obj = (properties: Record<string, S>, title?: string, required = Object.keys(properties)): S => ({ ...(title ? { title } : {}), type: 'object', properties, required });
const page = (title: string, item: S, total = true): S =>
  obj({ limit: int, offset: int, ...(total ? { total: int } : {}), results: { type: 'array', items: item } }, title);

/** The reference's `pox` path parameter: pox2, pox3 or pox4 (anything else: 400). */
const POX_VERSION: S = { anyOf: [{ const: 'pox2' }, { const: 'pox3' }, { const: 'pox4' }] };

export const POX_PARAMS: S = obj({ pox: POX_VERSION });
export const POX_TX_PARAMS: S = obj({ pox: POX_VERSION, tx_id: str });
export const POX_STACKER_PARAMS: S = obj({ pox: POX_VERSION, principal: PRINCIPAL });
export const POX_POOL_PARAMS: S = obj({ pox: POX_VERSION, pool_principal: str });
export const CYCLE_PARAMS: S = obj({ cycle_number: int });
export const SIGNER_PARAMS: S = obj({ cycle_number: int, signer_key: str });

export const POX_EVENT: S = obj(
  {
    block_height: int,
    tx_id: str,
    tx_index: int,
    event_index: int,
    stacker: str,
    locked: str,
    balance: str,
    burnchain_unlock_height: str,
    pox_addr: nullableStr,
    pox_addr_raw: nullableStr,
    name: str,
    data: { type: 'object' },
  },
  'PoxEvent',
);
export const POX_EVENT_LIST: S = page('PoxEventListResponse', POX_EVENT, false);
export const POX_EVENTS: S = obj({ results: { type: 'array', items: POX_EVENT } }, 'PoxEventsResponse');

export const POOL_DELEGATION: S = obj({ stacker: str, pox_addr: str, amount_ustx: str, burn_block_unlock_height: int, block_height: int, tx_id: str }, 'PoolDelegation', ['stacker', 'amount_ustx', 'block_height', 'tx_id']);
export const POOL_DELEGATIONS: S = page('PoolDelegationsResponse', POOL_DELEGATION);

export const POX_CYCLE: S = obj({ block_height: int, index_block_hash: str, cycle_number: int, total_weight: int, total_stacked_amount: str, total_signers: int }, 'PoxCycle');
export const POX_CYCLES: S = page('PoxCycleListResponse', POX_CYCLE);
export const POX_SIGNER: S = obj(
  { signing_key: str, signer_address: str, weight: int, stacked_amount: str, weight_percent: num, stacked_amount_percent: num, solo_stacker_count: int, pooled_stacker_count: int },
  'PoxSigner',
);
export const POX_SIGNERS: S = page('PoxSignerListResponse', POX_SIGNER);
export const POX_STACKER: S = obj({ stacker_address: str, stacked_amount: str, pox_address: str, stacker_type: { enum: ['solo', 'pooled'] } }, 'PoxStacker');
export const POX_STACKERS: S = page('PoxStackerListResponse', POX_STACKER);
