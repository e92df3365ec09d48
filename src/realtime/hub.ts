// The hub: follows the message journal as batches commit and sends each message, rendered once, to
// the clients subscribed to its topic, in the journal's order. A client that resumes from a cursor
// is first sent what it missed, from the journal, while its live messages are held back.
import type { ServingStore } from '../serving/store.ts';
import type { ServingView } from '../serving/view.ts';
import type { RestGet } from './render.ts';
import type { RealtimeConfig } from './config.ts';
import type { RealtimeMetrics } from './metrics.ts';
import type { Client, ClientGroup } from './client.ts';
import { cursorAfter, formatCursor, type Cursor } from '../serving/journal/messages.ts';
import { journalFrom, journalHead, readJournal, type JournalMessage } from '../serving/journal/journal.ts';
import { render, type Outgoing } from './outgoing.ts';
import { ALL, topicOf } from './topics.ts';

/** Journal messages read at a time (no read transaction is held across a render). */
const READ_CHUNK = 512;
/** How long a message that found no answer mid-batch waits for the batch to end, and how many
 *  times it is rendered (the next batch may start during the render again). */
const RERENDER_WAIT_MS = 30_000;
const RERENDER_TRIES = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Test only (STACKS_API_TEST_PUMP_DELAY_MS): messages are sent this long after their batch
 *  committed, so they are rendered while the next batch is being written (follower.test.ts). */
const PUMP_DELAY_MS = Number(process.env.STACKS_API_TEST_PUMP_DELAY_MS) || 0;

/** Renders resolve without I/O (LMDB reads): a backlog would run as one long chain of microtasks
 *  and starve the event loop (requests, handshakes, processing). Every few ms, it yields. */
class Turn {
  private since = performance.now();

  async share(): Promise<void> {
    if (performance.now() - this.since < 5) return;
    await new Promise((r) => setImmediate(r));
    this.since = performance.now();
  }
}

export class CursorError extends Error {}

export class Hub {
  /** The last message sent live (or skipped for want of subscribers). */
  position: Cursor;
  private readonly subscribers = new Map<string, Set<Client>>();
  private readonly clients = new Set<Client>();
  private pumping: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private readonly unlisten: () => void;
  private readonly turn = new Turn();

  constructor(
    private readonly serving: { store: ServingStore; view: ServingView },
    private readonly get: RestGet,
    private readonly config: RealtimeConfig,
    readonly metrics: RealtimeMetrics,
  ) {
    this.position = journalHead(serving.store);
    this.unlisten = serving.view.onCommitted(() => void (PUMP_DELAY_MS ? sleep(PUMP_DELAY_MS).then(() => this.pump()) : this.pump()));
  }

  get head(): Cursor {
    return this.position;
  }

  connect(client: Client): void {
    this.clients.add(client);
    this.metrics.connect(client.channel, 1);
  }

  disconnect(client: Client): void {
    if (!this.clients.delete(client)) return;
    client.closed = true;
    for (const topic of client.topics) this.unsubscribe(client, topic);
    this.metrics.connect(client.channel, -1);
  }

  /** Adds a subscription; false when the connection holds as many as it may. */
  subscribe(client: Client, topic: string): boolean {
    if (client.topics.has(topic)) return true;
    if (client.topics.size >= this.config.maxSubscriptions) return false;
    client.topics.add(topic);
    let set = this.subscribers.get(topic);
    if (!set) this.subscribers.set(topic, (set = new Set()));
    set.add(client);
    this.metrics.subscribe(topic, 1);
    return true;
  }

  unsubscribe(client: Client, topic: string): void {
    if (!client.topics.delete(topic)) return;
    const set = this.subscribers.get(topic);
    set?.delete(client);
    if (set?.size === 0) this.subscribers.delete(topic);
    this.metrics.subscribe(topic, -1);
  }

