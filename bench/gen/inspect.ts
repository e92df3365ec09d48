// Reads a generated event log back and checks it the way an indexer would see it: the canonical
// chain (longest chain, first seen wins ties), forks, per-sender nonces, events and mempool
// traffic. Used by the tests; holds the whole log in memory, so meant for small logs.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { parseTsvLine } from '../../src/ingest/tsv/copy-text.ts';
import { decodeTransaction } from '../../src/stacks/codec/transaction.ts';
import { sha512_256 } from './rng.ts';

export interface Row {
  id: number;
  timestamp: string;
  path: string;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export async function readLog(file: string): Promise<Row[]> {
  const input = createReadStream(file);
  const rl = createInterface({ input: file.endsWith('.gz') ? input.pipe(createGunzip()) : input, crlfDelay: Infinity });
  const rows: Row[] = [];
  for await (const line of rl) {
    const r = parseTsvLine(line);
    if (r) rows.push({ id: r.id, timestamp: r.timestamp, path: r.path, body: JSON.parse(r.payload) });
  }
  return rows;
}

export interface BlockInfo {
  row: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  canonical: boolean;
}

export interface ChainView {
  blocks: Map<string, BlockInfo>;
  /** Canonical blocks by height, boot block first. */
  canonical: BlockInfo[];
  forks: BlockInfo[];
}

/** The canonical chain as the reference API decides it: a block taller than the tip wins; ties keep the first seen. */
export function chainView(rows: Row[]): ChainView {
  const blocks = new Map<string, BlockInfo>();
  let tip: BlockInfo | null = null;
  for (const r of rows) {
    if (r.path !== '/new_block') continue;
    const info: BlockInfo = { row: r.id, body: r.body, canonical: false };
    blocks.set(r.body.index_block_hash, info);
    if (!tip || r.body.block_height > tip.body.block_height) tip = info;
  }
  const canonical: BlockInfo[] = [];
  for (let b: BlockInfo | undefined = tip ?? undefined; b; b = blocks.get(b.body.parent_index_block_hash)) {
    b.canonical = true;
    canonical.push(b);
  }
  canonical.reverse();
  return { blocks, canonical, forks: [...blocks.values()].filter((b) => !b.canonical) };
}

export const indexHashOf = (blockHash: string, consensusHash: string): string =>
  '0x' + sha512_256(Buffer.from(blockHash.slice(2), 'hex'), Buffer.from(consensusHash.slice(2), 'hex')).toString('hex');

/** A block's txs in execution order: the confirmed microblock stream first, then its own. */
export function executionOrder(block: any): any[] {
  // eslint-disable-line @typescript-eslint/no-explicit-any
  const txs = block.transactions as any[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  return [...txs.filter((t) => t.microblock_hash !== null), ...txs.filter((t) => t.microblock_hash === null)];
}

/** Nonce problems on the canonical chain (empty = every origin and sponsor counts 0, 1, 2, … without gaps). */
export function nonceErrors(view: ChainView): string[] {
  const next = new Map<string, bigint>();
  const errors: string[] = [];
  const see = (who: string, nonce: bigint, where: string) => {
    const want = next.get(who) ?? 0n;
    if (nonce !== want) errors.push(`${who}: nonce ${nonce} at ${where}, expected ${want}`);
    next.set(who, nonce + 1n);
  };
  for (const b of view.canonical) {
    for (const t of executionOrder(b.body)) {
      const d = decodeTransaction(t.raw_tx);
      see(d.senderAddress, d.nonce, `${b.body.block_height}/${t.tx_index}`);
      if (d.sponsorAddress) see(d.sponsorAddress, d.sponsorNonce!, `${b.body.block_height}/${t.tx_index} (sponsor)`);
    }
  }
  return errors;
}

/**
 * µSTX balances from the canonical chain (mints, transfers, fees, matured miner rewards) and every
 * point where a debit took an account below zero (empty = no account ever spent what it lacked).
 */
export function stxBalances(view: ChainView): { balances: Map<string, bigint>; overdrafts: string[] } {
  const bal = new Map<string, bigint>();
  const overdrafts: string[] = [];
  const add = (who: string, v: bigint, where: string) => {
    const n = (bal.get(who) ?? 0n) + v;
    bal.set(who, n);
    if (v < 0n && n < 0n) overdrafts.push(`${who} at ${where}: ${n}`);
  };
  for (const b of view.canonical) {
    const h = b.body.block_height;
    for (const r of b.body.matured_miner_rewards) add(r.recipient, BigInt(r.coinbase_amount) + BigInt(r.tx_fees_anchored), `${h} reward`);
    const byTx = new Map<string, any[]>(); // eslint-disable-line @typescript-eslint/no-explicit-any
    for (const e of b.body.events) byTx.set(e.txid, [...(byTx.get(e.txid) ?? []), e]);
    for (const t of executionOrder(b.body)) {
      const d = decodeTransaction(t.raw_tx);
      const where = `${h}/${t.tx_index}`;
      add(d.sponsorAddress ?? d.senderAddress, -d.fee, where);
      if (t.status !== 'success') continue;
      for (const e of (byTx.get(t.txid) ?? []).sort((x, y) => x.event_index - y.event_index)) {
        if (e.type === 'stx_mint_event') add(e.stx_mint_event.recipient, BigInt(e.stx_mint_event.amount), where);
        if (e.type === 'stx_transfer_event') {
          add(e.stx_transfer_event.sender, -BigInt(e.stx_transfer_event.amount), where);
          add(e.stx_transfer_event.recipient, BigInt(e.stx_transfer_event.amount), where);
        }
      }
    }
  }
  return { balances: bal, overdrafts };
}

/** Token consistency on the canonical chain: FT holders never go below zero, NFTs move and burn only from their owner. */
export function assetErrors(view: ChainView): string[] {
  const ft = new Map<string, bigint>();
  const nft = new Map<string, string>();
  const errors: string[] = [];
  const ftAdd = (asset: string, who: string, v: bigint, where: string) => {
    const k = `${asset} ${who}`;
    const n = (ft.get(k) ?? 0n) + v;
    ft.set(k, n);
    if (n < 0n) errors.push(`${k} at ${where}: ${n}`);
  };
  for (const b of view.canonical) {
    const byTx = new Map<string, any[]>(); // eslint-disable-line @typescript-eslint/no-explicit-any
    for (const e of b.body.events) byTx.set(e.txid, [...(byTx.get(e.txid) ?? []), e]);
    for (const t of executionOrder(b.body)) {
      if (t.status !== 'success') continue;
      const where = `${b.body.block_height}/${t.tx_index}`;
      for (const e of (byTx.get(t.txid) ?? []).sort((x, y) => x.event_index - y.event_index)) {
        const body = e[e.type];
        const key = `${body.asset_identifier} ${body.raw_value}`;
        switch (e.type) {
          case 'ft_mint_event':
            ftAdd(body.asset_identifier, body.recipient, BigInt(body.amount), where);
            break;
          case 'ft_transfer_event':
            ftAdd(body.asset_identifier, body.sender, -BigInt(body.amount), where);
            ftAdd(body.asset_identifier, body.recipient, BigInt(body.amount), where);
            break;
          case 'ft_burn_event':
            ftAdd(body.asset_identifier, body.sender, -BigInt(body.amount), where);
            break;
          case 'nft_mint_event':
            if (nft.has(key)) errors.push(`${key} minted twice at ${where}`);
            nft.set(key, body.recipient);
            break;
          case 'nft_transfer_event':
          case 'nft_burn_event':
            if (nft.get(key) !== body.sender) errors.push(`${key} moved by ${body.sender}, owned by ${nft.get(key)}, at ${where}`);
            if (e.type === 'nft_burn_event') nft.delete(key);
            else nft.set(key, body.recipient);
            break;
        }
      }
    }
  }
  return errors;
}
