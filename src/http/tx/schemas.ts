// Response schemas of the tx family (schemas/api/transaction.json: the entities and the reference's
// list shapes around them).
import { apiSchemas } from '../schema-home.ts';

const tx = apiSchemas('transaction.json');

export const TRANSACTION = tx('Transaction');
export const TX_OR_MEMPOOL_TX = tx('TxOrMempoolTx');
export const TRANSACTION_LIST = tx('TransactionResults');
export const MEMPOOL_TRANSACTION_LIST = tx('MempoolTransactionListResponse');
export const MICROBLOCK = tx('Microblock');
export const MICROBLOCK_LIST = tx('MicroblockListResponse');
export const MEMPOOL_STATS = tx('MempoolStats');
export const MEMPOOL_FEES = tx('MempoolFeePriorities');
export const RAW_TRANSACTION = tx('GetRawTransactionResult');
export const UNANCHORED_TXS = tx('UnanchoredTxs');
export const EVENTS_PAGE = tx('TransactionEventsResponse');
export const TX_SEARCH = tx('TransactionSearchResponse');
