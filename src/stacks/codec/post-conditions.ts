// Post-conditions (SIP-005 §12.2), including the staking (0x03) and PoX (0x04) kinds of stacks-core 4.0.
import { ByteReader, DecodeError } from './bytes.ts';
import { readAddress, readContractName } from './clarity-value.ts';
import { reprAt } from './clarity-repr.ts';

export const PostConditionMode = { Allow: 0x01, Deny: 0x02, Originator: 0x03 } as const;

export type PostConditionPrincipal =
  | { type: 'origin' }
  | { type: 'standard'; address: string }
  | { type: 'contract'; address: string; contractName: string };

export interface AssetInfo {
  contractAddress: string;
  contractName: string;
  assetName: string;
}

export type PostCondition =
  | { type: 'stx'; principal: PostConditionPrincipal; conditionCode: number; amount: bigint }
  | { type: 'fungible'; principal: PostConditionPrincipal; asset: AssetInfo; conditionCode: number; amount: bigint }
  | {
      type: 'non_fungible';
      principal: PostConditionPrincipal;
      asset: AssetInfo;
      /** The token id, serialized and rendered. */
      assetValue: { hex: string; repr: string };
      conditionCode: number;
    }
  | { type: 'staking'; principal: PostConditionPrincipal; conditionCode: number; amount: bigint }
  | { type: 'pox'; principal: PostConditionPrincipal; conditionCode: number };

export interface PostConditions {
  mode: number;
  list: PostCondition[];
  /** 0x hex of mode byte + u32 count + conditions: what the reference stores as `post_conditions`. */
  hex: string;
}

function readPrincipal(r: ByteReader, index: number): PostConditionPrincipal {
  const at = r.pos;
  const id = r.u8(`post-condition ${index} principal type`);
  switch (id) {
    case 0x01:
      return { type: 'origin' };
    case 0x02:
      return { type: 'standard', address: readAddress(r, `post-condition ${index} principal`).address };
    case 0x03: {
      const address = readAddress(r, `post-condition ${index} principal`).address;
      return { type: 'contract', address, contractName: readContractName(r, `post-condition ${index} principal contract name`) };
    }
    default:
      throw new DecodeError(`unknown post-condition principal type 0x${id.toString(16).padStart(2, '0')} at offset ${at}`);
  }
}

function readAsset(r: ByteReader, index: number): AssetInfo {
  const contractAddress = readAddress(r, `post-condition ${index} asset address`).address;
  const contractName = readContractName(r, `post-condition ${index} asset contract name`);
  const assetName = r.name(`post-condition ${index} asset name`);
  return { contractAddress, contractName, assetName };
}

function code(r: ByteReader, index: number, min: number, max: number): number {
  const c = r.u8(`post-condition ${index} condition code`);
  if (c < min || c > max) throw new DecodeError(`unknown post-condition condition code 0x${c.toString(16).padStart(2, '0')} at offset ${r.pos - 1}`);
  return c;
}

export function readPostCondition(r: ByteReader, index: number): PostCondition {
  const at = r.pos;
  const type = r.u8(`post-condition ${index} type`);
  if (type > 0x04) throw new DecodeError(`unknown post-condition type 0x${type.toString(16).padStart(2, '0')} at offset ${at}`);
  const principal = readPrincipal(r, index);
  switch (type) {
    case 0x00: {
      const conditionCode = code(r, index, 0x01, 0x05);
      return { type: 'stx', principal, conditionCode, amount: r.u64(`post-condition ${index} amount`) };
    }
    case 0x01: {
      const asset = readAsset(r, index);
      const conditionCode = code(r, index, 0x01, 0x05);
      return { type: 'fungible', principal, asset, conditionCode, amount: r.u64(`post-condition ${index} amount`) };
    }
    case 0x02: {
      const asset = readAsset(r, index);
      const start = r.pos;
      const repr = reprAt(r, 0);
      const assetValue = { hex: r.hexSince(start), repr };
      return { type: 'non_fungible', principal, asset, assetValue, conditionCode: code(r, index, 0x10, 0x12) };
    }
    case 0x03: {
      const conditionCode = code(r, index, 0x01, 0x05);
      return { type: 'staking', principal, conditionCode, amount: r.u64(`post-condition ${index} amount`) };
    }
    default:
      return { type: 'pox', principal, conditionCode: code(r, index, 0x30, 0x32) };
  }
}

/** Mode byte, u32 count and the conditions. */
export function readPostConditions(r: ByteReader): PostConditions {
  const start = r.pos;
  const mode = r.u8('post-condition mode');
  if (mode < PostConditionMode.Allow || mode > PostConditionMode.Originator) {
    throw new DecodeError(`unknown post-condition mode 0x${mode.toString(16).padStart(2, '0')} at offset ${start}`);
  }
  const n = r.u32('post-condition count');
  // the smallest condition (PoX, origin principal) is 3 bytes
  if (n * 3 > r.remaining) throw new DecodeError(`truncated: ${n} post-conditions at offset ${start + 1} cannot fit in ${r.remaining} bytes`);
  const list: PostCondition[] = new Array(n);
  for (let i = 0; i < n; i++) list[i] = readPostCondition(r, i);
  return { mode, list, hex: r.hexSince(start) };
}
