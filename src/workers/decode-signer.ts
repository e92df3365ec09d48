// Signer traffic: StackerDB chunk writes and block-proposal validation results, kept as rows.
import type { DecodedText } from './decoded.ts';
import { c32address } from '../stacks/codec/c32.ts';
import { checkedRow } from './rows.ts';

interface StackerDbChunks {
  contract_id: string | { issuer: [number, number[]]; name: string };
  modified_slots: Array<{ slot_id: number; slot_version: number; sig: string; data: string }>;
}

/** contract_id arrives as the node's serde form {issuer: [version, [20 bytes]], name}. */
export function stackerDbContractId(id: StackerDbChunks['contract_id']): string {
  if (typeof id === 'string') return id;
  const [version, bytes] = id.issuer;
  return `${c32address(version, Buffer.from(bytes).toString('hex'))}.${id.name}`;
}

/** Signer rows get their log id and receipt time when stored; whether the store takes rows this
 *  long is known now, so a body that could not be stored is refused before its ack. */
function signerRows(table: string, rows: Array<Record<string, unknown>>): DecodedText {
  for (const r of rows) checkedRow(table, JSON.stringify(r));
  return { kind: 'signer', table, rows };
}

export function decodeStackerDbChunks(p: StackerDbChunks): DecodedText {
  const contract_id = stackerDbContractId(p.contract_id);
  return signerRows('stackerdb_chunks', p.modified_slots.map((s) => ({ contract_id, slot_id: s.slot_id, slot_version: s.slot_version, sig: s.sig, data: s.data })));
}

export function decodeProposalResponse(p: Record<string, unknown>): DecodedText {
  const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));
  return signerRows('block_proposal_responses', [{ signer_signature_hash: str(p.signer_signature_hash), result: str(p.result), reason: str(p.reason), reason_code: str(p.reason_code), payload: JSON.stringify(p) }]);
}
