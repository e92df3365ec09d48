// JSON Schemas of the info family's answers: fee rate, network block times, and the faucet's
// "not offered" error (schemas/api/info.json).
import { apiSchemas } from '../schema-home.ts';

const info = apiSchemas('info.json');

export const FEE_RATE_REQUEST = info('FeeRateRequest');
export const FEE_RATE = info('FeeRate');
export const NETWORK_BLOCK_TIMES = info('NetworkBlockTimesResponse');
export const NETWORK_BLOCK_TIME = info('NetworkBlockTimeResponse');
export const FAUCET_UNAVAILABLE = info('FaucetUnavailable');
