// Test support: field-by-field comparison of our decoded transaction with @stacks/transactions v7's
// deserializeTransaction result. Returns human-readable differences (empty = equal).
import { Buffer } from 'node:buffer';
import {
  addressToString,
  addressHashModeToVersion,
  addressFromVersionHash,
  compressPublicKey,
  serializeCV,
  StacksWireType,
  PostConditionPrincipalId,
  PayloadType as StacksPayloadType,
} from '@stacks/transactions';
import type { DecodedTransaction } from '../../stacks/codec/transaction.ts';
import type { SpendingCondition } from '../../stacks/codec/auth.ts';
import type { PostConditionPrincipal } from '../../stacks/codec/post-conditions.ts';

type Any = any; // @stacks/transactions' wire objects are loosely typed unions

const strip = (hex: string) => (hex.startsWith('0x') ? hex.slice(2) : hex).toLowerCase();

export function compareTransaction(ours: DecodedTransaction, theirs: Any): string[] {
  const diffs: string[] = [];
  const eq = (what: string, a: unknown, b: unknown) => {
    if (a !== b) diffs.push(`${what}: ours ${String(a)} vs @stacks ${String(b)}`);
  };
  // @stacks/transactions drops a poison-microblock payload's headers, so its re-serialised txid is wrong
  // there (ours is checked against the node's txid instead)
  if (ours.payload.type !== 'poison_microblock') eq('txid', ours.txId, '0x' + theirs.txid());
  eq('version', ours.version, theirs.transactionVersion);
  eq('chain_id', ours.chainId, theirs.chainId);
  eq('auth type', ours.auth.type === 'standard' ? 4 : 5, theirs.auth.authType);
  const network = (theirs.transactionVersion & 0x80) === 0 ? 'mainnet' : 'testnet';
  compareCondition('origin', ours.auth.origin, theirs.auth.spendingCondition, network, eq);
  eq('sponsored', ours.sponsored, theirs.auth.authType === 5);
  if (theirs.auth.authType === 5) compareCondition('sponsor', ours.auth.sponsor!, theirs.auth.sponsorSpendingCondition, network, eq);
  eq('fee', ours.fee, theirs.auth.authType === 5 ? theirs.auth.sponsorSpendingCondition.fee : theirs.auth.spendingCondition.fee);
  eq('anchor mode', ours.anchorMode, theirs.anchorMode);
  eq('post-condition mode', ours.postConditionMode, theirs.postConditionMode);
  const pcs: Any[] = theirs.postConditions.values;
  eq('post-condition count', ours.postConditions.length, pcs.length);
  ours.postConditions.forEach((pc, i) => {
    const t = pcs[i];
    if (!t) return;
    const w = `post-condition ${i}`;
    eq(`${w} type`, ['stx', 'fungible', 'non_fungible', 'staking', 'pox'].indexOf(pc.type), t.conditionType);
    comparePrincipal(w, pc.principal, t.principal, eq);
    eq(`${w} code`, pc.conditionCode, t.conditionCode);
    if ('amount' in pc) eq(`${w} amount`, pc.amount, t.amount);
    if ('asset' in pc) {
      eq(`${w} asset address`, pc.asset.contractAddress, addressToString(t.asset.address));
      eq(`${w} asset contract`, pc.asset.contractName, t.asset.contractName.content);
      eq(`${w} asset name`, pc.asset.assetName, t.asset.assetName.content);
    }
    if (pc.type === 'non_fungible') eq(`${w} asset value`, strip(pc.assetValue.hex), serializeCV(t.assetName));
  });
  comparePayload(ours, theirs.payload, eq);
  return diffs;
}

function compareCondition(role: string, ours: SpendingCondition, t: Any, network: 'mainnet' | 'testnet', eq: (w: string, a: unknown, b: unknown) => void) {
  eq(`${role} hash mode`, ours.hashMode, t.hashMode);
  eq(`${role} signer`, strip(ours.signer), t.signer);
  eq(`${role} address`, ours.signerAddress, addressToString(addressFromVersionHash(addressHashModeToVersion(t.hashMode, network), t.signer)));
  eq(`${role} nonce`, ours.nonce, t.nonce);
  eq(`${role} fee`, ours.fee, t.fee);
  if (ours.kind === 'single_sig') {
    eq(`${role} key encoding`, ours.keyEncoding, t.keyEncoding);
    eq(`${role} signature`, strip(ours.signature), t.signature?.data);
    return;
  }
  eq(`${role} signatures required`, ours.signaturesRequired, t.signaturesRequired);
  eq(`${role} field count`, ours.fields.length, t.fields?.length);
  ours.fields.forEach((f, i) => {
    const tf = t.fields?.[i];
    if (!tf) return;
    eq(`${role} field ${i} encoding`, f.compressed ? 0 : 1, tf.pubKeyEncoding);
    if (f.type === 'public_key') {
      eq(`${role} field ${i} kind`, StacksWireType.PublicKey, tf.contents.type);
      // @stacks expands an uncompressed-key field to 65 bytes; the wire carries the 33-byte form
      eq(`${role} field ${i} key`, strip(f.publicKey), compressPublicKey(tf.contents.data));
    } else {
      eq(`${role} field ${i} kind`, StacksWireType.MessageSignature, tf.contents.type);
      eq(`${role} field ${i} signature`, strip(f.signature), tf.contents.data);
    }
  });
}

