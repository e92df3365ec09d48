// SIP-005 transaction serialization (EVENT-OBSERVER.md §12), the inverse of src/stacks/codec:
// authorization (standard / sponsored, single-sig / multi-sig), post-conditions and the payloads the
// benchmark generator and the Rosetta construction endpoints build. Signatures are supplied by the
// caller (65 bytes: real ones, an empty one to be signed, or the generator's filler).
import { Writer, writeAddress, writeClarity, type Address, type ClarityValue } from './clarity.ts';
import { txIdOf } from '../codec/transaction.ts';

export const HashMode = { P2PKH: 0x00, P2SH: 0x01, P2WPKH: 0x02, P2WSH: 0x03, P2SHNonSequential: 0x05, P2WSHNonSequential: 0x07 } as const;
export const AnchorMode = { OnChainOnly: 0x01, OffChainOnly: 0x02, Any: 0x03 } as const;
export const PostConditionMode = { Allow: 0x01, Deny: 0x02 } as const;
export const FungibleCode = { SentEq: 0x01, SentGt: 0x02, SentGe: 0x03, SentLt: 0x04, SentLe: 0x05 } as const;
export const NonFungibleCode = { Sent: 0x10, NotSent: 0x11 } as const;
export const TenureChangeCause = { BlockFound: 0x00, Extended: 0x01 } as const;

export type SpendingCondition =
  | {
      kind: 'single';
      hashMode: number;
      signer: Buffer;
      nonce: number;
      fee: number;
      signature: Buffer;
      /** 0x00 compressed (default) or 0x01 uncompressed public key. */
      keyEncoding?: number;
    }
  | {
      kind: 'multi';
      hashMode: number;
      signer: Buffer;
      nonce: number;
      fee: number;
      /** Signatures (compressed-key field 0x02) followed by the public keys of the non-signers (0x00). */
      signatures: Buffer[];
      publicKeys: Buffer[];
      required: number;
    };

/** A post-condition principal: the origin, a standard address or a contract. */
export type PcPrincipal = { type: 'origin' } | { type: 'standard'; address: Address } | { type: 'contract'; address: Address; name: string };

export interface AssetInfo {
  address: Address;
  contractName: string;
  assetName: string;
}

export type PostCondition =
  | { type: 'stx'; principal: PcPrincipal; code: number; amount: number | bigint }
  | { type: 'ft'; principal: PcPrincipal; asset: AssetInfo; code: number; amount: number | bigint }
  | { type: 'nft'; principal: PcPrincipal; asset: AssetInfo; value: ClarityValue; code: number };

export type Payload =
  | { type: 'token_transfer'; recipient: ClarityValue; amount: number | bigint; memo: Buffer }
  | { type: 'smart_contract'; name: string; code: string; clarityVersion?: number }
  | { type: 'contract_call'; address: Address; contractName: string; functionName: string; args: ClarityValue[] }
  | { type: 'coinbase'; buffer: Buffer; altRecipient?: ClarityValue }
  | { type: 'nakamoto_coinbase'; buffer: Buffer; altRecipient: ClarityValue | null; vrfProof: Buffer }
  | {
      type: 'tenure_change';
      tenureConsensusHash: Buffer;
      prevTenureConsensusHash: Buffer;
      burnViewConsensusHash: Buffer;
      previousTenureEnd: Buffer;
      previousTenureBlocks: number;
      cause: number;
      pubkeyHash: Buffer;
    };

export interface UnsignedTx {
  mainnet: boolean;
  chainId: number;
  origin: SpendingCondition;
  sponsor?: SpendingCondition;
  anchorMode: number;
  postConditionMode: number;
  postConditions: PostCondition[];
  payload: Payload;
}

function writeCondition(w: Writer, c: SpendingCondition): void {
  w.u8(c.hashMode).bytes(c.signer).u64(c.nonce).u64(c.fee);
  if (c.kind === 'single') {
    w.u8(c.keyEncoding ?? 0x00).bytes(c.signature); // key encoding + recoverable signature
    return;
  }
  w.u32(c.signatures.length + c.publicKeys.length);
  for (const s of c.signatures) w.u8(0x02).bytes(s);
  for (const k of c.publicKeys) w.u8(0x00).bytes(k);
  w.u16(c.required);
}

