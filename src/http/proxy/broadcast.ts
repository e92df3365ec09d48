// Reading a broadcast: the transaction bytes the client sent, and the txid the node answered.

/** The node answers an accepted broadcast with the txid as a JSON string. */
export function parseTxid(body: string): string | undefined {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof v !== 'string') return undefined;
  const m = /^(?:0x)?([0-9a-fA-F]{64})$/.exec(v);
  return m ? `0x${m[1].toLowerCase()}` : undefined;
}

/** The transaction bytes of a broadcast body: raw octets, or `{"tx": "<hex>"}` for JSON bodies. */
export function rawTxOf(body: Buffer, contentType: string | undefined): Buffer | undefined {
  if (!contentType?.toLowerCase().includes('json')) return body;
  try {
    const tx = (JSON.parse(body.toString('utf8')) as { tx?: unknown })?.tx;
    if (typeof tx !== 'string') return undefined;
    const hex = tx.startsWith('0x') ? tx.slice(2) : tx;
    return /^(?:[0-9a-fA-F]{2})*$/.test(hex) ? Buffer.from(hex, 'hex') : undefined;
  } catch {
    return undefined;
  }
}
