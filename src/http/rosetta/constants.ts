// What the Rosetta (Mesh) family advertises at /network/options, with the reference's (Hiro API
// Rosetta 1.4.6) values: operation types and statuses, and its error table (codes 601-645).

export const ROSETTA_VERSION = '1.4.6';
export const BLOCKCHAIN = 'stacks';
export const STX = { symbol: 'STX', decimals: 6 } as const;

export const OPERATION_TYPES = [
  'token_transfer',
  'contract_call',
  'smart_contract',
  'coinbase',
  'poison_microblock',
  'fee',
  'mint',
  'burn',
  'miner_reward',
  'stx_lock',
  'stx_unlock',
  'stack_stx',
  'delegate_stx',
  'revoke_delegate_stx',
  'tenure_change',
] as const;

export type OperationType = (typeof OPERATION_TYPES)[number];

export const OPERATION_STATUSES = [
  { status: 'success', successful: true },
  { status: 'pending', successful: true },
  { status: 'abort_by_response', successful: false },
  { status: 'abort_by_post_condition', successful: false },
];

/** Sub-accounts of /account/balance (the reference's names). */
export const SUB_ACCOUNTS = {
  stacked: 'StackedBalance',
  spendable: 'SpendableBalance',
  vestingLocked: 'VestingLockedBalance',
  vestingUnlocked: 'VestingUnlockedBalance',
} as const;

export interface RosettaErrorBody {
  code: number;
  message: string;
  retriable: boolean;
  details?: Record<string, unknown>;
}

const entry = (code: number, message: string, retriable: boolean): RosettaErrorBody => ({ code, message, retriable });

/** The reference's errors, by name; /network/options lists them in this order. */
export const ERRORS = {
  invalidAccount: entry(601, 'Invalid Account.', true),
  insufficientFunds: entry(602, 'Insufficient Funds.', false),
  accountEmpty: entry(603, 'Account is empty.', false),
  invalidBlockIndex: entry(604, 'Invalid block index.', false),
  blockNotFound: entry(605, 'Block not found.', true),
  invalidBlockHash: entry(606, 'Invalid block hash.', true),
  transactionNotFound: entry(607, 'Transaction not found.', true),
  invalidTransactionHash: entry(608, 'Invalid transaction hash.', true),
  invalidParams: entry(609, 'Invalid params.', false),
  invalidNetwork: entry(610, 'Invalid network.', false),
  invalidBlockchain: entry(611, 'Invalid blockchain.', false),
  unknownError: entry(612, 'Unknown error.', false),
  emptyNetworkIdentifier: entry(613, 'Network identifier object is null.', false),
  emptyAccountIdentifier: entry(614, 'Account identifier object is null.', false),
  invalidBlockIdentifier: entry(615, 'Block identifier is null.', false),
  invalidTransactionIdentifier: entry(616, 'Transaction identifier is null.', true),
  emptyBlockchain: entry(617, 'Blockchain name is null.', false),
  emptyNetwork: entry(618, 'Network name is null.', false),
  invalidCurveType: entry(619, 'Invalid curve type.', false),
  invalidPublicKey: entry(620, 'invalid public key.', false),
  invalidOperation: entry(621, 'Invalid operation', false),
  invalidFee: entry(622, 'Invalid fee', false),
  invalidCurrencySymbol: entry(623, 'Invalid symbol', false),
  invalidCurrencyDecimals: entry(624, 'Invalid currency decimals', false),
  invalidTransactionType: entry(625, 'Invalid transaction type', false),
  invalidSender: entry(626, 'Invalid sender address', false),
  invalidRecipient: entry(627, 'Invalid recipient address', false),
  invalidTransactionString: entry(628, 'Invalid transaction string', false),
  transactionNotSigned: entry(629, 'Transaction not signed', false),
  invalidAmount: entry(630, 'Amount not available', false),
  invalidFees: entry(631, 'Fees not available', false),
  emptyPublicKey: entry(632, 'Public key not available', false),
  noSignatures: entry(633, 'no signature found', false),
  invalidSignature: entry(634, 'Invalid Signature', false),
  signatureNotVerified: entry(635, 'Signature(s) not verified with this public key(s)', false),
  needOnePublicKey: entry(636, 'Need one public key for single signature', false),
  needOnlyOneSignature: entry(637, 'Need only one signature', false),
  signatureTypeNotSupported: entry(638, 'Signature type not supported.', false),
  missingTransactionSize: entry(639, 'Transaction size required to calculate total fee.', false),
  stackingEligibityError: entry(640, 'Account not eligible for stacking.', false),
  invalidSubAccount: entry(641, 'Invalid sub-account', false),
  missingSenderAddress: entry(642, 'Missing sender address', false),
  missingNonce: entry(643, 'Missing transaction nonce', false),
  missingContractAddress: entry(644, 'Missing contract address', false),
  missingContractName: entry(645, 'Missing contract name', false),
} satisfies Record<string, RosettaErrorBody>;

export type ErrorName = keyof typeof ERRORS;
