import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeApp, listen, listenSharedReserved, newApp, reserveExclusively } from './server.ts';

test('a port-0 reservation another process took before the shared bind is made again on a new port', async () => {
  // Stands in for another process: holds the port the first reservation hands out.
  const other = newApp();
  const taken = await listen(other, '127.0.0.1', 0);
  let reservations = 0;
  const reserve = async (host: string, port: number) => (++reservations === 1 ? taken.port : reserveExclusively(host, port));
  const app = newApp();
  try {
    const shared = await listenSharedReserved(app, '127.0.0.1', 0, reserve);
    assert.equal(reservations, 2);
    assert.notEqual(shared.port, taken.port);
    shared.close();
  } finally {
    taken.close();
    closeApp(other);
    closeApp(app);
  }
});

test('a configured port another process holds is refused, not replaced', async () => {
  const other = newApp();
  const taken = await listen(other, '127.0.0.1', 0);
  const app = newApp();
  try {
    await assert.rejects(listenSharedReserved(app, '127.0.0.1', taken.port), /cannot listen on 127\.0\.0\.1:\d+: the port is in use/);
  } finally {
    taken.close();
    closeApp(other);
    closeApp(app);
  }
});
