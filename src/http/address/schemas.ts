// JSON Schemas of the address routes' answers (schemas/api/address.json; the txs and events in
// them are the tx family's entities from schemas/api/transaction.json, by $ref).
import { apiSchemas } from '../schema-home.ts';


const address = apiSchemas('address.json', ['transaction.json']);

export const STX_BALANCE = address('AddressStxBalance');
export const ADDRESS_BALANCE = address('AddressBalance');
export const ADDRESS_NONCES = address('AddressNonces');
export const ASSETS_LIST = address('AddressAssetsListResponse');
export const INBOUND_LIST = address('AddressStxInboundListResponse');
export const TX_WITH_TRANSFERS = address('AddressTransactionWithTransfers');
export const TXS_LIST = address('AddressTransactionsListResponse');
export const TXS_WITH_TRANSFERS_LIST = address('AddressTransactionsWithTransfersListResponse');
export const MEMPOOL_LIST = address('AddressMempoolTransactionListResponse');
export const ADDRESS_TRANSACTIONS_V2 = address('AddressTransactionsV2ListResponse');
export const ADDRESS_TX_EVENTS = address('AddressTransactionEventListResponse');
export const STX_BALANCE_V2 = address('StxBalance');
export const FT_BALANCES_V2 = address('PrincipalFtBalanceListResponse');
export const FT_BALANCE_V2 = address('PrincipalFtBalance');
