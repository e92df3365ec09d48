// Constant answers of the reference API: the deprecated fee-rate estimate, the networks' target
// block times, and the faucets, which this API does not offer (they need funded keys and a node).
import type { RouteDef } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { FAUCET_UNAVAILABLE, FEE_RATE, FEE_RATE_REQUEST, NETWORK_BLOCK_TIME, NETWORK_BLOCK_TIMES } from './schemas.ts';

/** The reference answers every fee-rate request with this constant (the endpoint is deprecated). */
const FEE_RATE_CONSTANT = 400;

/** Target block times in seconds: mainnet follows Bitcoin's 10 minutes, the testnet's regtest 2. */
const TARGET_BLOCK_TIME = { mainnet: 600, testnet: 120 } as const;

const NO_FAUCET = 'The faucets are not offered by this API: it holds no keys and sends no transactions';

/** 403, as the reference answers a faucet it has no configuration for ({error, success: false}). */
const faucetUnavailable = async () => ({ status: 403, body: { success: false, error: NO_FAUCET, message: NO_FAUCET } });

const faucet = (method: 'get' | 'post', path: string, summary: string): RouteDef<ApiContext> => ({
  method,
  path,
  summary,
  ...(path.includes(':address') ? { params: { type: 'object', properties: { address: { type: 'string' } }, required: ['address'] } } : {}),
  tags: ['Faucets'],
  cache: false,
  responses: { 403: FAUCET_UNAVAILABLE },
  handler: faucetUnavailable,
});

export const infoRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'post',
    path: '/extended/v1/fee_rate',
    summary: 'Fetch fee rate (deprecated: a constant)',
    tags: ['Fees'],
    body: FEE_RATE_REQUEST,
    validateBody: true,
    responses: { 200: FEE_RATE },
    handler: async () => ({ fee_rate: FEE_RATE_CONSTANT }),
  },
  {
    method: 'get',
    path: '/extended/v1/info/network_block_times',
    summary: 'Get the network target block times',
    tags: ['Info'],
    responses: { 200: NETWORK_BLOCK_TIMES },
    handler: async () => ({ testnet: { target_block_time: TARGET_BLOCK_TIME.testnet }, mainnet: { target_block_time: TARGET_BLOCK_TIME.mainnet } }),
  },
  {
    method: 'get',
    path: '/extended/v1/info/network_block_time/:network',
    summary: "Get a given network's target block time",
    tags: ['Info'],
    params: { type: 'object', properties: { network: { enum: ['mainnet', 'testnet'] } }, required: ['network'] },
    responses: { 200: NETWORK_BLOCK_TIME },
    handler: async (req) => ({ target_block_time: TARGET_BLOCK_TIME[req.params.network as keyof typeof TARGET_BLOCK_TIME] }),
  },
  faucet('post', '/extended/v1/faucets/stx', 'Get STX testnet tokens (not offered)'),
  faucet('post', '/extended/v1/faucets/btc', 'Add regtest BTC tokens to an address (not offered)'),
  faucet('get', '/extended/v1/faucets/btc/:address', 'Get the BTC balance of an address (not offered)'),
];
