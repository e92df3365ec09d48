// Compresses the event log once it is processed, in the background of the process that owns it
// (started by the pipeline; a follower never compacts the log it follows). A segment is compressed
// when a newer one exists (the writer never appends to it again) and every record in it is at or
// below the processed id; the newest segment, being written, stays plain. One segment at a time,
// one frame at a time, on the threadpool in small steps (frame-codec.ts): the observer thread and
// its acks are not involved, and the processor's loop only passes each frame along.
import { readProgressMs } from '../../config/tuning.ts';
import { removeLeftovers } from './leftovers.ts';
import { compressSegment, SegmentShapeError } from './segment-compress.ts';
import { lastIdOf, listSegments } from './segments.ts';

/** How often the log is looked at for segments to compress. */
const INTERVAL_MS = 2000;
/** After a failure that is not the segment's (a full disk, say), compression waits this long. */
const RETRY_MS = 60_000;

export interface CompactorOptions {
  /** The newest log id whose rows are stored (the processor's committed id). */
  processedId: () => number;
  intervalMs?: number;
  /** A backlog's progress line at most this often (default STACKS_API_PROGRESS_MS). */
  progressMs?: number;
  log?: (line: string) => void;
}

const MiB = (n: number) => (n / 1048576).toFixed(0);

export class EventLogCompactor {
  private running: Promise<void> | null = null;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private pausedUntil = 0;
  /** Segments that cannot be compressed (said once, left plain). */
  private readonly refused = new Set<number>();
  private readonly log: (line: string) => void;
  private readonly ready: Promise<void>;

  private constructor(
    readonly dir: string,
    private readonly opts: CompactorOptions,
  ) {
    this.log = opts.log ?? ((line) => console.log(line));
    this.ready = removeLeftovers(dir).then(
      (removed) => void (removed.length > 0 && this.log(`event log: removed what an interrupted compression left: ${removed.join(', ')}`)),
      (e: Error) => this.log(`event log: leftovers of an interrupted compression not removed: ${e.message}`),
    );
  }

  /** Removes leftovers of an interrupted compression, then looks for segments due every `intervalMs`. */
  static start(dir: string, opts: CompactorOptions): EventLogCompactor {
    const c = new EventLogCompactor(dir, opts);
    const tick = () => void (c.running ?? c.compressDue());
    c.timer = setInterval(tick, opts.intervalMs ?? INTERVAL_MS);
    c.timer.unref();
    tick();
    return c;
  }

  /** Compresses every segment due now, after the pass under way if there is one. */
  async compressDue(): Promise<void> {
    while (this.running) await this.running;
    this.running = this.ready.then(() => this.pass()).finally(() => (this.running = null));
    return this.running;
  }

  /** Stops after the frame being compressed (a compression given up leaves the `.seg`). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async pass(): Promise<void> {
    if (this.stopped || performance.now() < this.pausedUntil) return;
    const segments = listSegments(this.dir);
    const processed = this.opts.processedId();
    const due = segments.flatMap((s, i) => {
      const lastId = lastIdOf(segments, i);
      return !s.compressed && lastId !== undefined && lastId <= processed && !this.refused.has(s.firstId) ? [{ firstId: s.firstId, lastId }] : [];
    });
    const progressMs = this.opts.progressMs ?? readProgressMs(process.env);
    const started = performance.now();
    let lastLine = started;
    const total = { segments: 0, plain: 0, compressed: 0 };
    for (const [i, seg] of due.entries()) {
      if (this.stopped) break;
      try {
        const done = await compressSegment(this.dir, seg.firstId, { lastId: seg.lastId, stopping: () => this.stopped });
        if (!done) break;
        total.segments++;
        total.plain += done.plainBytes;
        total.compressed += done.compressedBytes;
      } catch (e) {
        if (!(e instanceof SegmentShapeError)) {
          // Say, a full disk: tried again later, the `.seg` meanwhile read as before.
          this.pausedUntil = performance.now() + RETRY_MS;
          this.log(`event log: compression paused for ${RETRY_MS / 1000} s: ${(e as Error).message}`);
          break;
        }
        this.refused.add(seg.firstId);
        this.log(`event log: segment ${seg.firstId} left uncompressed: ${(e as Error).message}`);
      }
      const now = performance.now();
      if (now - lastLine >= progressMs && i + 1 < due.length) {
        lastLine = now;
        const rate = total.plain / ((now - started) / 1000);
        this.log(`event log: compressing processed segments: ${total.segments}/${due.length}, ${MiB(total.plain)} -> ${MiB(total.compressed)} MiB, ${MiB(rate)} MiB/s`);
      }
    }
    // A pass long enough to report on ends with its total.
    if (lastLine > started) {
      const secs = (performance.now() - started) / 1000;
      this.log(`event log: compressed ${total.segments} segments, ${MiB(total.plain)} -> ${MiB(total.compressed)} MiB (${((100 * total.compressed) / Math.max(total.plain, 1)).toFixed(1)}%) in ${secs.toFixed(1)} s`);
    }
  }
}
