// Renders a decoded transaction the way the reference API's /extended/v1/tx/:tx_id body renders the
// fields that come from the transaction bytes (plus tx_result / event values from the node's hex).
// Block/status fields (block_hash, tx_status, events …) are the HTTP layer's business.
import type { DecodedTransaction } from './transaction.ts';
import type { PostCondition, PostConditionPrincipal } from './post-conditions.ts';
import type { TransactionPayload } from './payload.ts';
import { clarityHexRepr, decodeClarity, type ClarityHexRepr } from './clarity.ts';
import { abiFunctionSignature, abiTypeString, findAbiFunction, toAbi, type ClarityAbi, type ClarityAbiFunction } from './abi.ts';

export type ApiPostConditionPrincipal =
  | { type_id: 'principal_origin' }
  | { type_id: 'principal_standard'; address: string }
  | { type_id: 'principal_contract'; address: string; contract_name: string };

export interface ApiAsset {
  asset_name: string;
  contract_address: string;
  contract_name: string;
}

export type ApiPostCondition =
  | { principal: ApiPostConditionPrincipal; condition_code: string; amount: string; type: 'stx' | 'staking' }
  | { principal: ApiPostConditionPrincipal; condition_code: string; amount: string; type: 'fungible'; asset: ApiAsset }
  | { principal: ApiPostConditionPrincipal; condition_code: string; type: 'non_fungible'; asset_value: ClarityHexRepr; asset: ApiAsset }
  | { principal: ApiPostConditionPrincipal; condition_code: string; type: 'pox' };

export interface ApiFunctionArg {
  hex: string;
  repr: string;
  name: string;
  type: string;
}

export type ApiTxMetadata =
  | { tx_type: 'token_transfer'; token_transfer: { recipient_address: string; amount: string; memo: string } }
  | { tx_type: 'smart_contract'; smart_contract: { clarity_version: number | null; contract_id: string; source_code: string } }
  | {
      tx_type: 'contract_call';
      contract_call: { contract_id: string; function_name: string; function_signature: string; function_args?: ApiFunctionArg[] };
    }
  | { tx_type: 'poison_microblock'; poison_microblock: { microblock_header_1: string; microblock_header_2: string } }
  | { tx_type: 'coinbase'; coinbase_payload: { data: string; alt_recipient: string | null; vrf_proof?: string } }
  | {
      tx_type: 'tenure_change';
      tenure_change_payload: {
        tenure_consensus_hash: string;
        prev_tenure_consensus_hash: string;
        burn_view_consensus_hash: string;
        previous_tenure_end: string;
        previous_tenure_blocks: number;
        cause: string;
        pubkey_hash: string;
      };
    };

export interface ApiTxBase {
  tx_id: string;
  nonce: number;
  sponsor_nonce?: number;
  fee_rate: string;
  sender_address: string;
  sponsored: boolean;
  sponsor_address?: string;
  post_condition_mode: string;
  post_conditions: ApiPostCondition[];
  anchor_mode: string;
}

export type ApiTxFields = ApiTxBase & ApiTxMetadata;

export interface FormatOptions {
  /** ABI of the called contract (object or JSON text); shapes function_signature and arg name/type. */
  abi?: ClarityAbi | string | null;
  /** As the reference's `exclude_function_args=true`: omit contract_call.function_args. */
  excludeFunctionArgs?: boolean;
}

const ANCHOR_MODES = ['', 'on_chain_only', 'off_chain_only', 'any'];
const PC_MODES = ['', 'allow', 'deny', 'originator'];
const FUNGIBLE_CODES = ['', 'sent_equal_to', 'sent_greater_than', 'sent_greater_than_or_equal_to', 'sent_less_than', 'sent_less_than_or_equal_to'];
const NFT_CODES: Record<number, string> = { 0x10: 'sent', 0x11: 'not_sent', 0x12: 'maybe_sent' };
const POX_CODES: Record<number, string> = { 0x30: 'not_performed', 0x31: 'maybe_performed', 0x32: 'performed' };
const TENURE_CAUSES = ['block_found', 'extended', 'extended_runtime', 'extended_read_count', 'extended_read_length', 'extended_write_count', 'extended_write_length'];

export function anchorModeName(mode: number): string {
  return ANCHOR_MODES[mode] ?? 'unknown';
}

export function postConditionModeName(mode: number): string {
  return PC_MODES[mode] ?? 'unknown';
}

export function tenureChangeCauseName(cause: number): string {
  return TENURE_CAUSES[cause] ?? 'unknown';
}

function formatPrincipal(p: PostConditionPrincipal): ApiPostConditionPrincipal {
  if (p.type === 'standard') return { type_id: 'principal_standard', address: p.address };
  if (p.type === 'contract') return { type_id: 'principal_contract', address: p.address, contract_name: p.contractName };
  return { type_id: 'principal_origin' };
}

export function formatPostCondition(pc: PostCondition): ApiPostCondition {
  const principal = formatPrincipal(pc.principal);
  switch (pc.type) {
    case 'stx':
    case 'staking':
      return { principal, condition_code: FUNGIBLE_CODES[pc.conditionCode], amount: pc.amount.toString(), type: pc.type };
    case 'fungible':
      return {
        principal,
        condition_code: FUNGIBLE_CODES[pc.conditionCode],
        amount: pc.amount.toString(),
        type: 'fungible',
        asset: { asset_name: pc.asset.assetName, contract_address: pc.asset.contractAddress, contract_name: pc.asset.contractName },
      };
    case 'non_fungible':
      return {
        principal,
        condition_code: NFT_CODES[pc.conditionCode],
        type: 'non_fungible',
        asset_value: { hex: pc.assetValue.hex, repr: pc.assetValue.repr },
        asset: { asset_name: pc.asset.assetName, contract_address: pc.asset.contractAddress, contract_name: pc.asset.contractName },
      };
    case 'pox':
      return { principal, condition_code: POX_CODES[pc.conditionCode], type: 'pox' };
  }
}

