// JSON Schemas of the address routes' answers (the reference API's entities, v8.15.4). Full tx
// objects are the tx family's (`Transaction`, `MempoolTransaction`), referenced here loosely.
type S = Record<string, unknown>;

const str: S = { type: 'string' };
const int: S = { type: 'integer' };
const obj = (properties: Record<string, S>, required = Object.keys(properties), extra: S = {}): S => ({ type: 'object', properties, required, ...extra });
const list = (title: string, item: S): S => obj({ limit: int, offset: int, total: int, results: { type: 'array', items: item } }, ['limit', 'offset', 'total', 'results'], { title });

export const TRANSACTION: S = { type: 'object', title: 'Transaction', required: ['tx_id', 'tx_type', 'tx_status'] };
export const MEMPOOL_TRANSACTION: S = { type: 'object', title: 'MempoolTransaction', required: ['tx_id', 'tx_type', 'tx_status', 'receipt_time'] };

const LOCK = {
  lock_tx_id: str,
  locked: str,
  lock_height: int,
  burnchain_lock_height: int,
  burnchain_unlock_height: int,
};
const PENDING = { estimated_balance: str, pending_balance_inbound: str, pending_balance_outbound: str };

export const STX_BALANCE: S = obj(
  { balance: str, total_sent: str, total_received: str, total_fees_sent: str, total_miner_rewards_received: str, ...LOCK, ...PENDING, token_offering_locked: { type: 'object' } },
  ['balance', 'total_sent', 'total_received', 'total_fees_sent', 'total_miner_rewards_received', ...Object.keys(LOCK)],
  { title: 'AddressStxBalance' },
);

const FT_ENTRY = obj({ balance: str, total_sent: str, total_received: str });
const NFT_ENTRY = obj({ count: str, total_sent: str, total_received: str });

export const ADDRESS_BALANCE: S = obj(
  { stx: STX_BALANCE, fungible_tokens: { type: 'object', additionalProperties: FT_ENTRY }, non_fungible_tokens: { type: 'object', additionalProperties: NFT_ENTRY } },
  ['stx', 'fungible_tokens', 'non_fungible_tokens'],
  { title: 'AddressBalance' },
);

const NULLABLE_INT: S = { type: ['integer', 'null'] };
export const ADDRESS_NONCES: S = obj(
  {
    last_executed_tx_nonce: NULLABLE_INT,
    last_mempool_tx_nonce: NULLABLE_INT,
    possible_next_nonce: int,
    detected_missing_nonces: { type: 'array', items: int },
    detected_mempool_nonces: { type: 'array', items: int },
  },
  undefined,
  { title: 'AddressNonces' },
);

const CLARITY_VALUE = obj({ hex: str, repr: str });
export const TRANSACTION_EVENT: S = obj({ event_index: int, event_type: { enum: ['stx_asset', 'stx_lock', 'fungible_token_asset', 'non_fungible_token_asset', 'smart_contract_log'] }, tx_id: str }, undefined, {
  title: 'TransactionEvent',
});
export const ASSETS_LIST: S = list('AddressAssetsListResponse', TRANSACTION_EVENT);

export const INBOUND_LIST: S = list(
  'AddressStxInboundListResponse',
  obj({ sender: str, amount: str, memo: str, block_height: int, tx_id: str, transfer_type: { enum: ['bulk-send', 'stx-transfer', 'stx-transfer-memo'] }, tx_index: int }),
);

const STX_TRANSFER = obj({ amount: str, sender: str, recipient: str }, ['amount']);
const FT_TRANSFER = obj({ asset_identifier: str, amount: str, sender: str, recipient: str }, ['asset_identifier', 'amount']);
const NFT_TRANSFER = obj({ asset_identifier: str, value: CLARITY_VALUE, sender: str, recipient: str }, ['asset_identifier', 'value']);
export const TX_WITH_TRANSFERS: S = obj(
  {
    tx: TRANSACTION,
    stx_sent: str,
    stx_received: str,
    stx_transfers: { type: 'array', items: STX_TRANSFER },
    ft_transfers: { type: 'array', items: FT_TRANSFER },
    nft_transfers: { type: 'array', items: NFT_TRANSFER },
  },
  ['tx', 'stx_sent', 'stx_received', 'stx_transfers'],
  { title: 'AddressTransactionWithTransfers' },
);

export const TXS_LIST: S = list('AddressTransactionsListResponse', TRANSACTION);
export const TXS_WITH_TRANSFERS_LIST: S = list('AddressTransactionsWithTransfersListResponse', TX_WITH_TRANSFERS);
export const MEMPOOL_LIST: S = list('MempoolTransactionListResponse', MEMPOOL_TRANSACTION);

const COUNTS = obj({ transfer: int, mint: int, burn: int });
export const ADDRESS_TRANSACTION: S = obj(
  { tx: TRANSACTION, stx_sent: str, stx_received: str, events: obj({ stx: COUNTS, ft: COUNTS, nft: COUNTS }) },
  ['tx', 'stx_sent', 'stx_received'],
  { title: 'AddressTransaction' },
);
export const ADDRESS_TRANSACTIONS_V2: S = list('AddressTransactionsV2ListResponse', ADDRESS_TRANSACTION);

export const ADDRESS_TX_EVENTS: S = list(
  'AddressTransactionEventListResponse',
  obj({ type: { enum: ['stx', 'ft', 'nft'] }, event_index: int, data: obj({ type: { enum: ['transfer', 'mint', 'burn'] }, sender: str, recipient: str }, ['type']) }),
);

export const STX_BALANCE_V2: S = obj(
  { balance: str, total_miner_rewards_received: str, ...LOCK, ...PENDING },
  ['balance', 'total_miner_rewards_received', ...Object.keys(LOCK)],
  { title: 'StxBalance' },
);
export const FT_BALANCES_V2: S = list('PrincipalFtBalanceListResponse', obj({ token: str, balance: str }));
export const FT_BALANCE_V2: S = obj({ balance: str }, undefined, { title: 'PrincipalFtBalance' });
