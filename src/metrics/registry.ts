// The process's Prometheus registry (prom-client) and the text GET /metrics answers. Any module may
// add its series here with counter/gauge/histogram (get-or-create by name, so a module loaded twice
// or a test that builds two apps gets the same series), and a subsystem that renders its own text
// (the node proxy) adds it with addExpositionText.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

type Options<T extends string> = { name: string; help: string; labelNames?: readonly T[] };

function existing<M>(name: string): M | undefined {
  return registry.getSingleMetric(name) as M | undefined;
}

/** A counter in the shared registry (the one already registered under `name`, if any). */
export function counter<T extends string = string>(opts: Options<T> & { collect?: (this: Counter<T>) => void }): Counter<T> {
  return existing<Counter<T>>(opts.name) ?? new Counter<T>({ ...opts, labelNames: opts.labelNames ?? [], registers: [registry] });
}

/** A gauge in the shared registry; `collect` runs at each scrape (set the value there). */
export function gauge<T extends string = string>(opts: Options<T> & { collect?: (this: Gauge<T>) => void | Promise<void> }): Gauge<T> {
  return existing<Gauge<T>>(opts.name) ?? new Gauge<T>({ ...opts, labelNames: opts.labelNames ?? [], registers: [registry] });
}

/** A histogram in the shared registry (seconds buckets unless given). */
export function histogram<T extends string = string>(opts: Options<T> & { buckets?: number[] }): Histogram<T> {
  return existing<Histogram<T>>(opts.name) ?? new Histogram<T>({ ...opts, labelNames: opts.labelNames ?? [], buckets: opts.buckets ?? SECONDS_BUCKETS, registers: [registry] });
}

/** Latency buckets, seconds: from a served point read (~0.1 ms) to a slow scan. */
export const SECONDS_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const textSources: Array<() => string> = [];

/** Text in the exposition format appended to the registry's (its series names must not clash). */
export function addExpositionText(source: () => string): () => void {
  textSources.push(source);
  return () => {
    const i = textSources.indexOf(source);
    if (i >= 0) textSources.splice(i, 1);
  };
}

/** Everything GET /metrics shows. */
export async function metricsText(): Promise<string> {
  const own = await registry.metrics();
  return [own, ...textSources.map((s) => s())].map((t) => (t.endsWith('\n') ? t : `${t}\n`)).join('');
}

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
