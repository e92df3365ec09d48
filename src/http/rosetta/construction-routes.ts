// /rosetta/v1/construction/*: derive an address, build (preprocess -> metadata -> payloads), sign
// elsewhere, combine, check (parse, hash) and submit token transfers and stack-stx, delegate-stx and
// revoke-delegate-stx calls. Only metadata (nonce, fee estimate, PoX contract) and submit ask the node (through the
// proxy's pool); the rest works offline.
import { randomBytes } from 'node:crypto';
import type { RouteDef } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { HttpError } from '../errors.ts';
import { decodeTransaction, isValidPrincipal, type DecodedTransaction } from '../../stacks/codec/index.ts';
import { encodePayload } from '../../stacks/encode/transaction.ts';
import { STX } from './constants.ts';
import { rosettaError } from './errors.ts';
import { rosettaBody } from './request.ts';
import { meshResponses, meshSchema } from './schemas.ts';
import { tipBlock } from './queries.ts';
import { memoText } from './operations.ts';
import { addressOfKey, hash160, publicKeyBytes } from './construction/keys.ts';
import { optionsOf, outOfRange, type ConstructionOptions, type IntentOperation } from './construction/options.ts';
import { estimatedSize, payloadOf, unsignedTx, type Network } from './construction/build.ts';
import { isStandardSingleSig, isUnsigned, presignSighash, withSignature } from './construction/sighash.ts';
import { checkRecoverableSignature } from './construction/secp256k1.ts';
import { parsedOperations } from './construction/parse.ts';
import { accountNonce, broadcast, feeEstimate, poxInfo } from './construction/node.ts';

const tags = ['Rosetta'];

interface PublicKey {
  hex_bytes: string;
  curve_type: string;
}

const networkOf = (ctx: ApiContext): Network => ({ mainnet: ctx.config.isMainnet, chainId: ctx.config.chainId });

/** Throws the error when `v` is one. */
function ok<T>(v: T | HttpError): T {
  if (v instanceof HttpError) throw v;
  return v;
}

function intentOptions(operations: IntentOperation[]): ConstructionOptions {
  return ok(optionsOf(operations));
}

/** The one secp256k1 key a single-sig tx is built for. */
function singleKey(keys: PublicKey[] | undefined): Buffer {
  if (!keys || keys.length === 0) throw rosettaError('emptyPublicKey');
  if (keys.length !== 1) throw rosettaError('needOnePublicKey');
  if (keys[0].curve_type !== 'secp256k1') throw rosettaError('invalidCurveType');
  const key = publicKeyBytes(keys[0].hex_bytes);
  if (!key) throw rosettaError('invalidPublicKey');
  return key;
}

/** A transaction given as hex (0x optional), decoded, or the reference's 628. */
function decodeGiven(hex: string): { bytes: Buffer; tx: DecodedTransaction } {
  const h = hex.startsWith('0x') ? hex.slice(2) : hex;
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(h)) throw rosettaError('invalidTransactionString', 'not hex');
  const bytes = Buffer.from(h, 'hex');
  try {
    return { bytes, tx: decodeTransaction(bytes) };
  } catch (err) {
    throw rosettaError('invalidTransactionString', (err as Error).message);
  }
}

/** Construction options carried in /construction/payloads' metadata (what /construction/metadata returned). */
function optionsFromMetadata(m: Record<string, unknown> | undefined): ConstructionOptions {
  if (!m) return {};
  const pick: Record<string, unknown> = {};
  for (const k of ['contract_address', 'contract_name', 'burn_block_height', 'number_of_cycles', 'pox_addr', 'signer_key', 'signer_signature', 'pox_max_amount', 'pox_auth_id', 'reward_cycle_id', 'until_burn_height', 'memo']) {
    if (m[k] !== undefined && m[k] !== null) pick[k] = m[k];
  }
  return pick as ConstructionOptions;
}

