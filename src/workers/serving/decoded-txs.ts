// A txs row's decoded transaction, kept beside the row (not in it: rows are serialized whole for
// ClickHouse) so the serving documents are rendered without decoding the bytes a second time.
import type { DecodedTransaction } from '../../stacks/codec/transaction.ts';

export const decodedTxOf = new WeakMap<object, DecodedTransaction>();