function writePcPrincipal(w: Writer, p: PcPrincipal): void {
  if (p.type === 'origin') {
    w.u8(0x01);
    return;
  }
  w.u8(p.type === 'standard' ? 0x02 : 0x03);
  writeAddress(w, p.address);
  if (p.type === 'contract') w.name(p.name);
}

function writeAsset(w: Writer, a: AssetInfo): void {
  writeAddress(w, a.address);
  w.name(a.contractName).name(a.assetName);
}

function writePostCondition(w: Writer, pc: PostCondition): void {
  switch (pc.type) {
    case 'stx':
      w.u8(0x00);
      writePcPrincipal(w, pc.principal);
      w.u8(pc.code).u64(pc.amount);
      return;
    case 'ft':
      w.u8(0x01);
      writePcPrincipal(w, pc.principal);
      writeAsset(w, pc.asset);
      w.u8(pc.code).u64(pc.amount);
      return;
    case 'nft':
      w.u8(0x02);
      writePcPrincipal(w, pc.principal);
      writeAsset(w, pc.asset);
      writeClarity(w, pc.value);
      w.u8(pc.code);
      return;
  }
}

function writePayload(w: Writer, p: Payload): void {
  switch (p.type) {
    case 'token_transfer':
      w.u8(0x00);
      writeClarity(w, p.recipient);
      w.u64(p.amount);
      if (p.memo.length !== 34) throw new Error('a token transfer memo is 34 bytes');
      w.bytes(p.memo);
      return;
    case 'smart_contract':
      if (p.clarityVersion === undefined) w.u8(0x01);
      else w.u8(0x06).u8(p.clarityVersion);
      w.name(p.name).text(p.code);
      return;
    case 'contract_call':
      w.u8(0x02);
      writeAddress(w, p.address);
      w.name(p.contractName).name(p.functionName).u32(p.args.length);
      for (const a of p.args) writeClarity(w, a);
      return;
    case 'coinbase':
      w.u8(p.altRecipient ? 0x05 : 0x04).bytes(p.buffer);
      if (p.altRecipient) writeClarity(w, p.altRecipient);
      return;
    case 'nakamoto_coinbase':
      w.u8(0x08).bytes(p.buffer);
      if (p.altRecipient) {
        w.u8(0x0a);
        writeClarity(w, p.altRecipient);
      } else w.u8(0x09);
      w.bytes(p.vrfProof);
      return;
    case 'tenure_change':
      w.u8(0x07)
        .bytes(p.tenureConsensusHash)
        .bytes(p.prevTenureConsensusHash)
        .bytes(p.burnViewConsensusHash)
        .bytes(p.previousTenureEnd)
        .u32(p.previousTenureBlocks)
        .u8(p.cause)
        .bytes(p.pubkeyHash);
      return;
  }
}

const scratch = new Writer(16 * 1024);

export function encodeTx(tx: UnsignedTx): Buffer {
  const w = scratch;
  w.pos = 0;
  w.u8(tx.mainnet ? 0x00 : 0x80).u32(tx.chainId);
  w.u8(tx.sponsor ? 0x05 : 0x04);
  writeCondition(w, tx.origin);
  if (tx.sponsor) writeCondition(w, tx.sponsor);
  w.u8(tx.anchorMode).u8(tx.postConditionMode).u32(tx.postConditions.length);
  for (const pc of tx.postConditions) writePostCondition(w, pc);
  writePayload(w, tx.payload);
  return w.done();
}

/** A payload alone, serialized (what the node's fee estimator takes). */
export function encodePayload(p: Payload): Buffer {
  const w = new Writer(1024);
  writePayload(w, p);
  return w.done();
}

export interface EncodedTx {
  bytes: Buffer;
  /** 0x hex of the bytes (`raw_tx`). */
  raw: string;
  /** 0x hex SHA-512/256 of the bytes. */
  txid: string;
}

export function encodeTxWithId(tx: UnsignedTx): EncodedTx {
  const bytes = encodeTx(tx);
  return { bytes, raw: '0x' + bytes.toString('hex'), txid: txIdOf(bytes) };
}

/** A 34-byte memo: ASCII text, zero padded. */
export function memoBytes(text: string): Buffer {
  const b = Buffer.alloc(34);
  b.write(text.slice(0, 34), 'latin1');
  return b;
}
