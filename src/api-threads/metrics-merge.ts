// One /metrics for the whole process from each API thread's exposition text: a series counted per
// thread (requests, latency, cache lookups, ClickHouse read time, real-time messages, proxied
// requests) is summed over the threads; a value that already describes the process (process_*
// metrics, ingest positions, the engine's memory, the event loop of the main thread, a node's health)
// is the main thread's alone. The first text is the main thread's.

/** Gauges that are per thread and add up (connections, subscriptions, cache sizes, requests in
 *  flight; a series by thread keeps each thread's sample). */
const SUMMED_GAUGES = new Set(['stacks_api_realtime_clients', 'stacks_api_realtime_subscriptions', 'stacks_api_thread_realtime_clients', 'stacks_api_response_cache_bytes', 'stacks_api_response_cache_entries', 'stacks_proxy_node_inflight']);

interface Family {
  name: string;
  type: string;
  /** HELP and TYPE lines. */
  header: string[];
  /** Sample key (name and labels) -> value, in first-seen order. */
  samples: Map<string, number>;
}

function parse(text: string): Family[] {
  const families: Family[] = [];
  let current: Family | undefined;
  let help: string | undefined;
  for (const line of text.split('\n')) {
    if (!line) continue;
    if (line.startsWith('# HELP ')) {
      help = line;
      continue;
    }
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      current = { name: type[1], type: type[2], header: help ? [help, line] : [line], samples: new Map() };
      families.push(current);
      help = undefined;
      continue;
    }
    if (line.startsWith('#') || !current) continue;
    const cut = line.lastIndexOf(' ');
    current.samples.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return families;
}

const summed = (f: Family): boolean => (f.type === 'counter' || f.type === 'histogram' ? !f.name.startsWith('process_') : SUMMED_GAUGES.has(f.name));

/** The process's exposition text from the threads' texts (the main thread's first). */
export function mergeExposition(texts: readonly string[]): string {
  const merged = new Map<string, Family>();
  for (const text of texts) {
    for (const f of parse(text)) {
      const into = merged.get(f.name);
      if (!into) {
        merged.set(f.name, { ...f, samples: new Map(f.samples) });
        continue;
      }
      if (!summed(into)) continue;
      for (const [key, v] of f.samples) into.samples.set(key, (into.samples.get(key) ?? 0) + v);
    }
  }
  hitRatioOfSums(merged);
  const out: string[] = [];
  for (const f of merged.values()) {
    out.push(...f.header);
    for (const [key, v] of f.samples) out.push(`${key} ${formatValue(v)}`);
  }
  return `${out.join('\n')}\n`;
}

/** The response cache's hit ratio is a ratio of counters: made again from the summed lookups. */
function hitRatioOfSums(merged: Map<string, Family>): void {
  const lookups = merged.get('stacks_api_response_cache_lookups_total');
  const ratio = merged.get('stacks_api_response_cache_hit_ratio');
  if (!lookups || !ratio) return;
  let hits = 0;
  let total = 0;
  for (const [key, v] of lookups.samples) {
    total += v;
    if (key.includes('result="hit"')) hits += v;
  }
  ratio.samples = new Map([['stacks_api_response_cache_hit_ratio', total ? hits / total : 0]]);
}

function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}