export const constructionRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'post',
    path: '/rosetta/v1/construction/derive',
    summary: 'The address of a public key',
    tags,
    body: meshSchema('RosettaConstructionDeriveRequest'),
    responses: meshResponses('RosettaConstructionDeriveResponse'),
    handler: async (req, ctx) => {
      const body = rosettaBody<{ public_key: PublicKey }>(req, ctx, 'RosettaConstructionDeriveRequest');
      if (body.public_key.curve_type !== 'secp256k1') throw rosettaError('invalidCurveType');
      const key = publicKeyBytes(body.public_key.hex_bytes);
      if (!key) throw rosettaError('invalidPublicKey');
      return { account_identifier: { address: addressOfKey(key, ctx.config.isMainnet) } };
    },
  },
  {
    method: 'post',
    path: '/rosetta/v1/construction/preprocess',
    summary: 'Options of intent operations (offline)',
    tags,
    body: meshSchema('RosettaConstructionPreprocessRequest'),
    responses: meshResponses('RosettaConstructionPreprocessResponse'),
    handler: async (req, ctx) => {
      const body = rosettaBody<{ operations: IntentOperation[]; metadata?: Record<string, unknown>; max_fee?: Array<{ value: string; currency: { symbol: string; decimals: number } }>; suggested_fee_multiplier?: number }>(
        req,
        ctx,
        'RosettaConstructionPreprocessRequest',
      );
      const options = intentOptions(body.operations);
      const m = body.metadata ?? {};
      if (typeof m.gas_limit === 'number') options.gas_limit = m.gas_limit;
      if (typeof m.gas_price === 'number') options.gas_price = m.gas_price;
      if (typeof m.memo === 'string') options.memo = m.memo;
      if (body.suggested_fee_multiplier !== undefined) options.suggested_fee_multiplier = body.suggested_fee_multiplier;
      if (body.max_fee?.length) {
        const max = body.max_fee[0];
        if (max.currency.symbol !== STX.symbol || max.currency.decimals !== STX.decimals) throw rosettaError('invalidFee');
        options.max_fee = max.value;
      }
      if (!options.sender_address || !isValidPrincipal(options.sender_address)) throw rosettaError('invalidSender');
      options.size = ok(estimatedSize(options, networkOf(ctx)));
      return { options, required_public_keys: [{ address: options.sender_address }] };
    },
  },
  {
    method: 'post',
    path: '/rosetta/v1/construction/metadata',
    summary: "The sender's nonce, a fee estimate and the PoX contract (from the node)",
    tags,
    body: meshSchema('RosettaConstructionMetadataRequest'),
    responses: meshResponses('RosettaConstructionMetadataResponse'),
    cache: false,
    handler: async (req, ctx) => {
      const body = rosettaBody<{ options: ConstructionOptions }>(req, ctx, 'RosettaConstructionMetadataRequest');
      const options = { ...body.options };
      if (!options.sender_address) throw rosettaError('missingSenderAddress');
      if (!isValidPrincipal(options.sender_address)) throw rosettaError('invalidSender');
      if (options.symbol !== STX.symbol) throw rosettaError('invalidCurrencySymbol');
      if (options.decimals !== STX.decimals) throw rosettaError('invalidCurrencyDecimals');
      if (!options.fee && options.size === undefined) throw rosettaError('missingTransactionSize');
      const range = outOfRange(options);
      if (range) throw range;
      if (options.type === 'token_transfer') {
        if (!options.token_transfer_recipient_address || !isValidPrincipal(options.token_transfer_recipient_address)) throw rosettaError('invalidRecipient');
      } else if (options.type === 'stack_stx' || options.type === 'delegate_stx' || options.type === 'revoke_delegate_stx') {
        const pox = await poxInfo(ctx);
        [options.contract_address, options.contract_name] = pox.contract_id.split('.');
        if (options.type === 'stack_stx') {
          if (!options.number_of_cycles || !options.pox_addr) throw rosettaError('invalidOperation', 'stack_stx needs number_of_cycles and pox_addr');
          options.burn_block_height ??= pox.current_burnchain_block_height;
          options.reward_cycle_id ??= pox.current_cycle_id;
          if (options.contract_name === 'pox-4') {
            if (!options.signer_key) throw rosettaError('invalidOperation', 'PoX-4 stack_stx needs signer_key');
            options.pox_auth_id ??= BigInt(`0x${randomBytes(16).toString('hex')}`).toString();
          }
        }
      } else {
        throw rosettaError('invalidTransactionType');
      }
      const net = networkOf(ctx);
      const payload = ok(payloadOf(options, net, true));
      const size = options.size ?? ok(estimatedSize(options, net));
      const [nonce, fee, tip] = await Promise.all([accountNonce(ctx, options.sender_address), feeEstimate(ctx, encodePayload(payload).toString('hex'), size), tipBlock(ctx.store)]);
      const multiplier = options.suggested_fee_multiplier ?? 1;
      const suggested = multiplier === 1 ? fee : BigInt(Math.ceil(Number(fee) * multiplier));
      return {
        metadata: { ...options, account_sequence: nonce, ...(tip ? { recent_block_hash: tip.block_hash } : {}) },
        suggested_fee: [{ value: suggested.toString(), currency: { symbol: STX.symbol, decimals: STX.decimals } }],
      };
    },
  },
  {
    method: 'post',
    path: '/rosetta/v1/construction/payloads',
    summary: 'The unsigned transaction and the payload to sign',
    tags,
    body: meshSchema('RosettaConstructionPayloadsRequest'),
    responses: meshResponses('RosettaConstructionPayloadsResponse'),
    handler: async (req, ctx) => {
      const body = rosettaBody<{ operations: IntentOperation[]; metadata?: Record<string, unknown>; public_keys?: PublicKey[] }>(req, ctx, 'RosettaConstructionPayloadsRequest');
      const fromOps = intentOptions(body.operations);
      const carried = optionsFromMetadata(body.metadata);
      const options: ConstructionOptions = { ...carried, ...fromOps };
      // As the reference: a delegate_stx's expiry may come as the metadata's burn_block_height.
      if (options.type === 'delegate_stx') options.until_burn_height ??= carried.burn_block_height;
      if (!options.amount && options.type !== 'revoke_delegate_stx') throw rosettaError('invalidAmount');
      if (!options.fee) throw rosettaError('invalidFees');
      const sequence = body.metadata?.account_sequence;
      if (sequence === undefined) throw rosettaError('missingNonce');
      if (!Number.isSafeInteger(Number(sequence)) || Number(sequence) < 0) throw rosettaError('invalidParams', 'account_sequence is a nonce, a whole number');
      const key = singleKey(body.public_keys);
      const net = networkOf(ctx);
      if (!options.sender_address || addressOfKey(key, net.mainnet) !== options.sender_address) throw rosettaError('invalidSender', `the public key's address is ${addressOfKey(key, net.mainnet)}`);
      const fee = BigInt(options.fee.replace('-', ''));
      const tx = unsignedTx(ok(payloadOf(options, net)), key, BigInt(sequence as number), fee, net);
      const account_identifier = { address: options.sender_address };
      return {
        unsigned_transaction: `0x${tx.toString('hex')}`,
        payloads: [{ address: options.sender_address, account_identifier, hex_bytes: presignSighash(tx).toString('hex'), signature_type: 'ecdsa_recovery' }],
      };
    },
  },
  {
    method: 'post',
    path: '/rosetta/v1/construction/combine',
    summary: 'The signed transaction',
    tags,
    body: meshSchema('RosettaConstructionCombineRequest'),
    responses: meshResponses('RosettaConstructionCombineResponse'),
    handler: async (req, ctx) => {
      const body = rosettaBody<{ unsigned_transaction: string; signatures: Array<{ signing_payload: { hex_bytes: string }; public_key: PublicKey; signature_type: string; hex_bytes: string }> }>(
        req,
        ctx,
        'RosettaConstructionCombineRequest',
      );
      const { bytes, tx } = decodeGiven(body.unsigned_transaction);
      if (!isStandardSingleSig(tx)) throw rosettaError('invalidTransactionString', 'only standard single-sig transactions are signed here');
      if (body.signatures.length === 0) throw rosettaError('noSignatures');
      if (body.signatures.length !== 1) throw rosettaError('needOnlyOneSignature');
      const sig = body.signatures[0];
      if (sig.public_key.curve_type !== 'secp256k1') throw rosettaError('invalidCurveType');
      if (sig.signature_type !== 'ecdsa_recovery') throw rosettaError('signatureTypeNotSupported', 'ecdsa_recovery (r, s, recovery id)');
      const key = publicKeyBytes(sig.public_key.hex_bytes);
      if (!key) throw rosettaError('invalidPublicKey');
      const rsv = Buffer.from(sig.hex_bytes.replace(/^0x/, ''), 'hex');
      if (rsv.length !== 65) throw rosettaError('invalidSignature', 'an ecdsa_recovery signature is 65 bytes');
      const sighash = presignSighash(bytes);
      if (sig.signing_payload.hex_bytes.replace(/^0x/, '').toLowerCase() !== sighash.toString('hex')) throw rosettaError('signatureNotVerified', "the signed payload is not this transaction's");
      if (`0x${hash160(key).toString('hex')}` !== tx.auth.origin.signer) throw rosettaError('signatureNotVerified', "the public key is not the transaction's signer");
      const check = checkRecoverableSignature(sighash, rsv, key);
      if (!check.ok) throw rosettaError('signatureNotVerified', check.reason);
      return { signed_transaction: `0x${withSignature(bytes, rsv).toString('hex')}` };
    },
  },
  {
    method: 'post',
    path: '/rosetta/v1/construction/parse',
    summary: 'The operations of a transaction (signed or not)',
    tags,
    body: meshSchema('RosettaConstructionParseRequest'),
    responses: meshResponses('RosettaConstructionParseResponse'),
    handler: async (req, ctx) => {
      const body = rosettaBody<{ signed: boolean; transaction: string }>(req, ctx, 'RosettaConstructionParseRequest');
      const { tx } = decodeGiven(body.transaction);
      if (body.signed === isUnsigned(tx)) throw rosettaError('invalidParams', body.signed ? 'the transaction is not signed' : 'the transaction is signed');
      const out: Record<string, unknown> = { operations: parsedOperations(tx, ctx.config.isMainnet) };
      if (body.signed) out.account_identifier_signers = [{ address: tx.senderAddress }, ...(tx.sponsorAddress ? [{ address: tx.sponsorAddress }] : [])];
      const memo = tx.payload.type === 'token_transfer' ? memoText(tx.payload.memo) : undefined;
      if (memo) out.metadata = { memo };
      return out;
    },
  },
  {
    method: 'post',
    path: '/rosetta/v1/construction/hash',
    summary: 'The id of a signed transaction',
    tags,
    body: meshSchema('RosettaConstructionHashRequest'),
    responses: meshResponses('RosettaTransactionIdentifierResponse'),
    handler: async (req, ctx) => {
      const body = rosettaBody<{ signed_transaction: string }>(req, ctx, 'RosettaConstructionHashRequest');
      const { tx } = decodeGiven(body.signed_transaction);
      if (isUnsigned(tx)) throw rosettaError('transactionNotSigned');
      return { transaction_identifier: { hash: tx.txId } };
    },
  },
  {
    method: 'post',
    path: '/rosetta/v1/construction/submit',
    summary: 'Broadcast a signed transaction (to the node pool)',
    tags,
    body: meshSchema('RosettaConstructionSubmitRequest'),
    responses: meshResponses('RosettaTransactionIdentifierResponse'),
    cache: false,
    handler: async (req, ctx) => {
      const body = rosettaBody<{ signed_transaction: string }>(req, ctx, 'RosettaConstructionSubmitRequest');
      const { bytes, tx } = decodeGiven(body.signed_transaction);
      if (isUnsigned(tx)) throw rosettaError('transactionNotSigned');
      const txid = ok(await broadcast(ctx, bytes));
      return { transaction_identifier: { hash: txid } };
    },
  },
];
