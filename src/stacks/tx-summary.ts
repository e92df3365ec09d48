// The few fields of a transaction the index needs as columns (filters, address history, nonces,
// fees), taken from our wire decoder. Full API rendering happens at read time from raw_tx.
import { decodeTransaction, type DecodedTransaction } from './codec/transaction.ts';

export interface TxSummary {
  type_id: string;
  sender_address: string;
  sponsor_address: string;
  nonce: string;
  fee_rate: string;
  /** Called contract, or the deployed one. */
  contract_id: string;
  function_name: string;
  /** Principals besides sender and sponsor that the tx names (transfer recipient, called contract). */
  principals: string[];
  deploy?: { clarity_version: number | null; source_code: string };
  /** A token transfer's payload (the address index lists it as an inbound transfer). */
  token_transfer?: { recipient: string; amount: string; memo: string };
}

const TYPE_ID: Record<string, string> = {
  token_transfer: 'token_transfer',
  smart_contract: 'smart_contract',
  versioned_smart_contract: 'smart_contract',
  contract_call: 'contract_call',
  poison_microblock: 'poison_microblock',
  coinbase: 'coinbase',
  coinbase_to_alt_recipient: 'coinbase',
  nakamoto_coinbase: 'coinbase',
  tenure_change: 'tenure_change',
};

export function summarizeDecoded(tx: DecodedTransaction): TxSummary {
  const p = tx.payload;
  const base: TxSummary = {
    type_id: TYPE_ID[p.type],
    sender_address: tx.senderAddress,
    sponsor_address: tx.sponsorAddress ?? '',
    nonce: tx.nonce.toString(),
    fee_rate: tx.fee.toString(),
    contract_id: '',
    function_name: '',
    principals: [],
  };
  switch (p.type) {
    case 'token_transfer':
      base.principals.push(p.recipient);
      base.token_transfer = { recipient: p.recipient, amount: p.amount.toString(), memo: p.memo };
      break;
    case 'contract_call':
      base.contract_id = `${p.contractAddress}.${p.contractName}`;
      base.function_name = p.functionName;
      base.principals.push(base.contract_id);
      break;
    case 'smart_contract':
    case 'versioned_smart_contract':
      base.contract_id = `${tx.senderAddress}.${p.contractName}`;
      base.principals.push(base.contract_id);
      base.deploy = { clarity_version: p.type === 'versioned_smart_contract' ? p.clarityVersion : null, source_code: p.codeBody };
      break;
    case 'coinbase_to_alt_recipient':
      base.principals.push(p.recipient);
      break;
    case 'nakamoto_coinbase':
      if (p.recipient) base.principals.push(p.recipient);
      break;
  }
  return base;
}

export function summarizeTx(rawTx: string, txId?: string): TxSummary {
  return summarizeDecoded(decodeTransaction(rawTx, { txId }));
}

/** Bitcoin-originated txs (raw_tx 0x00) carry no Stacks tx; their op names sender and kind. */
export function burnchainOpSummary(op: Record<string, unknown> | null): TxSummary {
  const [kind, body] = Object.entries(op ?? {})[0] ?? ['', {}];
  const b = (body ?? {}) as Record<string, { address?: string } | undefined>;
  const sender = b.sender?.address ?? '';
  const recipient = kind === 'transfer_stx' ? (b.recipient?.address ?? '') : kind === 'delegate_stx' ? (b.delegate_to?.address ?? '') : '';
  return {
    type_id: kind === 'transfer_stx' ? 'token_transfer' : 'contract_call',
    sender_address: sender,
    sponsor_address: '',
    nonce: '0',
    fee_rate: '0',
    contract_id: '',
    function_name: kind,
    principals: recipient ? [recipient] : [],
  };
}

/** Sender, sponsor and the principals the payload names, once each. */
export function principalsOf(s: TxSummary): string[] {
  return [...new Set([s.sender_address, s.sponsor_address, ...s.principals].filter(Boolean))];
}
