// /metrics after a recorded log is fed: every series the README lists is there with sensible values
// (requests by route, latency, the response cache, ingest positions and rates, ClickHouse read time
// by family, process metrics, the node proxy's series), in valid exposition format. The same
// service shows /health and /ready, final answers' Cache-Control, and the opt-in request log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startService, waitForProcessing, SHARED } from '../testing/service.ts';
import { feedFixture } from '../testing/goldens.ts';

const FIXTURE = 'fuzzed-transactions-1';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the text exposition format, checking each line's shape and that no family is declared twice. */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      assert.ok(!types.has(type[1]), `${type[1]} is declared once`);
      types.set(type[1], type[2]);
      continue;
    }
    if (line.startsWith('# HELP ')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/.exec(line);
    assert.ok(m, `exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return { samples, types };
}

test('/metrics shows every series after a fixture is fed; /health, /ready, Cache-Control and the request log', { timeout: 180_000 }, async () => {
  const svc = await startService({ env: { STACKS_API_REQUEST_LOG: 'on', STACKS_API_SETTLED_DEPTH: '2' } });
  try {
    await feedFixture(svc.eventUrl, FIXTURE);
    const status = (await waitForProcessing(svc.apiUrl)) as { chain_tip: { block_height: number } };
    const entries = readFileSync(join(SHARED, 'fixtures', `${FIXTURE}.tsv`), 'utf8').split('\n').filter((l) => l.trim()).length;

    const txs = (await (await fetch(`${svc.apiUrl}/extended/v1/tx?limit=50`)).json()) as { results: Array<{ tx_id: string; block_height: number }> };
    // A response cache hit: each API thread keeps its own cache, and of 4 asks 2 reach one thread.
    for (let i = 0; i < 3; i++) await (await fetch(`${svc.apiUrl}/extended/v1/tx?limit=50`)).arrayBuffer();
    assert.equal((await fetch(`${svc.apiUrl}/extended/v1/no-such-route`)).status, 404);
    // A tx mined at least STACKS_API_SETTLED_DEPTH below the tip is final; one at the tip is not.
    const deep = txs.results.find((t) => t.block_height <= status.chain_tip.block_height - 2)!;
    const atTip = txs.results.find((t) => t.block_height === status.chain_tip.block_height)!;
    assert.equal((await fetch(`${svc.apiUrl}/extended/v1/tx/${deep.tx_id}`)).headers.get('cache-control'), 'public, max-age=86400, immutable');
    assert.equal((await fetch(`${svc.apiUrl}/extended/v1/tx/${atTip.tx_id}`)).headers.get('cache-control'), 'public, no-cache, must-revalidate');

    const health = await fetch(`${svc.apiUrl}/health`);
    assert.equal(health.status, 200);
    assert.equal(((await health.json()) as { status: string }).status, 'ok');
    const ready = await fetch(`${svc.apiUrl}/ready`);
    assert.equal(ready.status, 200);
    assert.deepEqual(((await ready.json()) as { checks: unknown }).checks, { store: { ok: true }, processing: { ok: true }, lag: { ok: true, behind: 0, max: 1000 } });

    const res = await fetch(`${svc.apiUrl}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const { samples, types } = parseExposition(await res.text());
    const value = (name: string, labels: Record<string, string> = {}) =>
      samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((a, s) => a + s.value, 0);
    const has = (name: string) => samples.some((s) => s.name === name);

    // API requests by route, method and status, with latency.
    assert.ok(value('stacks_api_requests_total', { route: '/extended/v1/tx', method: 'GET', status: '200' }) >= 2);
    assert.ok(value('stacks_api_requests_total', { route: '(unmatched)', status: '404' }) >= 1);
    assert.equal(types.get('stacks_api_request_duration_seconds'), 'histogram');
    assert.ok(value('stacks_api_request_duration_seconds_count', { route: '/extended/v1/tx/:tx_id', method: 'GET' }) >= 2);
    // The response cache.
    assert.ok(value('stacks_api_response_cache_lookups_total', { result: 'hit' }) >= 1);
    assert.ok(value('stacks_api_response_cache_hit_ratio') > 0);
    assert.ok(has('stacks_api_response_cache_bytes') && has('stacks_api_response_cache_entries'));
    // Ingest.
    assert.equal(value('stacks_ingest_received_log_id'), entries);
    assert.equal(value('stacks_ingest_processed_log_id'), entries);
    assert.equal(value('stacks_ingest_lag_entries'), 0);
    assert.equal(value('stacks_ingest_processing_stopped'), 0);
    assert.ok(value('stacks_ingest_txs_total') > 0);
    assert.ok(value('stacks_ingest_blocks_total') >= status.chain_tip.block_height);
    assert.ok(has('stacks_ingest_txs_per_second'));
    assert.ok(has('stacks_ingest_decode_queue') && value('stacks_ingest_decode_threads') >= 1);
    assert.ok(value('stacks_ingest_insert_duration_seconds_count') >= 1);
    // ClickHouse reads by family.
    assert.ok(value('stacks_clickhouse_query_duration_seconds_count', { family: 'service', result: 'ok' }) >= 1, '/ready asked the store');
    const families = new Set(samples.filter((s) => s.name === 'stacks_clickhouse_query_duration_seconds_count' && s.value > 0).map((s) => s.labels.family));
    assert.ok(families.size >= 2, `query time by family: ${[...families].join(', ')}`);
    // Process metrics and the node proxy's series.
    assert.ok(value('process_cpu_user_seconds_total') > 0);
    assert.ok(has('nodejs_heap_size_used_bytes'));
    // The engine's own memory, which the process's resident memory includes when it is embedded.
    assert.ok(value('stacks_clickhouse_memory_bytes', { kind: 'tracked' }) > 0);
    assert.ok(has('stacks_clickhouse_memory_bytes') && samples.filter((s) => s.name === 'stacks_clickhouse_memory_bytes').length === 5);
    assert.ok(has('stacks_proxy_node_healthy') && has('stacks_proxy_rejected_total'));

    // The request log: one line per answered request.
    // With the client's address: read only when the log is on.
    assert.match(svc.output(), /^\S+Z (127\.0\.0\.1|[0-9a-f:.]+) GET \/extended\/v1\/tx\?limit=50 200 \d+B \d+\.\d{3}ms cache$/m);
    assert.match(svc.output(), /^\S+Z \S+ GET \/extended\/v1\/no-such-route 404 /m);
  } finally {
    await svc.stop();
  }
});
