// Hands log entries to the decode pool ahead of the processor, several per task. A task's round
// trip costs the processor's thread ~25 µs whatever its size, and most entries are small (a mempool
// tx is a few hundred bytes), so entries travel in groups of up to CHUNK_ENTRIES or CHUNK_BYTES.
import type { DecodePool } from '../../workers/pool.ts';
import type { DecodeOutcome } from '../../workers/decoded.ts';
import type { DecodeHandoff } from './handoff.ts';
import { RecordStatus, type EventRecord } from '../event-log/record.ts';

const CHUNK_ENTRIES = 64;
const CHUNK_BYTES = 256 * 1024;

interface Waiting {
  rec: EventRecord;
  resolve: (o: DecodeOutcome) => void;
  reject: (e: unknown) => void;
}

export class DecodeAhead {
  private group: Waiting[] = [];
  private groupBytes = 0;

  constructor(
    private readonly pool: DecodePool,
    /** Outcomes decoded elsewhere already (the observer's check), taken once. */
    private readonly handoff: DecodeHandoff,
  ) {}

  /** The entry's outcome (null: never processed); it is sent with the entries added around it. */
  add(rec: EventRecord): Promise<DecodeOutcome | null> {
    // Refused by the observer, or set aside by an operator: never processed.
    if (rec.status === RecordStatus.Rejected || rec.status === RecordStatus.Quarantined) return Promise.resolve(null);
    const handed = this.handoff.take(rec.id);
    if (handed) return Promise.resolve(handed);
    const outcome = new Promise<DecodeOutcome>((resolve, reject) => this.group.push({ rec, resolve, reject }));
    this.groupBytes += rec.body.length;
    if (this.group.length >= CHUNK_ENTRIES || this.groupBytes >= CHUNK_BYTES) this.send();
    return outcome;
  }

  /** Sends the gathered entries if `rec` is among them (the processor is about to wait for it). */
  sendWith(rec: EventRecord): void {
    if (this.group.some((w) => w.rec === rec)) this.send();
  }

  /** Sends what is gathered. */
  send(): void {
    const group = this.group;
    if (group.length === 0) return;
    this.group = [];
    this.groupBytes = 0;
    this.pool.decodeMany(group.map((w) => ({ path: w.rec.path, body: w.rec.body }))).then(
      (outcomes) => group.forEach((w, i) => w.resolve(outcomes[i])),
      (e: unknown) => group.forEach((w) => w.reject(e)),
    );
  }
}
