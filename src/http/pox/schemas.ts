// JSON Schemas of the PoX routes (schemas/api/pox.json).
import { apiSchemas } from '../schema-home.ts';

const pox = apiSchemas('pox.json');

export const POX_PARAMS = pox('PoxParams');
export const POX_TX_PARAMS = pox('PoxTxParams');
export const POX_STACKER_PARAMS = pox('PoxStackerParams');
export const POX_POOL_PARAMS = pox('PoxPoolParams');
export const CYCLE_PARAMS = pox('CycleParams');
export const SIGNER_PARAMS = pox('SignerParams');

export const POX_EVENT = pox('PoxEvent');
export const POX_EVENT_LIST = pox('PoxEventListResponse');
export const POX_EVENTS = pox('PoxEventsResponse');
export const POOL_DELEGATION = pox('PoolDelegation');
export const POOL_DELEGATIONS = pox('PoolDelegationsResponse');
export const POX_CYCLE = pox('PoxCycle');
export const POX_CYCLES = pox('PoxCycleListResponse');
export const POX_SIGNER = pox('PoxSigner');
export const POX_SIGNERS = pox('PoxSignerListResponse');
export const POX_STACKER = pox('PoxStacker');
export const POX_STACKERS = pox('PoxStackerListResponse');
