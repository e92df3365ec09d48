// JSON Schemas of the info family's answers: fee rate, network block times, and the faucet's
// "not offered" error (the reference API's entities, v8.15.4).
type S = Record<string, unknown>;

const int: S = { type: 'integer' };
const obj = (title: string | undefined, properties: Record<string, S>, required = Object.keys(properties)): S => ({ ...(title ? { title } : {}), type: 'object', properties, required });

export const FEE_RATE_REQUEST: S = obj('FeeRateRequest', { transaction: { type: 'string' } });
export const FEE_RATE: S = obj('FeeRate', { fee_rate: int });

const BLOCK_TIME = obj(undefined, { target_block_time: int });
export const NETWORK_BLOCK_TIMES: S = obj('NetworkBlockTimesResponse', { mainnet: BLOCK_TIME, testnet: BLOCK_TIME });
export const NETWORK_BLOCK_TIME: S = obj('NetworkBlockTimeResponse', { target_block_time: int });

export const FAUCET_UNAVAILABLE: S = obj('FaucetUnavailable', { success: { const: false }, error: { type: 'string' }, message: { type: 'string' } });
