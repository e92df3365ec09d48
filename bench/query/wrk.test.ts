// The wrk report parser: a real report's figures, and units.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseWrk, wrkMs } from './wrk.ts';

const REPORT = `Running 8s test @ http://127.0.0.1:3998
  1 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.62ms    1.35ms  21.15ms   87.22%
    Req/Sec    21.09k     5.28k   29.20k    78.75%
  Latency Distribution
     50%  812.00us
     75%    1.89ms
     90%    2.79ms
     99%    1.02s
  168020 requests in 8.01s, 566.44MB read
  Socket errors: connect 0, read 2, write 0, timeout 3
  Non-2xx or 3xx responses: 7
Requests/sec:  20984.48
Transfer/sec:     70.74MB
`;

test('wrk report: rate, requests, p50/p99 in ms, errors from sockets and non-2xx', () => {
  const r = parseWrk('x', 32, 8, REPORT);
  assert.equal(r.rps, 20984.48);
  assert.equal(r.requests, 168020);
  assert.equal(r.p50, 0.812);
  assert.equal(r.p99, 1020);
  assert.equal(r.errors, 12);
  assert.equal(wrkMs('1.5m'), 90_000);
  assert.throws(() => parseWrk('x', 32, 8, 'nothing'));
});
