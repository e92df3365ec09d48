// The real-time channels' counters, as Prometheus text lines (appended to /metrics).
export class RealtimeMetrics {
  /** Open connections by channel ('socket_io', 'websocket'). */
  readonly connected = new Map<string, number>();
  /** Subscriptions by topic kind (`transaction`, `address-transaction`, …: the part before ':'). */
  readonly subscriptions = new Map<string, number>();
  /** Messages written to clients, by channel. */
  readonly sent = new Map<string, number>();
  /** Connections closed for falling behind (their messages are not sent; they resume by cursor). */
  slowConsumers = 0;
  /** Messages not sent to a slow consumer. */
  dropped = 0;
  /** Journal messages with subscribers whose object had no answer when rendered (not sent). */
  unrendered = 0;
  /** Messages sent again from the journal to clients that resumed by cursor. */
  replayed = 0;

  private static add(map: Map<string, number>, key: string, by: number): void {
    map.set(key, (map.get(key) ?? 0) + by);
  }

  connect(channel: string, by: 1 | -1): void {
    RealtimeMetrics.add(this.connected, channel, by);
  }

  subscribe(topic: string, by: 1 | -1): void {
    RealtimeMetrics.add(this.subscriptions, topic.split(':')[0], by);
  }

  send(channel: string): void {
    RealtimeMetrics.add(this.sent, channel, 1);
  }

  text(): string {
    const out: string[] = [];
    const family = (name: string, type: string, help: string, rows: Array<[string, number]>) => {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      for (const [labels, v] of rows) out.push(`${name}${labels} ${v}`);
    };
    const byLabel = (label: string, map: Map<string, number>) => [...map].map(([k, v]): [string, number] => [`{${label}="${k}"}`, v]);
    family('stacks_api_realtime_clients', 'gauge', 'Connected real-time clients by channel.', byLabel('channel', this.connected));
    family('stacks_api_realtime_subscriptions', 'gauge', 'Subscriptions by topic.', byLabel('topic', this.subscriptions));
    family('stacks_api_realtime_messages_sent_total', 'counter', 'Messages sent to clients by channel.', byLabel('channel', this.sent));
    family('stacks_api_realtime_messages_replayed_total', 'counter', 'Messages sent from the journal to clients resuming by cursor.', [['', this.replayed]]);
    family('stacks_api_realtime_messages_dropped_total', 'counter', 'Messages not sent to clients closed as slow consumers.', [['', this.dropped]]);
    family('stacks_api_realtime_messages_unrendered_total', 'counter', 'Journal messages not sent because their object had no REST answer when rendered.', [['', this.unrendered]]);
    family('stacks_api_realtime_slow_consumers_total', 'counter', 'Connections closed for falling behind.', [['', this.slowConsumers]]);
    return `${out.join('\n')}\n`;
  }
}
