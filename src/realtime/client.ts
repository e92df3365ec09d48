// One connection of either channel, as the hub sees it: its topics, where it is in the message
// sequence, and how to write to it.
import { START, type Cursor } from '../serving/journal/messages.ts';
import type { Outgoing } from './outgoing.ts';

/** Writes one message to many clients of a channel at once (encoded once). */
export interface ClientGroup {
  writeMany(clients: Client[], m: Outgoing): void;
}

export abstract class Client {
  abstract readonly channel: 'socket_io' | 'websocket';
  /** Set when the channel writes a message to many clients at once. */
  group?: ClientGroup;
  readonly topics = new Set<string>();
  /** Live messages held back while a resume replays older ones (null when none runs). */
  held: Outgoing[] | null = null;
  /** Messages at or before this are not sent (the client had them: the cursor it resumed from). */
  after: Cursor = START;
  /** The last message written to it. */
  last: Cursor | null = null;
  closed = false;
  /** Resumes run one after another; `replays` counts those not finished. */
  replaying: Promise<void> = Promise.resolve();
  replays = 0;

  /** Writes one message. */
  abstract write(m: Outgoing): void;
  /** Bytes written to it that the peer has not taken yet. */
  abstract buffered(): number;
  /** Closes the connection, saying why. */
  abstract close(reason: string): void;
}
