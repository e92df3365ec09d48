// Settings of the real-time channels (checked at start-up with the others).
import { readPositiveInt } from '../config/config.ts';
import { DEFAULT_RETAIN } from '../serving/journal/journal.ts';

type Env = Record<string, string | undefined>;

export interface RealtimeConfig {
  /** Subscriptions one connection may hold. */
  maxSubscriptions: number;
  /** Bytes a connection may have waiting to be written; above it the client is closed as slow. */
  maxBackpressure: number;
  /** Live messages held for a client while its resume replays; above it it is closed as slow. */
  maxHeldMessages: number;
  /** Heartbeat: Socket.IO ping interval and timeout; WebSocket pings when idle this long. */
  pingIntervalSec: number;
  pingTimeoutSec: number;
  /** Log entries a cursor can resume from (STACKS_API_WS_JOURNAL_ENTRIES). */
  journalEntries: number;
}

export function loadRealtimeConfig(env: Env = process.env): RealtimeConfig {
  return {
    maxSubscriptions: readPositiveInt(env, 'STACKS_API_WS_MAX_SUBSCRIPTIONS', 1000),
    maxBackpressure: readPositiveInt(env, 'STACKS_API_WS_MAX_BACKPRESSURE', 8 * 1024 * 1024),
    maxHeldMessages: readPositiveInt(env, 'STACKS_API_WS_MAX_HELD_MESSAGES', 10_000),
    pingIntervalSec: readPositiveInt(env, 'STACKS_API_WS_PING_INTERVAL', 25),
    pingTimeoutSec: readPositiveInt(env, 'STACKS_API_WS_PING_TIMEOUT', 20),
    journalEntries: readPositiveInt(env, 'STACKS_API_WS_JOURNAL_ENTRIES', DEFAULT_RETAIN),
  };
}
