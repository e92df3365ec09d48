// On-disk record of the raw event log. One record per observer request, appended in id order:
//   header (40 bytes) | path (utf8) | note (utf8) | body (raw request bytes) | trailer (4 bytes)
// The trailer is written last, so a record cut short by a crash is recognised and dropped at open;
// such a record was never fsynced, hence never acknowledged to the node.

export const RECORD_MAGIC = 0x53455631; // 'SEV1'
export const RECORD_TRAILER = 0x454e4421; // 'END!'
export const HEADER_SIZE = 40;
export const TRAILER_SIZE = 4;

export const enum RecordStatus {
  Accepted = 0,
  /** Malformed for its path: kept for inspection, answered 400, never processed. */
  Rejected = 1,
  /** Accepted, but its rows could not be stored, and an operator set it aside (quarantine-event):
   *  kept, never processed; the reason is in the quarantine journal beside the log. */
  Quarantined = 2,
}

/** Offset of the status byte in a record's header (rewritten in place by a quarantine). */
export const STATUS_OFFSET = 4;

export interface EventRecord {
  id: number;
  /** Receipt time, ms since the epoch. */
  receivedAt: number;
  path: string;
  status: RecordStatus;
  /** Why it was rejected (empty when accepted). */
  note: string;
  body: Buffer;
}

export interface RecordHeader {
  id: number;
  receivedAt: number;
  status: RecordStatus;
  pathLength: number;
  noteLength: number;
  bodyLength: number;
}

export function encodeHeader(r: Omit<EventRecord, 'body'> & { bodyLength: number }, pathBytes: Buffer, noteBytes: Buffer): Buffer {
  const h = Buffer.alloc(HEADER_SIZE);
  h.writeUInt32BE(RECORD_MAGIC, 0);
  h.writeUInt8(r.status, STATUS_OFFSET);
  h.writeUInt16BE(pathBytes.length, 6);
  h.writeUInt32BE(noteBytes.length, 8);
  h.writeBigUInt64BE(BigInt(r.id), 12);
  h.writeDoubleBE(r.receivedAt, 20);
  h.writeBigUInt64BE(BigInt(r.bodyLength), 28);
  return h;
}

export function decodeHeader(h: Buffer): RecordHeader | null {
  if (h.length < HEADER_SIZE || h.readUInt32BE(0) !== RECORD_MAGIC) return null;
  return {
    status: h.readUInt8(STATUS_OFFSET) as RecordStatus,
    pathLength: h.readUInt16BE(6),
    noteLength: h.readUInt32BE(8),
    id: Number(h.readBigUInt64BE(12)),
    receivedAt: h.readDoubleBE(20),
    bodyLength: Number(h.readBigUInt64BE(28)),
  };
}

export function recordSize(h: RecordHeader): number {
  return HEADER_SIZE + h.pathLength + h.noteLength + h.bodyLength + TRAILER_SIZE;
}

export function trailerBytes(): Buffer {
  const t = Buffer.alloc(TRAILER_SIZE);
  t.writeUInt32BE(RECORD_TRAILER, 0);
  return t;
}
