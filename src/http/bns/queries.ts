// BNS reads, each by key: one name's operations (bns_names by name), a namespace's names (its
// projection by namespace), namespaces (bns_namespaces, one row per ready namespace), subdomains
// (bns_subdomains by parent name, or by owner through its projection), zonefiles (the attachments of
// the name operation's tx), and all names in name order (read in key order, a page at a time).
import type { Store } from '../../storage/client.ts';
import { rows, firstRow } from '../reads/query.ts';
import { canonicalRows } from '../reads/canonical-rows.ts';
import { CANONICAL_BLOCKS } from '../reads/canonical.ts';

export interface NameRow {
  name: string;
  namespace_id: string;
  address: string;
  registered_at: number;
  tx_id: string;
  tx_index: number;
  event_index: number;
  index_block_hash: string;
  microblock_hash: string;
  microblock_sequence: number;
  status: string;
  zonefile_hash: string;
  /** For canonical filtering (canonical-rows.ts). */
  block_height: number;
}

const NAME_COLUMNS = `name, namespace_id, address, registered_at, tx_id, tx_index, event_index, index_block_hash, microblock_hash, microblock_sequence,
  toString(status) AS status, zonefile_hash, registered_at AS block_height`;

const OLDEST_FIRST = 'registered_at, microblock_sequence, tx_index, event_index';

const parseName = (r: Record<string, unknown>): NameRow => ({
  ...(r as unknown as NameRow),
  registered_at: Number(r.registered_at),
  block_height: Number(r.block_height),
  tx_index: Number(r.tx_index),
  event_index: Number(r.event_index),
  microblock_sequence: Number(r.microblock_sequence),
});

/** The canonical operations of the given names up to `height`, oldest first. */
export async function nameHistories(store: Store, names: readonly string[], height: number): Promise<Map<string, NameRow[]>> {
  const out = new Map<string, NameRow[]>();
  if (names.length === 0) return out;
  const list = await rows(
    store,
    `SELECT ${NAME_COLUMNS} FROM bns_names WHERE name IN {n:Array(String)} AND registered_at <= {h:UInt32}
     ORDER BY name, ${OLDEST_FIRST} LIMIT 1 BY name, tx_id, index_block_hash, microblock_hash, event_index`,
    { n: [...new Set(names)], h: height },
  );
  for (const r of await canonicalRows(store, list.map(parseName))) (out.get(r.name) ?? out.set(r.name, []).get(r.name)!).push(r);
  return out;
}

/** Names in name order (optionally of one namespace) whose latest canonical operation is not a revoke. */
export async function namesInOrder(store: Store, height: number, page: { limit: number; offset: number }, namespace?: string): Promise<string[]> {
  const list = await rows<{ name: string }>(
    store,
    `SELECT name FROM (
       SELECT name, argMax(toString(status), (registered_at, microblock_sequence, tx_index, event_index)) AS last
       FROM bns_names
       WHERE ${namespace === undefined ? '1' : 'namespace_id = {ns:String}'} AND registered_at <= {h:UInt32}
         AND index_block_hash IN (SELECT index_block_hash FROM ${CANONICAL_BLOCKS})
       GROUP BY name ORDER BY name
       ${namespace === undefined ? '' : 'LIMIT {l:UInt32} OFFSET {o:UInt32}'})
     WHERE last != 'name-revoke' ${namespace === undefined ? 'LIMIT {l:UInt32} OFFSET {o:UInt32}' : ''}
     SETTINGS optimize_aggregation_in_order = 1`,
    { ns: namespace ?? '', h: height, l: page.limit, o: page.offset },
  );
  return list.map((r) => r.name);
}

export interface NamespaceRow {
  namespace_id: string;
  lifetime: number;
  ready_block: number;
  base: string;
  coeff: string;
  no_vowel_discount: string;
  nonalpha_discount: string;
  buckets: string;
}

/** The latest canonical namespace-ready of each namespace up to `height` (all, or the given ones). */
export async function namespaces(store: Store, height: number, ids?: readonly string[]): Promise<NamespaceRow[]> {
  const list = await rows<Record<string, unknown>>(
    store,
    `SELECT namespace_id, lifetime, ready_block, toString(base) AS base, toString(coeff) AS coeff, toString(no_vowel_discount) AS no_vowel_discount,
            toString(nonalpha_discount) AS nonalpha_discount, buckets, index_block_hash, microblock_hash, ready_block AS block_height
     FROM bns_namespaces WHERE ready_block <= {h:UInt32} ${ids ? 'AND namespace_id IN {ids:Array(String)}' : ''}
     ORDER BY namespace_id, ready_block DESC, microblock_sequence DESC, tx_index DESC`,
    { h: height, ids: ids ?? [] },
  );
  const canonical = await canonicalRows(store, list.map((r) => ({ ...r, block_height: Number(r.block_height) }) as Record<string, unknown> & { index_block_hash: string; microblock_hash: string; block_height: number }));
  const out = new Map<string, NamespaceRow>();
  for (const r of canonical) {
    const id = String(r.namespace_id);
    if (!out.has(id)) out.set(id, { ...(r as unknown as NamespaceRow), lifetime: Number(r.lifetime), ready_block: Number(r.ready_block) });
  }
  return [...out.values()];
}

/** The zonefile text of a name operation: its tx's attachment, '' until one arrives. */
export async function zonefileOf(store: Store, op: { tx_id: string; index_block_hash: string; zonefile_hash: string }): Promise<string> {
  const r = await firstRow<{ content: string }>(
    store,
    `SELECT content FROM attachments WHERE tx_id = {t:String} AND index_block_hash = {b:String} AND lower(content_hash) = {h:String} LIMIT 1`,
    { t: op.tx_id, b: op.index_block_hash, h: `0x${op.zonefile_hash}` },
  );
  return r ? Buffer.from(r.content.replace(/^0x/, ''), 'hex').toString('utf8') : '';
}

export interface SubdomainRow {
  fully_qualified_subdomain: string;
  name: string;
  owner: string;
  zonefile_hash: string;
  zonefile: string;
  resolver: string;
  tx_id: string;
  index_block_hash: string;
  block_height: number;
  microblock_hash: string;
}

const SUBDOMAIN_COLUMNS = `fully_qualified_subdomain, name, owner, zonefile_hash, zonefile, resolver, tx_id, index_block_hash, block_height, '' AS microblock_hash`;

async function canonicalSubdomains(store: Store, where: string, params: Record<string, unknown>): Promise<SubdomainRow[]> {
  const list = await rows<Record<string, unknown>>(store, `SELECT ${SUBDOMAIN_COLUMNS} FROM bns_subdomains WHERE ${where} ORDER BY block_height DESC`, params);
  return canonicalRows(store, list.map((r) => ({ ...(r as unknown as SubdomainRow), block_height: Number(r.block_height) })));
}

/** Canonical subdomain records of a parent name up to `height`, newest first. */
export function subdomainsOf(store: Store, name: string, height: number): Promise<SubdomainRow[]> {
  return canonicalSubdomains(store, 'name = {n:String} AND block_height <= {h:UInt32}', { n: name, h: height });
}

/** Canonical subdomain records naming `owner` up to `height`. */
export function subdomainsOwnedBy(store: Store, owner: string, height: number): Promise<SubdomainRow[]> {
  return canonicalSubdomains(store, 'owner = {o:String} AND block_height <= {h:UInt32}', { o: owner, h: height });
}
