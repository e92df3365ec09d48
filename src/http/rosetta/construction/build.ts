// The unsigned transaction of construction options: a token transfer, or a stack-stx,
// delegate-stx or revoke-delegate-stx call on the PoX contract, with a standard single-sig (P2PKH) authorization for the
// given public key, nonce and fee and an empty signature; anchor mode any, post-condition mode
// deny with no conditions (as @stacks/transactions builds them by default). Encoded by src/stacks/encode.
import { encodeTx, AnchorMode, HashMode, PostConditionMode, type Payload } from '../../../stacks/encode/transaction.ts';
import { Cv, type Address, type ClarityValue } from '../../../stacks/encode/clarity.ts';
import { btcToPoxAddress } from '../../../stacks/encode/btc-address.ts';
import { isValidPrincipal, parsePrincipal } from '../../../stacks/codec/index.ts';
import { HttpError } from '../../errors.ts';
import { rosettaError } from '../errors.ts';
import { hash160 } from './keys.ts';
import type { ConstructionOptions } from './options.ts';

export const BOOT_ADDRESS = { mainnet: 'SP000000000000000000002Q6VF78', testnet: 'ST000000000000000000002AMW42H' };

export interface Network {
  mainnet: boolean;
  chainId: number;
}

function principalCv(principal: string): ClarityValue {
  const p = parsePrincipal(principal);
  return Cv.principal({ version: p.version, hash160: Buffer.from(p.hash160, 'hex') }, p.contractName);
}

function address(principal: string): Address {
  const p = parsePrincipal(principal);
  return { version: p.version, hash160: Buffer.from(p.hash160, 'hex') };
}

function poxTuple(btc: string, mainnet: boolean): ClarityValue | HttpError {
  const pox = btcToPoxAddress(btc, mainnet ? 'mainnet' : 'testnet');
  if (!pox) return rosettaError('invalidOperation', `pox_addr ${JSON.stringify(btc)} is not a ${mainnet ? 'mainnet' : 'testnet'} Bitcoin address`);
  return Cv.tuple({ hashbytes: Cv.buffer(pox.hashbytes), version: Cv.buffer(Buffer.of(pox.version)) });
}

const hexBytes = (hex: string): Buffer => Buffer.from(hex.replace(/^0x/, ''), 'hex');

/** A token transfer memo: the text's UTF-8 bytes, zero padded to 34. */
function memoBytes(memo: string | undefined): Buffer | HttpError {
  const text = Buffer.from(memo ?? '', 'utf8');
  if (text.length > 34) return rosettaError('invalidParams', 'a memo is at most 34 bytes');
  return Buffer.concat([text, Buffer.alloc(34 - text.length)]);
}

/**
 * The payload the options describe. `contract` is the PoX contract ("address.name"); stacking
 * arguments missing in the options (while only estimating a size) get placeholders of their size.
 */
export function payloadOf(o: ConstructionOptions, net: Network, estimate = false): Payload | HttpError {
  const amount = BigInt(o.amount ?? '0');
  if (o.type === 'token_transfer') {
    const recipient = o.token_transfer_recipient_address;
    if (!recipient || !isValidPrincipal(recipient)) return rosettaError('invalidRecipient');
    const memo = memoBytes(o.memo);
    if (memo instanceof HttpError) return memo;
    return { type: 'token_transfer', recipient: principalCv(recipient), amount, memo };
  }
  const contractAddress = o.contract_address ?? (estimate ? (net.mainnet ? BOOT_ADDRESS.mainnet : BOOT_ADDRESS.testnet) : undefined);
  const contractName = o.contract_name ?? (estimate ? 'pox-4' : undefined);
  if (!contractAddress || !isValidPrincipal(contractAddress)) return rosettaError('missingContractAddress');
  if (!contractName) return rosettaError('missingContractName');
  const pox = o.pox_addr === undefined ? undefined : poxTuple(o.pox_addr, net.mainnet);
  if (pox instanceof HttpError) return pox;
  const call = (functionName: string, args: ClarityValue[]): Payload => ({ type: 'contract_call', address: address(contractAddress), contractName, functionName, args });
  if (o.type === 'stack_stx') {
    if (!pox) return rosettaError('invalidOperation', 'stack_stx needs metadata.pox_addr');
    if (o.number_of_cycles === undefined) return rosettaError('invalidOperation', 'stack_stx needs metadata.number_of_cycles');
    if (o.burn_block_height === undefined && !estimate) return rosettaError('invalidOperation', 'stack_stx needs burn_block_height (from /construction/metadata)');
    const args = [Cv.uint(amount), pox, Cv.uint(o.burn_block_height ?? 0), Cv.uint(o.number_of_cycles)];
    if (contractName !== 'pox-4') return call('stack-stx', args);
    if (!o.signer_key || !/^(0x)?[0-9a-fA-F]{66}$/.test(o.signer_key)) return rosettaError('invalidOperation', 'PoX-4 stack_stx needs metadata.signer_key (33 bytes, hex)');
    if (o.signer_signature !== undefined && !/^(0x)?[0-9a-fA-F]{130}$/.test(o.signer_signature)) return rosettaError('invalidOperation', 'signer_signature is 65 bytes, hex');
    if (o.pox_auth_id === undefined && !estimate) return rosettaError('invalidOperation', 'PoX-4 stack_stx needs pox_auth_id (from /construction/metadata)');
    const signature = o.signer_signature !== undefined ? hexBytes(o.signer_signature) : estimate ? Buffer.alloc(65) : undefined;
    return call('stack-stx', [
      ...args,
      signature ? Cv.some(Cv.buffer(signature)) : Cv.none(),
      Cv.buffer(hexBytes(o.signer_key)),
      Cv.uint(BigInt(o.pox_max_amount ?? o.amount ?? '0')),
      Cv.uint(BigInt(o.pox_auth_id ?? '0')),
    ]);
  }
  if (o.type === 'delegate_stx') {
    if (!o.delegate_to || !isValidPrincipal(o.delegate_to)) return rosettaError('invalidOperation', 'delegate_stx needs metadata.delegate_to, a principal');
    return call('delegate-stx', [
      Cv.uint(amount),
      principalCv(o.delegate_to),
      o.until_burn_height !== undefined ? Cv.some(Cv.uint(o.until_burn_height)) : Cv.none(),
      pox ? Cv.some(pox) : Cv.none(),
    ]);
  }
  if (o.type === 'revoke_delegate_stx') return call('revoke-delegate-stx', []);
  return rosettaError('invalidTransactionType');
}

/** The unsigned tx bytes: `payload` from `publicKey`'s single-sig address with this nonce and fee. */
export function unsignedTx(payload: Payload, publicKey: Uint8Array, nonce: bigint, fee: bigint, net: Network): Buffer {
  return encodeTx({
    mainnet: net.mainnet,
    chainId: net.chainId,
    origin: {
      kind: 'single',
      hashMode: HashMode.P2PKH,
      signer: hash160(publicKey),
      nonce: Number(nonce),
      fee: Number(fee),
      signature: Buffer.alloc(65),
      keyEncoding: publicKey.length === 33 ? 0x00 : 0x01,
    },
    anchorMode: AnchorMode.Any,
    postConditionMode: PostConditionMode.Deny,
    postConditions: [],
    payload,
  });
}

/** A size estimate of the signed tx the options describe (any key, nonce and fee take the same room). */
export function estimatedSize(o: ConstructionOptions, net: Network): number | HttpError {
  const payload = payloadOf(o, net, true);
  return payload instanceof HttpError ? payload : unsignedTx(payload, Buffer.alloc(33, 2), 0n, 0n, net).length;
}
