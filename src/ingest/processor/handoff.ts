// Decodes the observer thread made of entries the processor has not read yet (its check, with the
// serving documents rendered while the record synced), each taken once instead of decoding the entry again in
// the pool. Held by bytes: when processing lags far behind the node, later entries are decoded from
// the log as in a replay, rather than holding every lagging entry's rows in memory.
import type { DecodeOutcome } from '../../workers/decoded.ts';

/** The rows and documents held at most (the outcomes' moved buffers; ~25 KB an entry on the
 *  generated chain, so ~2,500 entries of lag). */
const HANDOFF_BYTES = 64 * 1024 * 1024;

export class DecodeHandoff {
  private readonly byId = new Map<number, { outcome: DecodeOutcome; bytes: number }>();
  private held = 0;
  /** Decodes taken (entries the pool did not decode). */
  taken = 0;
  /** The processor has read the entries up to this id: a decode arriving for one of them is late. */
  private readThrough = 0;

  constructor(private readonly maxBytes = HANDOFF_BYTES) {}

  /** Entry `id`'s decode (ids arrive in increasing order); dropped when late or over the budget. */
  offer(id: number, outcome: DecodeOutcome, bytes: number): void {
    if (id <= this.readThrough || this.held + bytes > this.maxBytes) return;
    this.byId.set(id, { outcome, bytes });
    this.held += bytes;
  }

  /** Entry `id`'s decode if it was handed over; the processor reads entries in id order, so any
   *  held for earlier ids arrived after their entry was read and are dropped. */
  take(id: number): DecodeOutcome | undefined {
    this.readThrough = Math.max(this.readThrough, id);
    for (const [k, v] of this.byId) {
      if (k > id) break;
      this.byId.delete(k);
      this.held -= v.bytes;
      if (k === id) {
        this.taken++;
        return v.outcome;
      }
    }
    return undefined;
  }

  get size(): number {
    return this.byId.size;
  }

  get bytes(): number {
    return this.held;
  }
}