function comparePrincipal(w: string, ours: PostConditionPrincipal, t: Any, eq: (w: string, a: unknown, b: unknown) => void) {
  const prefix = ours.type === 'origin' ? PostConditionPrincipalId.Origin : ours.type === 'standard' ? PostConditionPrincipalId.Standard : PostConditionPrincipalId.Contract;
  eq(`${w} principal type`, prefix, t.prefix);
  if (ours.type !== 'origin') eq(`${w} principal address`, ours.address, addressToString(t.address));
  if (ours.type === 'contract') eq(`${w} principal contract`, ours.contractName, t.contractName.content);
}

/** The string a principal Clarity value names: "addr" or "addr.name". */
const cvPrincipal = (cv: Any): string | null => (cv == null || cv.type === 'none' ? null : cv.type === 'some' ? cvPrincipal(cv.value) : cv.value);

function comparePayload(tx: DecodedTransaction, t: Any, eq: (w: string, a: unknown, b: unknown) => void) {
  const p = tx.payload;
  const ids: Record<string, number> = {
    token_transfer: StacksPayloadType.TokenTransfer,
    smart_contract: StacksPayloadType.SmartContract,
    versioned_smart_contract: StacksPayloadType.VersionedSmartContract,
    contract_call: StacksPayloadType.ContractCall,
    poison_microblock: StacksPayloadType.PoisonMicroblock,
    coinbase: StacksPayloadType.Coinbase,
    coinbase_to_alt_recipient: StacksPayloadType.CoinbaseToAltRecipient,
    nakamoto_coinbase: StacksPayloadType.NakamotoCoinbase,
    tenure_change: StacksPayloadType.TenureChange,
  };
  eq('payload type', ids[p.type], t.payloadType);
  switch (p.type) {
    case 'token_transfer':
      eq('recipient', p.recipient, cvPrincipal(t.recipient));
      eq('amount', p.amount, t.amount);
      eq('memo', Buffer.from(strip(p.memo), 'hex').toString('utf8').replace(/\u0000*$/, ''), t.memo.content);
      return;
    case 'smart_contract':
    case 'versioned_smart_contract':
      eq('contract name', p.contractName, t.contractName.content);
      eq('code body', p.codeBody, t.codeBody.content);
      if (p.type === 'versioned_smart_contract') eq('clarity version', p.clarityVersion, t.clarityVersion);
      return;
    case 'contract_call':
      eq('contract address', p.contractAddress, addressToString(t.contractAddress));
      eq('contract name', p.contractName, t.contractName.content);
      eq('function name', p.functionName, t.functionName.content);
      eq('arg count', p.functionArgs.length, t.functionArgs.length);
      p.functionArgs.forEach((hex, i) => eq(`arg ${i}`, strip(hex), t.functionArgs[i] && serializeCV(t.functionArgs[i])));
      return;
    case 'poison_microblock':
      // @stacks/transactions v7 does not read the two microblock headers: nothing more to compare
      return;
    case 'coinbase':
    case 'coinbase_to_alt_recipient':
    case 'nakamoto_coinbase':
      eq('coinbase payload', strip(p.payload), Buffer.from(t.coinbaseBytes).toString('hex'));
      if (p.type !== 'coinbase') eq('alt recipient', p.recipient, cvPrincipal(t.recipient));
      if (p.type === 'nakamoto_coinbase') eq('vrf proof', strip(p.vrfProof), Buffer.from(t.vrfProof).toString('hex'));
      return;
    case 'tenure_change':
      eq('tenure hash', strip(p.tenureConsensusHash), t.tenureHash);
      eq('previous tenure hash', strip(p.prevTenureConsensusHash), t.previousTenureHash);
      eq('burn view hash', strip(p.burnViewConsensusHash), t.burnViewHash);
      eq('previous tenure end', strip(p.previousTenureEnd), t.previousTenureEnd);
      eq('previous tenure blocks', p.previousTenureBlocks, t.previousTenureBlocks);
      eq('cause', p.cause, t.cause);
      eq('pubkey hash', strip(p.pubkeyHash), t.publicKeyHash);
      return;
  }
}
