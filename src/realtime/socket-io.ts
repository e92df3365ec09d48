// Socket.IO at the API root (the server attached to the uWS app), as the reference serves it:
// topics joined with the handshake query `subscriptions=a,b` or the `subscribe` / `unsubscribe`
// events. Beyond it: each event's last argument is `{cursor}`; a handshake with `cursor` (auth or
// query) first receives what it missed after that cursor; the subscribe ack's second argument is
// `{cursor}`, where the subscription starts; on connecting, a `subscribed` event `{cursor, topics}`
// names where the connection's messages start; a client closed for falling behind first gets a
// `closing` event `{reason}`.
import { Server, type Socket } from 'socket.io';
import type { TemplatedApp } from 'uWebSockets.js';
import type { Hub } from './hub.ts';
import { CursorError } from './hub.ts';
import { Client, type ClientGroup } from './client.ts';
import type { RealtimeConfig } from './config.ts';
import type { Outgoing } from './outgoing.ts';
import { formatCursor, parseCursor, type Cursor } from '../serving/journal/messages.ts';
import { checkTopic } from './topics.ts';

class SocketIoClient extends Client {
  readonly channel = 'socket_io' as const;

  constructor(
    readonly socket: Socket,
    override readonly group: ClientGroup,
  ) {
    super();
  }

  write(m: Outgoing): void {
    this.socket.emit(m.event, ...m.args);
  }

  buffered(): number {
    // Packets engine.io has not handed to the transport, and what the uWS socket holds.
    const conn = this.socket.conn as unknown as { writeBuffer?: unknown[]; transport?: { socket?: { getBufferedAmount?: () => number } } };
    let uws = 0;
    try {
      uws = conn.transport?.socket?.getBufferedAmount?.() ?? 0;
    } catch {
      uws = 0; // closed meanwhile
    }
    return uws + (conn.writeBuffer?.length ?? 0) * 1024;
  }

  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.emit('closing', { reason });
    this.socket.disconnect(true);
  }
}

/** Topics of a handshake query value (`a,b`, or repeated), checked; throws naming the bad ones. */
function handshakeTopics(raw: unknown): string[] {
  const parts = [raw ?? []].flat().flatMap((v) => String(v).split(',')).filter((t) => t !== '');
  const bad = parts.filter((t) => checkTopic(t) === null);
  if (bad.length > 0) throw new Error(`Invalid topic: ${bad.join(', ')}`);
  return [...new Set(parts.map((t) => checkTopic(t)!))];
}

function handshakeCursor(socket: Socket): Cursor | undefined {
  const raw = (socket.handshake.auth as Record<string, unknown> | undefined)?.cursor ?? socket.handshake.query.cursor;
  if (raw === undefined || raw === '') return undefined;
  const cursor = parseCursor(raw);
  if (!cursor) throw new Error('Invalid cursor');
  return cursor;
}

export function attachSocketIo(app: TemplatedApp, hub: Hub, config: RealtimeConfig): Server {
  const io = new Server({
    cors: { origin: '*' },
    serveClient: false,
    pingInterval: config.pingIntervalSec * 1000,
    pingTimeout: config.pingTimeoutSec * 1000,
  });
  // engine.io's uWS options (its typings only list Socket.IO's).
  io.attachApp(app, { maxBackpressure: config.maxBackpressure * 2 } as Parameters<Server['attachApp']>[1]);

  // A handshake with a bad topic or cursor, or too many topics, is refused (connect_error).
  io.use((socket, next) => {
    try {
      const topics = handshakeTopics(socket.handshake.query.subscriptions);
      if (topics.length > config.maxSubscriptions) throw new Error('too many subscriptions');
      handshakeCursor(socket);
      next();
    } catch (e) {
      next(e as Error);
    }
  });

  // A message to many sockets is encoded once (each socket is in a room of its own id).
  const group: ClientGroup = {
    writeMany: (clients, m) => void io.to(clients.map((c) => (c as SocketIoClient).socket.id)).emit(m.event, ...m.args),
  };
  io.on('connection', (socket) => {
    const client = new SocketIoClient(socket, group);
    hub.connect(client);
    socket.on('disconnect', () => {
      client.closed = true;
      hub.disconnect(client);
    });
    const topics = handshakeTopics(socket.handshake.query.subscriptions);
    const cursor = handshakeCursor(socket);
    if (cursor) {
      try {
        hub.resume(client, cursor, topics);
      } catch (e) {
        client.close(e instanceof CursorError ? e.message : 'resume failed');
        hub.disconnect(client);
        return;
      }
    } else for (const t of topics) hub.subscribe(client, t);
    // Where this connection's messages start (a client that hears nothing yet can resume from it).
    socket.emit('subscribed', { cursor: formatCursor(cursor ?? hub.head), topics });

    socket.on('subscribe', (raw: unknown, callback?: unknown) => {
      const ack = typeof callback === 'function' ? (callback as (error: string | null, info?: unknown) => void) : () => {};
      const wanted = [raw].flat();
      const checked = wanted.map(checkTopic);
      const bad = wanted.filter((_, i) => checked[i] === null);
      if (bad.length > 0) return ack(`Invalid topic: ${bad.map(String).join(', ')}`);
      for (const t of checked) if (!hub.subscribe(client, t!)) return ack('too many subscriptions on this connection');
      ack(null, { cursor: formatCursor(hub.head) });
    });
    socket.on('unsubscribe', (...raw: unknown[]) => {
      for (const t of raw.flat()) {
        const topic = checkTopic(t);
        if (topic) hub.unsubscribe(client, topic);
      }
    });
  });
  return io;
}
