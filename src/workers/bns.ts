// BNS facts, as the reference derives them: a name event from each print of the BNS contract that
// carries an attachment (name-register, name-update, name-transfer, name-renewal, name-import,
// name-revoke…; the owner is the tx sender, or for a transfer the NFT's recipient), a namespace from
// a print with status "ready", and a name renewal without a zonefile (which prints nothing) from the
// contract call itself. Zonefiles come from /attachments/new; a name-update's zonefile also lists
// subdomains in its TXT records.
import { createHash } from 'node:crypto';
import type { RowSet } from './rows.ts';
import type { NodeBlock } from './decode-block.ts';
import type { NodeEvent } from './decode-tx-events.ts';
import { decodeClarityValue, tupleGet, type ClarityValue } from '../stacks/codec/clarity.ts';
import { decodeTransaction } from '../stacks/codec/transaction.ts';
import { BNS_CONTRACTS } from '../stacks/bns.ts';

const utf8 = (cv: ClarityValue | undefined): string | undefined => (cv?.type === 'buffer' ? Buffer.from(cv.value).toString('utf8') : undefined);
const hex = (cv: ClarityValue | undefined): string | undefined => (cv?.type === 'buffer' ? Buffer.from(cv.value).toString('hex') : undefined);
const text = (cv: ClarityValue | undefined): string | undefined => (cv?.type === 'string_ascii' || cv?.type === 'string_utf8' ? cv.value : undefined);
const uint = (cv: ClarityValue | undefined): bigint | undefined => (cv?.type === 'uint' ? cv.value : cv?.type === 'some' && cv.value.type === 'uint' ? cv.value.value : undefined);

function decode(raw: string | undefined): ClarityValue | undefined {
  if (!raw) return undefined;
  try {
    return decodeClarityValue(raw);
  } catch {
    return undefined;
  }
}

/** {name, namespace} of a BNS print's attachment metadata, with op, zonefile hash and sender. */
export function parseNameAttachment(cv: ClarityValue | undefined): { name: string; namespace: string; op: string; hash: string; sender: string } | undefined {
  const attachment = tupleGet(cv, 'attachment');
  const metadata = tupleGet(attachment, 'metadata');
  const name = utf8(tupleGet(metadata, 'name'));
  const namespace = utf8(tupleGet(metadata, 'namespace'));
  const op = text(tupleGet(metadata, 'op'));
  const sender = tupleGet(metadata, 'tx-sender');
  const hash = hex(tupleGet(attachment, 'hash'));
  if (name === undefined || namespace === undefined || op === undefined || hash === undefined) return undefined;
  return { name, namespace, op, hash, sender: sender?.type === 'principal_standard' || sender?.type === 'principal_contract' ? sender.value : '' };
}

/** The {name, namespace} of a BNS names NFT value. */
function nftName(raw: string | undefined): string | undefined {
  const cv = decode(raw);
  const name = utf8(tupleGet(cv, 'name'));
  const namespace = utf8(tupleGet(cv, 'namespace'));
  return name === undefined || namespace === undefined ? undefined : `${name}.${namespace}`;
}

interface At {
  index_block_hash: string;
  block_height: number;
}

/** A tx as the BNS decoding needs it. */
export interface BnsTx {
  txid: string;
  tx_index: number;
  status: string;
  raw_tx: string;
  microblock_hash?: string | null;
  microblock_sequence?: number | null;
}

/** An event of the tx with its index within the tx (0..n-1 in node order, as stored). */
export interface IndexedEvent {
  event: NodeEvent;
  index: number;
}

/** BNS name and namespace rows of one block's successful txs. */
export function writeBnsRows(rows: RowSet, b: NodeBlock, at: At = b): void {
  const byTx = new Map<string, NodeEvent[]>();
  for (const e of b.events) {
    if (e.committed === false) continue;
    let list = byTx.get(e.txid);
    if (!list) byTx.set(e.txid, (list = []));
    list.push(e);
  }
  for (const tx of b.transactions) {
    const events = [...(byTx.get(tx.txid) ?? [])].sort((x, y) => x.event_index - y.event_index);
    writeBnsTx(rows, tx, events.map((event, index) => ({ event, index })), at);
  }
}

