// Transaction payloads (SIP-005 §12.3): every kind up to Nakamoto (tenure change, Nakamoto coinbase).
import { ByteReader, DecodeError } from './bytes.ts';
import { ClarityTypeId, readAddress, readContractName, skipClarityValue } from './clarity-value.ts';

export const PayloadType = {
  TokenTransfer: 0x00,
  SmartContract: 0x01,
  ContractCall: 0x02,
  PoisonMicroblock: 0x03,
  Coinbase: 0x04,
  CoinbaseToAltRecipient: 0x05,
  VersionedSmartContract: 0x06,
  TenureChange: 0x07,
  NakamotoCoinbase: 0x08,
} as const;

/** Highest Clarity version a versioned deploy may name (epoch 4.x). */
export const MAX_CLARITY_VERSION = 6;

export interface MicroblockHeader {
  /** The whole 132-byte header, 0x hex (what the reference shows). */
  hex: string;
  version: number;
  sequence: number;
  prevBlock: string;
  txMerkleRoot: string;
  signature: string;
}

export type TransactionPayload =
  | { type: 'token_transfer'; recipient: string; amount: bigint; /** 34 bytes, 0x hex */ memo: string }
  | { type: 'smart_contract'; contractName: string; codeBody: string }
  | { type: 'versioned_smart_contract'; clarityVersion: number; contractName: string; codeBody: string }
  | {
      type: 'contract_call';
      contractAddress: string;
      contractName: string;
      functionName: string;
      /** Each argument's serialized bytes, 0x hex (structure already validated). */
      functionArgs: string[];
    }
  | { type: 'poison_microblock'; header1: MicroblockHeader; header2: MicroblockHeader }
  | { type: 'coinbase'; /** 32 bytes, 0x hex */ payload: string }
  | { type: 'coinbase_to_alt_recipient'; payload: string; recipient: string }
  | { type: 'nakamoto_coinbase'; payload: string; recipient: string | null; /** 80 bytes, 0x hex */ vrfProof: string }
  | {
      type: 'tenure_change';
      tenureConsensusHash: string;
      prevTenureConsensusHash: string;
      burnViewConsensusHash: string;
      previousTenureEnd: string;
      previousTenureBlocks: number;
      cause: number;
      pubkeyHash: string;
    };

/** A Clarity principal value (0x05 standard / 0x06 contract) as "addr" or "addr.name". */
function readPrincipalValue(r: ByteReader, field: string): string {
  const at = r.pos;
  const id = r.u8(`${field} type id`);
  if (id === ClarityTypeId.PrincipalStandard) return readAddress(r, field).address;
  if (id === ClarityTypeId.PrincipalContract) {
    const address = readAddress(r, field).address;
    return `${address}.${readContractName(r, `${field} contract name`)}`;
  }
  throw new DecodeError(`${field} at offset ${at} must be a principal (type 0x05 or 0x06), got type 0x${id.toString(16).padStart(2, '0')}`);
}

function readMicroblockHeader(r: ByteReader, field: string): MicroblockHeader {
  r.need(132, field);
  const start = r.pos;
  const version = r.u8(`${field} version`);
  const sequence = r.u16(`${field} sequence`);
  const prevBlock = r.hex(32, `${field} prev block`);
  const txMerkleRoot = r.hex(32, `${field} tx merkle root`);
  const signature = r.hex(65, `${field} signature`);
  return { hex: r.hexSince(start), version, sequence, prevBlock, txMerkleRoot, signature };
}

function readCodeBody(r: ByteReader): string {
  const len = r.u32('code body length');
  r.need(len, 'code body');
  const code = r.buf.toString('utf8', r.pos, r.pos + len);
  r.pos += len;
  return code;
}