  /**
   * Subscribes to `topics` and sends the client their messages after `cursor` from the journal,
   * then the live ones (held back meanwhile). Throws CursorError for a cursor the journal no longer
   * reaches; subscriptions over the limit are refused (returned).
   */
  resume(client: Client, cursor: Cursor, topics: string[]): { refused: string[]; done: Promise<void> } {
    if (cursor.logId < journalFrom(this.serving.store)) throw new CursorError(`cursor ${formatCursor(cursor)} is older than the journal kept (STACKS_API_WS_JOURNAL_ENTRIES)`);
    // From here on the topics' live messages are held: later than `until`, sent after the replay.
    const until = this.position;
    client.held ??= [];
    client.replays++;
    const refused = topics.filter((t) => !this.subscribe(client, t));
    const wanted = new Set(topics.filter((t) => !refused.includes(t)));
    const done = (client.replaying = client.replaying
      .then(() => this.replay(client, cursor, until, wanted))
      .catch((e: unknown) => console.error('real-time: a resume failed:', e))
      .finally(() => {
        // The held messages go once no replay is left (a later one may replay older messages).
        if (--client.replays > 0) return;
        const held = client.held ?? [];
        client.held = null;
        for (const m of held) this.send(client, m);
      }));
    return { refused, done };
  }

  private async replay(client: Client, cursor: Cursor, until: Cursor, topics: Set<string>): Promise<void> {
    if (cursorAfter(cursor, client.after)) client.after = cursor;
    let from = cursor;
    for (;;) {
      const chunk = this.read(from, until);
      if (chunk.length === 0) return;
      for (const m of chunk) {
        from = m.cursor;
        const topic = topicOf(m.ref);
        if (topic !== ALL && !topics.has(topic)) continue;
        if (client.closed) return;
        await this.turn.share();
        const out = await render(m, this.get, this.serving.store);
        if (!out) continue;
        if (!(await this.drained(client))) return;
        this.write(client, out, true);
      }
    }
  }

  /** Journal messages after `from` through `until`, a chunk at a time. */
  private read(from: Cursor, until: Cursor): JournalMessage[] {
    const out: JournalMessage[] = [];
    for (const m of readJournal(this.serving.store, from, until.logId)) {
      if (cursorAfter(m.cursor, until) || out.length >= READ_CHUNK) break;
      out.push(m);
    }
    return out;
  }

  /** Waits while the client's buffer is over half the limit; false if it stayed so (closed slow). */
  private async drained(client: Client): Promise<boolean> {
    for (let waited = 0; client.buffered() > this.config.maxBackpressure / 2; waited += 10) {
      if (client.closed) return false;
      if (waited > this.config.pingTimeoutSec * 1000) {
        this.slow(client);
        return false;
      }
      await sleep(10);
    }
    return !client.closed;
  }

