// The process's /metrics from its threads' texts: per-thread counts summed, process-wide values the
// main thread's, each family once, the cache's hit ratio made again from the summed lookups.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeExposition } from './metrics-merge.ts';

const family = (name: string, type: string, lines: string[]) => [`# HELP ${name} ${name}.`, `# TYPE ${name} ${type}`, ...lines].join('\n');

test('per-thread series are summed, process-wide ones are the main thread\'s, each family once', () => {
  const main = [
    family('stacks_api_requests_total', 'counter', ['stacks_api_requests_total{route="/a",method="GET",status="200"} 3']),
    family('stacks_api_request_duration_seconds', 'histogram', ['stacks_api_request_duration_seconds_bucket{le="0.1",route="/a"} 2', 'stacks_api_request_duration_seconds_bucket{le="+Inf",route="/a"} 3', 'stacks_api_request_duration_seconds_sum{route="/a"} 0.25', 'stacks_api_request_duration_seconds_count{route="/a"} 3']),
    family('process_cpu_user_seconds_total', 'counter', ['process_cpu_user_seconds_total 12.5']),
    family('stacks_ingest_processed_log_id', 'gauge', ['stacks_ingest_processed_log_id 40']),
    family('stacks_api_realtime_clients', 'gauge', ['stacks_api_realtime_clients{channel="websocket"} 1']),
    family('stacks_api_thread_requests_total', 'counter', ['stacks_api_thread_requests_total{thread="0"} 3']),
    family('stacks_api_response_cache_lookups_total', 'counter', ['stacks_api_response_cache_lookups_total{result="hit"} 1', 'stacks_api_response_cache_lookups_total{result="miss"} 3']),
    family('stacks_api_response_cache_hit_ratio', 'gauge', ['stacks_api_response_cache_hit_ratio 0.25']),
  ].join('\n');
  const worker = [
    family('stacks_api_requests_total', 'counter', ['stacks_api_requests_total{route="/a",method="GET",status="200"} 4', 'stacks_api_requests_total{route="/b",method="GET",status="404"} 1']),
    family('stacks_api_request_duration_seconds', 'histogram', ['stacks_api_request_duration_seconds_bucket{le="0.1",route="/a"} 4', 'stacks_api_request_duration_seconds_bucket{le="+Inf",route="/a"} 4', 'stacks_api_request_duration_seconds_sum{route="/a"} 0.125', 'stacks_api_request_duration_seconds_count{route="/a"} 4']),
    family('process_cpu_user_seconds_total', 'counter', ['process_cpu_user_seconds_total 12.6']),
    family('stacks_api_realtime_clients', 'gauge', ['stacks_api_realtime_clients{channel="websocket"} 2', 'stacks_api_realtime_clients{channel="socket_io"} 1']),
    family('stacks_api_thread_requests_total', 'counter', ['stacks_api_thread_requests_total{thread="1"} 5']),
    family('stacks_api_response_cache_lookups_total', 'counter', ['stacks_api_response_cache_lookups_total{result="hit"} 3', 'stacks_api_response_cache_lookups_total{result="miss"} 1']),
    family('stacks_api_response_cache_hit_ratio', 'gauge', ['stacks_api_response_cache_hit_ratio 0.75']),
    family('stacks_proxy_rejected_total', 'counter', ['stacks_proxy_rejected_total{reason="no_healthy_node"} 2']),
  ].join('\n');
  const merged = mergeExposition([main, worker]);
  const lines = merged.trim().split('\n');
  const samples = new Map(lines.filter((l) => !l.startsWith('#')).map((l) => [l.slice(0, l.lastIndexOf(' ')), Number(l.slice(l.lastIndexOf(' ') + 1))]));
  assert.equal(samples.get('stacks_api_requests_total{route="/a",method="GET",status="200"}'), 7);
  assert.equal(samples.get('stacks_api_requests_total{route="/b",method="GET",status="404"}'), 1);
  assert.equal(samples.get('stacks_api_request_duration_seconds_bucket{le="0.1",route="/a"}'), 6);
  assert.equal(samples.get('stacks_api_request_duration_seconds_sum{route="/a"}'), 0.375);
  assert.equal(samples.get('stacks_api_request_duration_seconds_count{route="/a"}'), 7);
  assert.equal(samples.get('process_cpu_user_seconds_total'), 12.5, 'process-wide: the main thread\'s');
  assert.equal(samples.get('stacks_ingest_processed_log_id'), 40);
  assert.equal(samples.get('stacks_api_realtime_clients{channel="websocket"}'), 3);
  assert.equal(samples.get('stacks_api_realtime_clients{channel="socket_io"}'), 1);
  assert.equal(samples.get('stacks_api_thread_requests_total{thread="0"}'), 3);
  assert.equal(samples.get('stacks_api_thread_requests_total{thread="1"}'), 5);
  assert.equal(samples.get('stacks_api_response_cache_hit_ratio'), 0.5, 'hits / lookups of the sums');
  assert.equal(samples.get('stacks_proxy_rejected_total{reason="no_healthy_node"}'), 2, 'a family only a worker thread has');
  const types = lines.filter((l) => l.startsWith('# TYPE ')).map((l) => l.split(' ')[2]);
  assert.equal(new Set(types).size, types.length);
  assert.equal(lines.filter((l) => l.startsWith('# HELP ')).length, types.length);
});
