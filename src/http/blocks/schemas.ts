// Response schemas of the block families and the status route (schemas/api/block.json: the
// entities and the reference's list shapes around them).
import { apiSchemas } from '../schema-home.ts';

const block = apiSchemas('block.json');

export const BLOCK = block('Block');
export const BLOCK_LIST = block('BlockListResponse');
export const NAKAMOTO_BLOCK = block('NakamotoBlock');
export const NAKAMOTO_BLOCK_LIST = block('NakamotoBlockListResponse');
export const NAKAMOTO_BLOCK_CURSOR_LIST = block('NakamotoBlockCursorListResponse');
export const BURN_BLOCK = block('BurnBlock');
export const BURN_BLOCK_LIST = block('BurnBlockListResponse');
export const SERVER_STATUS = block('ServerStatusResponse');
export const AVERAGE_BLOCK_TIMES = block('AverageBlockTimesResponse');
export const SIGNER_SIGNATURES = block('BlockSignerSignatureResponse');