  /** Sends the messages committed since the last call, in order (one pass at a time). */
  pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return this.pumping;
    }
    this.pumping = (async () => {
      try {
        do {
          this.again = false;
          await this.deliverCommitted();
        } while (this.again && !this.closed);
      } catch (e) {
        console.error('real-time: delivering messages failed:', e);
      } finally {
        this.pumping = null;
      }
    })();
    return this.pumping;
  }

  private async deliverCommitted(): Promise<void> {
    if (!this.anySubscription()) {
      // Nothing to deliver. Reading the journal anyway (each message's tx id read from its
      // document, its principal from the store) kept an API thread ~15% busy while ingesting. The
      // head moves to what is committed now: later subscribers get what commits after them, and a
      // resume replays up to here.
      const head = journalHead(this.serving.store, this.serving.view.appliedLogId);
      if (cursorAfter(head, this.position)) this.position = head;
      return;
    }
    for (;;) {
      const chunk = this.read(this.position, { logId: this.serving.view.appliedLogId, index: Number.MAX_SAFE_INTEGER });
      if (chunk.length === 0 || this.closed) return;
      for (const m of chunk) {
        await this.turn.share();
        const topic = topicOf(m.ref);
        const wanted = this.hasSubscribers(topic);
        const out = wanted ? await this.rendered(m) : undefined;
        if (wanted && !out) this.metrics.unrendered++;
        // After the render: whoever is subscribed now (a resume that started meanwhile holds it).
        if (out) {
          const ready: Client[] = [];
          for (const client of topic === ALL ? this.clients : (this.subscribers.get(topic) ?? [])) if (topic !== ALL || client.topics.size > 0) this.send(client, out, ready);
          this.writeAll(ready, out);
        }
        this.position = m.cursor;
      }
    }
  }

  /** The message rendered. One that finds no answer while a batch was being written (ClickHouse
   *  ahead of the serving store, e.g. microblock txs being confirmed) is rendered again once the
   *  batch has ended, so what is announced does not depend on that moment. */
  private async rendered(m: JournalMessage): Promise<Outgoing | undefined> {
    const view = this.serving.view;
    for (let tries = 1; ; tries++) {
      const endedBefore = view.batchesEnded;
      const out = await render(m, this.get, this.serving.store);
      if (out || view.batchesBegun === endedBefore || tries >= RERENDER_TRIES) return out;
      await view.quiet(RERENDER_WAIT_MS);
    }
  }

  private anySubscription(): boolean {
    for (const c of this.clients) if (c.topics.size > 0) return true;
    return false;
  }

  private hasSubscribers(topic: string): boolean {
    return topic === ALL ? this.anySubscription() : (this.subscribers.get(topic)?.size ?? 0) > 0;
  }

  /** A live message: held while the client replays, else written (or added to `ready`, written
   *  with the others) unless it is too far behind. */
  private send(client: Client, m: Outgoing, ready?: Client[]): void {
    if (client.closed || !cursorAfter(m.cursor, client.after)) return;
    if (client.held) {
      if (client.held.length >= this.config.maxHeldMessages) this.slow(client);
      else client.held.push(m);
      return;
    }
    if (client.buffered() > this.config.maxBackpressure) return this.slow(client);
    if (ready) ready.push(client);
    else this.write(client, m, false);
  }

  /** One message to many clients: a channel that can encode it once for all of them does. */
  private writeAll(clients: Client[], m: Outgoing): void {
    const groups = new Map<ClientGroup, Client[]>();
    for (const c of clients) {
      if (!c.group) {
        this.write(c, m, false);
        continue;
      }
      let list = groups.get(c.group);
      if (!list) groups.set(c.group, (list = []));
      list.push(c);
    }
    for (const [group, list] of groups) {
      group.writeMany(list, m);
      for (const c of list) this.written(c, m, false);
    }
  }

  private write(client: Client, m: Outgoing, replayed: boolean): void {
    client.write(m);
    this.written(client, m, replayed);
  }

  private written(client: Client, m: Outgoing, replayed: boolean): void {
    // A replay of a later subscription may write older messages: the marks only move forward.
    if (!client.last || cursorAfter(m.cursor, client.last)) client.last = m.cursor;
    if (cursorAfter(m.cursor, client.after)) client.after = m.cursor;
    this.metrics.send(client.channel);
    if (replayed) this.metrics.replayed++;
  }

  /** Too far behind: closed with the cursor to resume from; memory stays bounded. */
  private slow(client: Client): void {
    if (client.closed) return;
    this.metrics.slowConsumers++;
    this.metrics.dropped += 1 + (client.held?.length ?? 0);
    client.held = null;
    const from = client.last ? formatCursor(client.last) : formatCursor(client.after);
    client.close(`slow consumer: reconnect with cursor ${from}`);
    this.disconnect(client);
  }

  close(): void {
    this.closed = true;
    this.unlisten();
    for (const c of [...this.clients]) {
      c.close('server shutting down');
      this.disconnect(c);
    }
  }
}
