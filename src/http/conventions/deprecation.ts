// Hiro v9's deprecation of the v1/v2 routes it replaced (most by /extended/v3): their answers carry
// its `Warning` header, and with ENABLE_DEPRECATED_ENDPOINTS=false (the reference's switch, for a
// sunset date) they answer 410 Gone with its body before any work. Default: enabled.
import { ConfigError } from '../../config/config.ts';

type Env = Record<string, string | undefined>;

/** The routes the reference v9 (9.0.2) marks deprecated, as `METHOD pattern`. */
const DEPRECATED_IN_V9 = new Set([
  'GET /extended/v1/tx',
  'GET /extended/v1/tx/mempool',
  'GET /extended/v1/tx/events',
  'GET /extended/v1/tx/:tx_id',
  'GET /extended/v1/tx/:tx_id/raw',
  'GET /extended/v1/tx/block/:block_hash',
  'GET /extended/v1/tx/block_height/:height',
  'GET /extended/v1/stx_supply/total/plain',
  'GET /extended/v1/stx_supply/circulating/plain',
  'GET /extended/v1/stx_supply/legacy_format',
  'GET /extended/v1/tokens/nft/holdings',
  'GET /extended/v1/contract/:contract_id/events',
  'POST /extended/v1/fee_rate',
  'GET /extended/v1/microblock',
  'GET /extended/v1/microblock/:hash',
  'GET /extended/v1/microblock/unanchored/txs',
  'GET /extended/v1/block',
  'GET /extended/v1/block/by_height/:height',
  'GET /extended/v1/block/by_burn_block_height/:burn_block_height',
  'GET /extended/v1/block/:hash',
  'GET /extended/v1/block/by_burn_block_hash/:burn_block_hash',
  'GET /extended/v1/address/:principal/stx',
  'GET /extended/v1/address/:principal/balances',
  'GET /extended/v1/address/:principal/transactions',
  'GET /extended/v1/address/:principal/:tx_id/with_transfers',
  'GET /extended/v1/address/:principal/transactions_with_transfers',
  'GET /extended/v1/address/:principal/assets',
  'GET /extended/v1/address/:principal/stx_inbound',
  'GET /extended/v1/address/:principal/mempool',
  'GET /extended/v1/address/:principal/nonces',
  'GET /extended/v1/faucets/btc/:address',
  'GET /extended/v2/blocks/:height_or_hash/transactions',
  'GET /extended/v2/addresses/:address/transactions',
  'GET /extended/v2/addresses/:address/transactions/:tx_id/events',
  'GET /extended/v2/addresses/:principal/balances/stx',
  'GET /extended/v2/addresses/:principal/balances/ft',
  'GET /extended/v2/addresses/:principal/balances/ft/:token',
]);

/** The reference's default message (no route of its sets its own). */
const MESSAGE = 'See https://docs.hiro.so/stacks/api for more information';

/** The header every answer of a deprecated route carries. */
export const DEPRECATION_WARNING = { warning: `299 - "Deprecated: ${MESSAGE}"` } as const;

/** What a deprecated route answers once deprecated routes are disabled. */
export const GONE = { status: 410, body: { error: 'Gone', message: `This endpoint has been disabled. ${MESSAGE}` } } as const;

/** Whether the reference v9 deprecates this route (parameter names may differ: only positions count). */
export function deprecatedInV9(method: string, path: string): boolean {
  const shape = (p: string) => p.replace(/:\w+/g, ':');
  const key = `${method.toUpperCase()} ${shape(path)}`;
  for (const d of DEPRECATED_IN_V9) if (shape(d) === key) return true;
  return false;
}

/** ENABLE_DEPRECATED_ENDPOINTS, a boolean as the reference reads it (`true`/`false`, or `1`/`0`;
 *  unset: true). A start-up check (src/cli/startup.ts) rejects any other value. */
export function readDeprecatedEndpoints(env: Env = process.env): boolean {
  const v = env.ENABLE_DEPRECATED_ENDPOINTS?.trim().toLowerCase();
  if (v === undefined || v === '' || v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new ConfigError('ENABLE_DEPRECATED_ENDPOINTS', `expected true or false, got "${env.ENABLE_DEPRECATED_ENDPOINTS}"`);
}

/** readDeprecatedEndpoints where a bad value was already reported at start-up: enabled. */
export function deprecatedEndpointsEnabled(env: Env = process.env): boolean {
  try {
    return readDeprecatedEndpoints(env);
  } catch {
    return true;
  }
}
