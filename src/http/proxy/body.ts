// A request body arriving from uWS (onData) and streamed to the upstream node, with backpressure both ways:
// when too much is queued the client connection is paused, and it is resumed as the node consumes.
//
// Each upstream attempt gets its own Readable from open(). Nothing is taken from the queue until undici
// reads, which it only does once connected to the node, so an attempt that failed to connect leaves the
// body intact (`consumed` stays false) and it can be replayed to another node.
import { Readable } from 'node:stream';

export interface FlowControl {
  pause(): void;
  resume(): void;
}

export class StreamedBody {
  private queue: Buffer[] = [];
  private queued = 0;
  private ended = false;
  private failed = false;
  private sink: Readable | null = null;
  private wanted = false;
  private draining = false;
  private clientPaused = false;
  /** An attempt has read from the body: it can no longer be replayed to another node. */
  consumed = false;

  constructor(
    private readonly flow: FlowControl,
    private readonly highWaterMark = 256 * 1024,
  ) {}

  /** A chunk from the client (already copied out of uWS's buffer). */
  write(chunk: Buffer, last: boolean): void {
    if (this.failed) return;
    if (chunk.length > 0) {
      this.queue.push(chunk);
      this.queued += chunk.length;
    }
    if (last) this.ended = true;
    this.drain();
    if (!this.ended && !this.clientPaused && this.queued >= this.highWaterMark) {
      this.clientPaused = true;
      this.flow.pause();
    }
  }

  /** Stops the body: the current attempt's stream errors, further chunks are dropped, the client is resumed. */
  fail(err: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.queue = [];
    this.queued = 0;
    const sink = this.sink;
    this.sink = null;
    sink?.destroy(err);
    this.releaseClient();
  }

  /** A stream over the body for one upstream attempt. */
  open(): Readable {
    const stream = new Readable({
      highWaterMark: 64 * 1024,
      read: () => {
        if (this.sink !== stream) return;
        this.consumed = true;
        this.wanted = true;
        this.drain();
      },
      destroy: (err, callback) => {
        if (this.sink === stream) {
          this.sink = null;
          this.wanted = false;
        }
        callback(err);
      },
    });
    // undici listens for errors only while the request runs: fail() after that must not crash the process.
    stream.on('error', () => {});
    this.sink = stream;
    this.wanted = false;
    return stream;
  }

  private drain(): void {
    const sink = this.sink;
    // push() may call read() synchronously: the outer loop carries on.
    if (sink === null || !this.wanted || this.draining) return;
    this.draining = true;
    try {
      while (this.queue.length > 0 && this.wanted && this.sink === sink) {
        const chunk = this.queue.shift()!;
        this.queued -= chunk.length;
        if (!sink.push(chunk)) this.wanted = false;
      }
      if (this.queue.length === 0 && this.ended && this.sink === sink) {
        this.sink = null;
        sink.push(null);
      }
    } finally {
      this.draining = false;
    }
    if (this.queued < this.highWaterMark / 2) this.releaseClient();
  }

  private releaseClient(): void {
    if (!this.clientPaused) return;
    this.clientPaused = false;
    this.flow.resume();
  }
}
