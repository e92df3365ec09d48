// Rosetta request bodies: JSON, validated against the Mesh request schema of the endpoint, then the
// reference's own checks in its order: the network identifier against our chain, block and tx hashes,
// the account's principal. Failures are the reference's Rosetta errors (400).
import { Ajv, type ValidateFunction } from 'ajv';
import type { ApiRequest } from '../request.ts';
import { bodyOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { isValidPrincipal } from '../../stacks/codec/index.ts';
import { BLOCKCHAIN } from './constants.ts';
import { rosettaError } from './errors.ts';
import { meshSchema } from './schemas.ts';

const ajv = new Ajv({ allErrors: false, strict: false });
const validators = new Map<string, ValidateFunction>();

function validatorFor(name: string): ValidateFunction {
  let v = validators.get(name);
  if (!v) validators.set(name, (v = ajv.compile(meshSchema(name))));
  return v;
}

/** The Rosetta network name of the chain this service indexes. */
export const networkName = (ctx: Pick<ApiContext, 'config'>): string => (ctx.config.isMainnet ? 'mainnet' : 'testnet');

const HASH = /^(0x)?[0-9a-fA-F]{64}$/;

/** `0x` + lowercase hex of a 32-byte hash given with or without the prefix. */
export const normalizeHash = (hash: string): string => (hash.startsWith('0x') ? hash : `0x${hash}`).toLowerCase();

/**
 * The reference maps the first schema error to a code by what its message names (a missing
 * network_identifier is 613, a missing blockchain 617, ...); other schema errors are 612.
 */
function schemaError(instancePath: string, message: string) {
  const details = `${instancePath ? `${instancePath.slice(1).replaceAll('/', '.')} ` : ''}${message}`;
  if (/network_identifier/.test(message)) return rosettaError('emptyNetworkIdentifier', { message });
  if (/blockchain/.test(message)) return rosettaError('emptyBlockchain', details);
  if (/network/.test(message)) return rosettaError('emptyNetwork', details);
  if (/block_identifier/.test(message)) return rosettaError('invalidBlockIdentifier', details);
  if (/transaction_identifier/.test(message)) return rosettaError('invalidTransactionIdentifier', details);
  if (/operations/.test(message) || instancePath.startsWith('/operations')) return rosettaError('invalidOperation', details);
  if (/must have required property/.test(message)) return rosettaError('invalidParams', details);
  return rosettaError('unknownError', details);
}

interface Identified {
  network_identifier?: { blockchain: string; network: string };
  block_identifier?: { hash?: string };
  transaction_identifier?: { hash?: string };
  account_identifier?: { address: string };
}

/** The request's JSON body, valid against the Mesh schema `schemaName`, or a thrown Rosetta error. */
export function rosettaBody<T>(req: ApiRequest, ctx: Pick<ApiContext, 'config'>, schemaName: string): T {
  const raw = bodyOf(req);
  let body: unknown = {};
  if (raw.length > 0) {
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw rosettaError('invalidParams', 'the request body is not JSON');
    }
  }
  const validate = validatorFor(schemaName);
  if (!validate(body)) {
    const first = validate.errors?.[0];
    throw schemaError(first?.instancePath ?? '', first?.message ?? 'is invalid');
  }
  const b = body as Identified;
  if (b.network_identifier) {
    if (b.network_identifier.blockchain !== BLOCKCHAIN) throw rosettaError('invalidBlockchain');
    if (b.network_identifier.network !== networkName(ctx)) throw rosettaError('invalidNetwork');
  }
  if (b.block_identifier?.hash !== undefined && !HASH.test(b.block_identifier.hash)) throw rosettaError('invalidBlockHash');
  if (b.transaction_identifier?.hash !== undefined && !HASH.test(b.transaction_identifier.hash)) throw rosettaError('invalidTransactionHash');
  if (b.account_identifier && !isValidPrincipal(b.account_identifier.address)) throw rosettaError('invalidAccount');
  return body as T;
}
