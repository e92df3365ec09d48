// The legacy /extended/v1/poxN_events paths redirect to /extended/v1/poxN/… with the query kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';

const { createApiApp } = await import('../app.ts');
const { listen } = await import('../../server/server.ts');
const { poxV1Routes } = await import('./v1-routes.ts');

test('legacy PoX event paths redirect to the current ones', async () => {
  const l = await listen(createApiApp(poxV1Routes, {} as never), '127.0.0.1', 0);
  const location = async (path: string) => {
    const r = await fetch(`http://127.0.0.1:${l.port}${path}`, { redirect: 'manual' });
    return `${r.status} ${r.headers.get('location')}`;
  };
  try {
    assert.equal(await location('/extended/v1/pox4_events?limit=5&offset=1'), '302 /extended/v1/pox4/events?limit=5&offset=1');
    assert.equal(await location('/extended/v1/pox2_events'), '302 /extended/v1/pox2/events');
    assert.equal(await location('/extended/v1/pox3_events/tx/0xabab'), '302 /extended/v1/pox3/tx/0xabab');
    assert.equal(await location('/extended/v1/pox4_events/stacker/SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7'), '302 /extended/v1/pox4/stacker/SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7');
    assert.equal(await location('/extended/v1/pox4_events/SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7/delegations'), '302 /extended/v1/pox4/SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7/delegations');
  } finally {
    l.close();
  }
});