export function readPayload(r: ByteReader): TransactionPayload {
  const at = r.pos;
  const id = r.u8('payload type');
  switch (id) {
    case PayloadType.TokenTransfer: {
      const recipient = readPrincipalValue(r, 'token transfer recipient');
      const amount = r.u64('token transfer amount');
      return { type: 'token_transfer', recipient, amount, memo: r.hex(34, 'token transfer memo') };
    }
    case PayloadType.SmartContract: {
      const contractName = readContractName(r, 'contract name');
      return { type: 'smart_contract', contractName, codeBody: readCodeBody(r) };
    }
    case PayloadType.VersionedSmartContract: {
      const clarityVersion = r.u8('Clarity version');
      if (clarityVersion < 1 || clarityVersion > MAX_CLARITY_VERSION) {
        throw new DecodeError(`unknown Clarity version ${clarityVersion} at offset ${r.pos - 1}`);
      }
      const contractName = readContractName(r, 'contract name');
      return { type: 'versioned_smart_contract', clarityVersion, contractName, codeBody: readCodeBody(r) };
    }
    case PayloadType.ContractCall: {
      const contractAddress = readAddress(r, 'contract call address').address;
      const contractName = readContractName(r, 'contract call contract name');
      const functionName = r.name('contract call function name', 1);
      const n = r.u32('contract call argument count');
      if (n > r.remaining) throw new DecodeError(`truncated: ${n} contract call arguments at offset ${r.pos - 4} cannot fit in ${r.remaining} bytes`);
      const functionArgs: string[] = new Array(n);
      for (let i = 0; i < n; i++) {
        const start = r.pos;
        skipClarityValue(r, 0);
        functionArgs[i] = r.hexSince(start);
      }
      return { type: 'contract_call', contractAddress, contractName, functionName, functionArgs };
    }
    case PayloadType.PoisonMicroblock:
      return { type: 'poison_microblock', header1: readMicroblockHeader(r, 'poison microblock header 1'), header2: readMicroblockHeader(r, 'poison microblock header 2') };
    case PayloadType.Coinbase:
      return { type: 'coinbase', payload: r.hex(32, 'coinbase payload') };
    case PayloadType.CoinbaseToAltRecipient: {
      const payload = r.hex(32, 'coinbase payload');
      return { type: 'coinbase_to_alt_recipient', payload, recipient: readPrincipalValue(r, 'coinbase alt recipient') };
    }
    case PayloadType.NakamotoCoinbase: {
      const payload = r.hex(32, 'coinbase payload');
      const optAt = r.pos;
      const opt = r.u8('coinbase recipient option');
      let recipient: string | null = null;
      if (opt === ClarityTypeId.OptionalSome) recipient = readPrincipalValue(r, 'coinbase alt recipient');
      else if (opt !== ClarityTypeId.OptionalNone) {
        throw new DecodeError(`coinbase recipient at offset ${optAt} must be an optional (0x09/0x0a), got type 0x${opt.toString(16).padStart(2, '0')}`);
      }
      return { type: 'nakamoto_coinbase', payload, recipient, vrfProof: r.hex(80, 'coinbase VRF proof') };
    }
    case PayloadType.TenureChange: {
      const tenureConsensusHash = r.hex(20, 'tenure consensus hash');
      const prevTenureConsensusHash = r.hex(20, 'previous tenure consensus hash');
      const burnViewConsensusHash = r.hex(20, 'burn view consensus hash');
      const previousTenureEnd = r.hex(32, 'previous tenure end');
      const previousTenureBlocks = r.u32('previous tenure blocks');
      const cause = r.u8('tenure change cause');
      if (cause > 6) throw new DecodeError(`unknown tenure change cause ${cause} at offset ${r.pos - 1}`);
      const pubkeyHash = r.hex(20, 'tenure change pubkey hash');
      return { type: 'tenure_change', tenureConsensusHash, prevTenureConsensusHash, burnViewConsensusHash, previousTenureEnd, previousTenureBlocks, cause, pubkeyHash };
    }
    default:
      throw new DecodeError(`unknown payload type 0x${id.toString(16).padStart(2, '0')} at offset ${at}`);
  }
}
