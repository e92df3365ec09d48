// Public surface of the hot-path decoder (used by the piscina decode worker and the HTTP formatting layer).
export { DecodeError, ByteReader, hexToBytes, bytesToHex, toBuffer } from './bytes.ts';
export { c32address, c32addressAt, parsePrincipal, isValidPrincipal, AddressVersion, type ParsedPrincipal } from './c32.ts';
export {
  clarityRepr,
  clarityTypeSignature,
  clarityHexRepr,
  decodeClarity,
  decodeClarityValue,
  validateClarityValue,
  describeClarityValue,
  clarityValueRepr,
  clarityValueTypeSignature,
  readClarityValue,
  tupleGet,
  unwrap,
  ClarityTypeId,
  MAX_CLARITY_DEPTH,
  type ClarityValue,
  type TupleEntry,
  type ClarityHexRepr,
  type DecodedClarity,
} from './clarity.ts';
export { decodeTransaction, txIdOf, AnchorMode, type DecodedTransaction, type DecodeTransactionOptions } from './transaction.ts';
export { AuthType, HashMode, KeyEncoding, signerAddressVersion, type Authorization, type SpendingCondition, type AuthField } from './auth.ts';
export { PostConditionMode, type PostCondition, type PostConditionPrincipal, type AssetInfo } from './post-conditions.ts';
export { PayloadType, MAX_CLARITY_VERSION, type TransactionPayload, type MicroblockHeader } from './payload.ts';
export {
  abiTypeString,
  abiFunctionSignature,
  findAbiFunction,
  renderAbiJson,
  toAbi,
  type ClarityAbi,
  type ClarityAbiFunction,
  type ClarityAbiType,
} from './abi.ts';
export {
  formatTransaction,
  formatTxBase,
  formatTxMetadata,
  formatPostCondition,
  formatFunctionArgs,
  formatClarityHexRepr,
  txTypeOf,
  anchorModeName,
  postConditionModeName,
  tenureChangeCauseName,
  type FormatOptions,
  type ApiTxFields,
  type ApiTxBase,
  type ApiTxMetadata,
  type ApiPostCondition,
  type ApiFunctionArg,
} from './api-format.ts';
