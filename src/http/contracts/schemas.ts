// JSON Schemas of the contract routes (schemas/api/contracts.json; events are the tx family's
// TransactionEvent, by $ref).
import { apiSchemas } from '../schema-home.ts';

const contracts = apiSchemas('contracts.json', ['transaction.json']);

export const SMART_CONTRACT = contracts('SmartContract');
export const CONTRACT_LIST = contracts('ContractListResponse');
export const CONTRACT_EVENTS = contracts('ContractEventListResponse');
export const CONTRACT_STATUS_LIST = contracts('SmartContractsStatusResponse');
export const CONTRACT_ID_PARAMS = contracts('ContractIdParams');
export const STATUS_QUERY = contracts('StatusQuery');
export const TRAIT_QUERY = contracts('TraitQuery');
