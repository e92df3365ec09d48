// The message journal: each log entry's messages (references only, see messages.ts), kept in the
// serving store and written in the same LMDB transaction as the batch's documents. So a message is
// recorded exactly when its rows are stored, once (a batch redone after a crash is skipped there
// when the store already holds it), and a client that reconnects with its cursor is sent what it
// missed from here. Old entries are pruned: STACKS_API_WS_JOURNAL_ENTRIES log entries are kept.
import type { ServingStore } from '../store.ts';
import type { ServingChanges } from '../changes.ts';
import type { PendingEntry } from '../docs.ts';
import { messagesOf, type Cursor, type MessageRef } from './messages.ts';
import { decodeMessages, encodeMessages, messageCount, type JournalLookups, type JournalNames } from './codec.ts';
import { placedDocOf } from '../reads.ts';
import { txIdOf } from '../codec.ts';

export const DEFAULT_RETAIN = 100_000;

/** How many log entries back a cursor can resume from (read where the journal is written). */
export function journalRetain(env: Record<string, string | undefined> = process.env): number {
  const raw = env.STACKS_API_WS_JOURNAL_ENTRIES;
  return raw && /^\d+$/.test(raw) && Number(raw) > 0 ? Number(raw) : DEFAULT_RETAIN;
}

const retain = journalRetain();

/** Issues the journal writes of a batch (called in the same write transaction as its other writes).
 *  `logHead`: the log's last entry now. Entries that will be pruned by the time it is processed
 *  are not written (an import's first entries), and the journal starts there at once. `names`: the
 *  batch's principal ids; `pendingOf`: the committed pending entries. */
export function writeJournal(s: ServingStore, changes: ServingChanges, logTo: number, logHead: number, names: JournalNames, pendingOf?: (txId: string) => PendingEntry | undefined): void {
  const from = Math.max(logTo, logHead) - retain;
  // Messages of an entry depend on earlier entries of the batch: all or none are worked out.
  if (logTo >= from) for (const [logId, list] of messagesOf(changes, s, pendingOf)) if (logId >= from) void s.journal.put(logId, encodeMessages(logId, list, names) as Buffer);
  if (from > journalFrom(s)) {
    for (const key of s.journal.getKeys({ end: from })) void s.journal.remove(key);
    void s.meta.put('journalFrom', from);
  }
}

/** Entries below this log id are no longer kept. */
export function journalFrom(s: ServingStore): number {
  return (s.meta.get('journalFrom') as number | undefined) ?? 0;
}

export interface JournalMessage {
  cursor: Cursor;
  ref: MessageRef;
}

/** What a stored message's references name. */
function lookups(s: ServingStore): JournalLookups {
  return {
    principalOf: (id) => {
      const p = s.principalNames.get(id);
      if (p === undefined) throw new Error(`journal: no principal ${id}`);
      return p;
    },
    txIdOf: (pid) => {
      const p = placedDocOf(s, pid);
      if (!p) throw new Error(`journal: no tx document ${pid}`);
      return txIdOf(p.doc);
    },
  };
}

/** Messages after `after`, through log entry `through`, in order. */
export function* readJournal(s: ServingStore, after: Cursor, through: number): Generator<JournalMessage> {
  const names = lookups(s);
  for (const { key, value } of s.journal.getRange({ start: after.logId, end: through + 1 })) {
    const list = decodeMessages(key as number, value, names);
    for (let index = key === after.logId ? after.index + 1 : 0; index < list.length; index++) yield { cursor: { logId: key as number, index }, ref: list[index] };
  }
}

/** The last message in the journal, or the last through log entry `through` (the empty cursor
 *  when there is none). */
export function journalHead(s: ServingStore, through?: number): Cursor {
  const range = through === undefined ? { reverse: true, limit: 1 } : { start: through, reverse: true, limit: 1 };
  for (const { key, value } of s.journal.getRange(range)) return { logId: key as number, index: messageCount(value) - 1 };
  return { logId: 0, index: -1 };
}
