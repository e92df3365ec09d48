// How a quarantined entry travels in an event export: a row with the reserved path /_quarantined
// whose payload wraps the entry's own path and body with the quarantine's record,
//   {"quarantine":{"path":"/new_block","reason":…,"error":…,"at":…},"body":<the body as it was>}
// (body_text instead of body for a body that is not JSON). The body's bytes are kept exactly: the
// importer cuts them out of the payload instead of re-serializing them.

export const QUARANTINED_PATH = '/_quarantined';

export interface QuarantinedRow {
  path: string;
  body: Buffer;
  reason: string;
  error?: string;
  at?: string;
}

export function wrapQuarantined(row: QuarantinedRow): Buffer {
  const head = JSON.stringify({ quarantine: { path: row.path, reason: row.reason, ...(row.error ? { error: row.error } : {}), ...(row.at ? { at: row.at } : {}) } });
  let isJson = true;
  try {
    JSON.parse(row.body.toString('utf8'));
  } catch {
    isJson = false;
  }
  const tail = isJson ? Buffer.concat([Buffer.from(',"body":'), row.body, Buffer.from('}')]) : Buffer.from(`,"body_text":${JSON.stringify(row.body.toString('utf8'))}}`);
  return Buffer.concat([Buffer.from(head.slice(0, -1)), tail]);
}

export function unwrapQuarantined(payload: Buffer): QuarantinedRow {
  const text = payload.toString('utf8');
  const parsed = JSON.parse(text) as { quarantine?: { path?: unknown; reason?: unknown; error?: unknown; at?: unknown }; body?: unknown; body_text?: unknown };
  const q = parsed.quarantine;
  if (!q || typeof q.path !== 'string' || typeof q.reason !== 'string') throw new Error(`a ${QUARANTINED_PATH} row needs quarantine.path and quarantine.reason`);
  // The header is JSON.stringify output: quotes inside its strings are escaped, so the first
  // `,"body":` is where the body starts.
  const marker = text.indexOf(',"body":');
  const body = typeof parsed.body_text === 'string' ? Buffer.from(parsed.body_text, 'utf8') : Buffer.from(text.slice(marker + ',"body":'.length, text.lastIndexOf('}')), 'utf8');
  if (marker < 0 && typeof parsed.body_text !== 'string') throw new Error(`a ${QUARANTINED_PATH} row has no body`);
  return { path: q.path, body, reason: q.reason, ...(typeof q.error === 'string' ? { error: q.error } : {}), ...(typeof q.at === 'string' ? { at: q.at } : {}) };
}