/** BNS rows of one successful tx, from its events (those of the BNS contract and NFT transfers suffice). */
export function writeBnsTx(rows: RowSet, tx: BnsTx, events: IndexedEvent[], at: At): void {
  if (tx.status !== 'success') return;
  const placement = { tx_id: tx.txid, tx_index: tx.tx_index, index_block_hash: at.index_block_hash, microblock_hash: tx.microblock_hash ?? '', microblock_sequence: tx.microblock_sequence ?? 2147483647 };
  for (const { event: e, index: event_index } of events) {
    const log = e.contract_event as { contract_identifier?: string; topic?: string; raw_value?: string } | undefined;
    if (e.type !== 'contract_event' || log?.topic !== 'print' || !BNS_CONTRACTS.has(log.contract_identifier ?? '')) continue;
    const cv = decode(log.raw_value);
    const attachment = parseNameAttachment(cv);
    if (attachment) {
      const full = `${attachment.name}.${attachment.namespace}`;
      let owner = attachment.sender;
      if (attachment.op === 'name-transfer') {
        const moved = events.find(({ event: n }) => {
          const t = n.nft_transfer_event as { asset_identifier?: string; raw_value?: string } | undefined;
          return n.type === 'nft_transfer_event' && t?.asset_identifier === `${log.contract_identifier}::names` && nftName(t.raw_value) === full;
        });
        if (moved) owner = String((moved.event.nft_transfer_event as { recipient?: string }).recipient ?? owner);
      }
      rows.add('bns_names', { name: full, namespace_id: attachment.namespace, address: owner, registered_at: at.block_height, ...placement, event_index, status: attachment.op, zonefile_hash: attachment.hash });
    } else if (text(tupleGet(cv, 'status')) === 'ready') writeNamespace(rows, cv!, { ...placement, ready_block: at.block_height });
  }
  writeRenewalWithoutZonefile(rows, tx, placement, at);
}

function writeNamespace(rows: RowSet, cv: ClarityValue, at: Record<string, unknown> & { ready_block: number }): void {
  const namespace = utf8(tupleGet(cv, 'namespace'));
  const props = tupleGet(cv, 'properties');
  const price = tupleGet(props, 'price-function');
  const importer = tupleGet(props, 'namespace-import');
  if (namespace === undefined || !price) return;
  const buckets = tupleGet(price, 'buckets');
  rows.add('bns_namespaces', {
    namespace_id: namespace,
    address: importer?.type === 'principal_standard' || importer?.type === 'principal_contract' ? importer.value : '',
    base: uint(tupleGet(price, 'base')) ?? 0n,
    coeff: uint(tupleGet(price, 'coeff')) ?? 0n,
    no_vowel_discount: uint(tupleGet(price, 'no-vowel-discount')) ?? 0n,
    nonalpha_discount: uint(tupleGet(price, 'nonalpha-discount')) ?? 0n,
    buckets: buckets?.type === 'list' ? buckets.items.map((i) => uint(i) ?? 0n).join(',') : '',
    launched_at: Number(uint(tupleGet(props, 'launched-at')) ?? 0n),
    lifetime: Number(uint(tupleGet(props, 'lifetime')) ?? 0n),
    reveal_block: Number(uint(tupleGet(props, 'revealed-at')) ?? 0n),
    status: 'ready',
    ...at,
  });
}

/** A successful name-renewal call without a zonefile hash (its 5th argument none) prints nothing. */
const NAME_RENEWAL_HEX = Buffer.from('name-renewal').toString('hex');

function writeRenewalWithoutZonefile(rows: RowSet, tx: BnsTx, placement: Record<string, unknown>, at: At): void {
  // Only a tx whose bytes name the function is decoded again.
  if (tx.raw_tx === '0x00' || !tx.raw_tx.includes(NAME_RENEWAL_HEX)) return;
  let decoded;
  try {
    decoded = decodeTransaction(tx.raw_tx);
  } catch {
    return;
  }
  const p = decoded.payload;
  if (p.type !== 'contract_call' || p.functionName !== 'name-renewal' || !BNS_CONTRACTS.has(`${p.contractAddress}.${p.contractName}`) || p.functionArgs.length !== 5) return;
  if (decode(p.functionArgs[4])?.type !== 'none') return;
  const namespace = utf8(decode(p.functionArgs[0]));
  const name = utf8(decode(p.functionArgs[1]));
  if (namespace === undefined || name === undefined) return;
  rows.add('bns_names', { name: `${name}.${namespace}`, namespace_id: namespace, address: decoded.senderAddress, registered_at: at.block_height, ...placement, event_index: 4294967295, status: 'name-renewal', zonefile_hash: '' });
}

