// JSON Schemas of the token routes (schemas/api/tokens.json; a tx asked for with tx_metadata=true is
// the tx family's Transaction from schemas/api/transaction.json, by $ref).
import { apiSchemas } from '../schema-home.ts';

const tokens = apiSchemas('tokens.json', ['transaction.json']);

export const HOLDINGS_QUERY = tokens('HoldingsQuery');
export const HISTORY_QUERY = tokens('HistoryQuery');
export const MINTS_QUERY = tokens('MintsQuery');
export const HOLDERS_PARAMS = tokens('HoldersParams');
export const HOLDERS_QUERY = tokens('HoldersQuery');

export const NFT_HOLDINGS = tokens('NonFungibleTokenHoldingsList');
export const NFT_HISTORY = tokens('NonFungibleTokenHistoryEventList');
export const NFT_MINTS = tokens('NonFungibleTokenMintList');
export const FT_HOLDERS = tokens('FungibleTokenHolderList');
