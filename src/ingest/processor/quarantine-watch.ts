// The service's side of a quarantine: while processing is stopped, the entry it stopped at is
// looked at every second, and once an operator has quarantined it (npm run quarantine-event),
// processing resumes without a restart. The journal's list is what /extended shows.
import { journalStamp, locateRecord, readQuarantine, statusAt, writeStoppedAt, type QuarantineEntry } from '../event-log/quarantine.ts';
import { RecordStatus } from '../event-log/record.ts';
import type { Processor } from './processor.ts';

const POLL_MS = 1000;

export interface QuarantineWatch {
  list(): QuarantineEntry[];
  stop(): void;
}

export function watchQuarantine(processor: Processor, logDir: string, live: boolean): QuarantineWatch {
  let entries = readQuarantine(logDir);
  let stamp = journalStamp(logDir);
  let reported: number | null = null;
  // Where the entry processing stopped at is in the log: found once, then one byte read per poll.
  let position: { segment: number; offset: number } | undefined;
  let busy = false;
  const check = async () => {
    if (busy) return;
    busy = true;
    try {
      if (journalStamp(logDir) !== stamp) {
        stamp = journalStamp(logDir);
        entries = readQuarantine(logDir);
      }
      const error = processor.error;
      if (!error) {
        if (reported !== null) writeStoppedAt(logDir, null);
        reported = null;
        return;
      }
      if (reported !== error.logId) {
        writeStoppedAt(logDir, error);
        reported = error.logId;
        position = (await locateRecord(logDir, error.logId))?.position;
      }
      if (position && statusAt(logDir, position) === RecordStatus.Quarantined) {
        console.log(`processor: entry ${error.logId} was quarantined; resuming`);
        await processor.resume();
      }
    } catch (e) {
      console.error('quarantine watch:', (e as Error).message);
    } finally {
      busy = false;
    }
  };
  const timer = live ? setInterval(() => void check(), POLL_MS) : undefined;
  timer?.unref();
  return {
    list: () => entries,
    stop: () => clearInterval(timer),
  };
}