// ---------------------------------------------------------------------------------------------
// Attachments: zonefiles and the subdomains a name-update's zonefile lists.

export interface NodeAttachment {
  tx_id: string;
  index_block_hash: string;
  block_height: number | string;
  content_hash: string;
  contract_id: string;
  metadata: string;
  content: string;
}

/** TXT records of a zone file: `name TXT "k=v" "k=v"…` (also with TTL / IN before TXT). */
export function zonefileTxtRecords(zonefile: string): Array<{ name: string; txt: string[] }> {
  const out: Array<{ name: string; txt: string[] }> = [];
  for (const line of zonefile.split(/\r?\n/)) {
    const m = /^\s*(\S+)\s+(?:\d+\s+)?(?:IN\s+)?TXT\s+(.*)$/i.exec(line);
    if (!m) continue;
    const txt = [...m[2].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((q) => q[1].replace(/\\(.)/g, '$1'));
    out.push({ name: m[1], txt: txt.length ? txt : [m[2].trim()] });
  }
  return out;
}

/** The resolver URI of a zone file (a URI record whose name mentions "resolver"), or ''. */
function zonefileResolver(zonefile: string): string {
  let resolver = '';
  for (const line of zonefile.split(/\r?\n/)) {
    const m = /^\s*(\S+)\s+(?:\d+\s+)?(?:IN\s+)?URI\s+\d+\s+\d+\s+"([^"]*)"/i.exec(line);
    if (m && m[1].includes('resolver')) resolver = m[2];
  }
  return resolver;
}

/** A subdomain's TXT record fields (owner, seqn, parts, zf0…): the zonefile is the zf parts' base64. */
export function parseSubdomainTxt(txt: string[]): { owner: string; seqn: string; zonefile: string; zonefileHash: string } {
  const out = { owner: '', seqn: '', zonefile: '', zonefileHash: '' };
  let zf = '';
  for (const entry of txt) {
    const eq = entry.indexOf('=');
    const key = eq < 0 ? entry : entry.slice(0, eq);
    const value = eq < 0 ? '' : entry.slice(eq + 1);
    if (key === 'owner') out.owner = value;
    else if (key === 'seqn') out.seqn = value;
    else if (key.startsWith('zf')) zf += value;
  }
  const bytes = Buffer.from(zf, 'base64');
  out.zonefile = bytes.toString('latin1').replace(/[\u0080-\u00ff]/g, (c) => String.fromCharCode(c.charCodeAt(0) & 0x7f));
  out.zonefileHash = createHash('sha256').update(bytes).digest().subarray(16).toString('hex');
  return out;
}

/** Subdomain rows of BNS attachments whose op is name-update. */
export function writeSubdomainRows(rows: RowSet, list: readonly NodeAttachment[]): void {
  for (const a of list) {
    if (!BNS_CONTRACTS.has(a.contract_id)) continue;
    const meta = decode(a.metadata);
    const op = text(tupleGet(meta, 'op'));
    const name = utf8(tupleGet(meta, 'name'));
    const namespace = utf8(tupleGet(meta, 'namespace'));
    if (op !== 'name-update' || name === undefined || namespace === undefined) continue;
    const zonefile = Buffer.from(a.content.replace(/^0x/, ''), 'hex').toString('utf8');
    const resolver = zonefileResolver(zonefile);
    for (const record of zonefileTxtRecords(zonefile)) {
      const txt = parseSubdomainTxt(record.txt);
      if (!txt.owner) continue;
      rows.add('bns_subdomains', {
        fully_qualified_subdomain: `${record.name}.${name}.${namespace}`,
        name: `${name}.${namespace}`,
        namespace_id: namespace,
        owner: txt.owner,
        zonefile_hash: txt.zonefileHash,
        zonefile: txt.zonefile,
        resolver,
        tx_id: a.tx_id,
        index_block_hash: a.index_block_hash,
        block_height: Number(a.block_height),
      });
    }
  }
}