/**
 * Contract-call args as {hex, repr, name, type}. With the called function's ABI, name and type come
 * from it; without, name is '' and type is the value's own type signature (as the reference does).
 */
export function formatFunctionArgs(args: readonly string[], fn?: ClarityAbiFunction): ApiFunctionArg[] {
  return args.map((hex, i) => {
    const abiArg = fn?.args[i];
    if (abiArg?.type) {
      const { repr } = clarityHexRepr(hex);
      return { hex, repr, name: abiArg.name || '', type: abiTypeString(abiArg.type) };
    }
    const d = decodeClarity(hex);
    return { hex, repr: d.repr, name: abiArg?.name || '', type: d.type_signature };
  });
}

/** tx_id … anchor_mode. */
export function formatTxBase(tx: DecodedTransaction): ApiTxBase {
  const base: ApiTxBase = {
    tx_id: tx.txId,
    nonce: Number(tx.nonce),
    fee_rate: tx.fee.toString(),
    sender_address: tx.senderAddress,
    sponsored: tx.sponsored,
    post_condition_mode: postConditionModeName(tx.postConditionMode),
    post_conditions: tx.postConditions.map(formatPostCondition),
    anchor_mode: anchorModeName(tx.anchorMode),
  };
  if (tx.sponsored) {
    // same key order as the reference's object literal
    return {
      tx_id: base.tx_id,
      nonce: base.nonce,
      sponsor_nonce: Number(tx.sponsorNonce),
      fee_rate: base.fee_rate,
      sender_address: base.sender_address,
      sponsored: true,
      sponsor_address: tx.sponsorAddress,
      post_condition_mode: base.post_condition_mode,
      post_conditions: base.post_conditions,
      anchor_mode: base.anchor_mode,
    };
  }
  return base;
}

/** The reference's tx_type string for a payload (versioned deploys are smart_contract, all coinbases coinbase). */
export function txTypeOf(payload: TransactionPayload): ApiTxMetadata['tx_type'] {
  switch (payload.type) {
    case 'versioned_smart_contract':
      return 'smart_contract';
    case 'coinbase_to_alt_recipient':
    case 'nakamoto_coinbase':
      return 'coinbase';
    default:
      return payload.type;
  }
}

/** tx_type and the payload object. */
export function formatTxMetadata(tx: DecodedTransaction, opts?: FormatOptions): ApiTxMetadata {
  const p = tx.payload;
  switch (p.type) {
    case 'token_transfer':
      return { tx_type: 'token_transfer', token_transfer: { recipient_address: p.recipient, amount: p.amount.toString(), memo: p.memo } };
    case 'smart_contract':
    case 'versioned_smart_contract':
      return {
        tx_type: 'smart_contract',
        smart_contract: {
          clarity_version: p.type === 'versioned_smart_contract' ? p.clarityVersion : null,
          contract_id: `${tx.senderAddress}.${p.contractName}`,
          source_code: p.codeBody,
        },
      };
    case 'contract_call': {
      const fn = findAbiFunction(toAbi(opts?.abi), p.functionName);
      const contract_call: Extract<ApiTxMetadata, { tx_type: 'contract_call' }>['contract_call'] = {
        contract_id: `${p.contractAddress}.${p.contractName}`,
        function_name: p.functionName,
        function_signature: fn ? abiFunctionSignature(fn) : '',
      };
      if (!opts?.excludeFunctionArgs) contract_call.function_args = formatFunctionArgs(p.functionArgs, fn);
      return { tx_type: 'contract_call', contract_call };
    }
    case 'poison_microblock':
      return { tx_type: 'poison_microblock', poison_microblock: { microblock_header_1: p.header1.hex, microblock_header_2: p.header2.hex } };
    case 'coinbase':
      return { tx_type: 'coinbase', coinbase_payload: { data: p.payload, alt_recipient: null } };
    case 'coinbase_to_alt_recipient':
      return { tx_type: 'coinbase', coinbase_payload: { data: p.payload, alt_recipient: p.recipient } };
    case 'nakamoto_coinbase':
      return { tx_type: 'coinbase', coinbase_payload: { data: p.payload, alt_recipient: p.recipient, vrf_proof: p.vrfProof } };
    case 'tenure_change':
      return {
        tx_type: 'tenure_change',
        tenure_change_payload: {
          tenure_consensus_hash: p.tenureConsensusHash,
          prev_tenure_consensus_hash: p.prevTenureConsensusHash,
          burn_view_consensus_hash: p.burnViewConsensusHash,
          previous_tenure_end: p.previousTenureEnd,
          previous_tenure_blocks: p.previousTenureBlocks,
          cause: tenureChangeCauseName(p.cause),
          pubkey_hash: p.pubkeyHash,
        },
      };
  }
}

/** Base fields followed by tx_type and the payload object. */
export function formatTransaction(tx: DecodedTransaction, opts?: FormatOptions): ApiTxFields {
  return Object.assign(formatTxBase(tx), formatTxMetadata(tx, opts)) as ApiTxFields;
}

/** `tx_result` from a block's `raw_result` (and any event `raw_value`): {hex, repr}. */
export function formatClarityHexRepr(rawHex: string): ClarityHexRepr {
  return clarityHexRepr(rawHex);
}
