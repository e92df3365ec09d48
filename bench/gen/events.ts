// A generated transaction and its receipt (what the node reports for it), and the node's event
// bodies. Object keys are written in the order a Hiro export (Postgres jsonb: shorter keys first,
// then bytewise) prints them, so generated rows look like real exports.
import type { UnsignedTx } from '../../src/stacks/encode/transaction.ts';

export interface Cost {
  runtime: number;
  read_count: number;
  read_length: number;
  write_count: number;
  write_length: number;
}

export const ZERO_COST: Cost = Object.freeze({ runtime: 0, read_count: 0, read_length: 0, write_count: 0, write_length: 0 });

export interface GenEvent {
  type: string;
  body: Record<string, unknown>;
}

export type TxStatus = 'success' | 'abort_by_response' | 'abort_by_post_condition';

export interface GenTx {
  txid: string;
  /** 0x hex of the SIP-005 bytes. */
  raw: string;
  status: TxStatus;
  rawResult: string;
  cost: Cost;
  /** Events as the node emits them for this tx (none for failed txs: 3.4+ nodes drop them). */
  events: GenEvent[];
  contractInterface: Record<string, unknown> | null;
  vmError: string | null;
  /** Account index of the origin and its nonce; sponsor likewise. */
  sender: number;
  nonce: number;
  sponsor?: number;
  sponsorNonce?: number;
  /** The fee paid (by the sponsor when sponsored). */
  fee: number;
  /** Kind for statistics: transfer, ft-transfer, nft-mint, deploy-ft, coinbase, … */
  kind: string;
  /** Kept while the tx waits in the mempool window (a replace-by-fee original is re-encoded from it). */
  unsigned?: UnsignedTx;
}

export const stxTransfer = (sender: string, recipient: string, amount: number | bigint, memoHex: string): GenEvent => ({
  type: 'stx_transfer_event',
  body: { memo: memoHex, amount: String(amount), sender, recipient },
});

export const stxMint = (recipient: string, amount: number | bigint): GenEvent => ({ type: 'stx_mint_event', body: { amount: String(amount), recipient } });

export const ftTransfer = (asset: string, sender: string, recipient: string, amount: number | bigint): GenEvent => ({
  type: 'ft_transfer_event',
  body: { amount: String(amount), sender, recipient, asset_identifier: asset },
});

export const ftMint = (asset: string, recipient: string, amount: number | bigint): GenEvent => ({
  type: 'ft_mint_event',
  body: { amount: String(amount), recipient, asset_identifier: asset },
});

export const ftBurn = (asset: string, sender: string, amount: number | bigint): GenEvent => ({
  type: 'ft_burn_event',
  body: { amount: String(amount), sender, asset_identifier: asset },
});

export const nftTransfer = (asset: string, sender: string, recipient: string, rawValue: string): GenEvent => ({
  type: 'nft_transfer_event',
  body: { sender, raw_value: rawValue, recipient, asset_identifier: asset },
});

export const nftMint = (asset: string, recipient: string, rawValue: string): GenEvent => ({
  type: 'nft_mint_event',
  body: { raw_value: rawValue, recipient, asset_identifier: asset },
});

export const nftBurn = (asset: string, sender: string, rawValue: string): GenEvent => ({
  type: 'nft_burn_event',
  body: { sender, raw_value: rawValue, asset_identifier: asset },
});

export const contractPrint = (contract: string, rawValue: string): GenEvent => ({
  type: 'contract_event',
  body: { topic: 'print', raw_value: rawValue, contract_identifier: contract },
});

/** The node's event wrapper. */
export function eventJson(txid: string, ev: GenEvent, eventIndex: number): Record<string, unknown> {
  return { txid, type: ev.type, committed: true, event_index: eventIndex, [ev.type]: ev.body };
}
