// BNS beyond the recorded answers: a zonefile delivered by /attachments/new is served for its name,
// the subdomains its TXT records list are listed, resolved and found by owner; prices follow the
// BNS contract's formulas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, waitForProcessing } from '../../testing/service.ts';
import { feedFixture } from '../../testing/goldens.ts';
import { namePrice, namespacePrice } from './pricing.ts';

const OWNER = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';

/** A Clarity tuple of buffers and an ascii string, serialized (keys in order). */
function metadataHex(name: string, namespace: string, op: string): string {
  const key = (k: string) => Buffer.concat([Buffer.of(k.length), Buffer.from(k)]);
  const buff = (v: string) => Buffer.concat([Buffer.of(0x02), Buffer.from([0, 0, 0, v.length]), Buffer.from(v)]);
  const ascii = (v: string) => Buffer.concat([Buffer.of(0x0d), Buffer.from([0, 0, 0, v.length]), Buffer.from(v)]);
  return `0x${Buffer.concat([Buffer.from([0x0c, 0, 0, 0, 3]), key('name'), buff(name), key('namespace'), buff(namespace), key('op'), ascii(op)]).toString('hex')}`;
}

test('a name-update attachment gives the name its zonefile and its subdomains', async () => {
  const svc = await startService();
  try {
    await feedFixture(svc.eventUrl, 'mainnet-out-of-order-microblock');
    const subZonefile = Buffer.from('$ORIGIN sub.dang.btc\n$TTL 3600\n_http._tcp URI 10 1 "https://example.com/profile.json"\n').toString('base64');
    const zonefile = `$ORIGIN dang.btc\n$TTL 3600\n_resolver URI 10 1 "https://resolver.example"\nsub TXT "owner=${OWNER}" "seqn=0" "parts=1" "zf0=${subZonefile}"\n`;
    const attachment = {
      attachment_index: 1,
      index_block_hash: '0x027a25cb9b3113cf23ffa70514fd3fbea59ee32718bb61b40b0062f39be40e25',
      block_height: 1,
      content_hash: '0xa9755f2e421c072440bfdac7b2a5fed3a2272656',
      contract_id: 'SP000000000000000000002Q6VF78.bns',
      metadata: metadataHex('dang', 'btc', 'name-update'),
      tx_id: '0x67f98d24b20f455ceaee2228e7fe48b82bb8d5564456e7e4cd65d7dd2a57bf29',
      content: `0x${Buffer.from(zonefile).toString('hex')}`,
    };
    const posted = await fetch(`${svc.eventUrl}/attachments/new`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([attachment]) });
    assert.equal(posted.status, 200);
    await waitForProcessing(svc.apiUrl);
    const get = async (path: string) => {
      const r = await fetch(`${svc.apiUrl}${path}`, { redirect: 'manual' });
      return { status: r.status, body: r.status === 302 ? r.headers.get('location') : await r.json() };
    };
    assert.deepEqual(await get('/v1/names/dang.btc/zonefile'), { status: 200, body: { zonefile } });
    assert.deepEqual(await get('/v1/names/dang.btc/zonefile/a9755f2e421c072440bfdac7b2a5fed3a2272656'), { status: 200, body: { zonefile } });
    assert.equal(((await get('/v1/names/dang.btc')).body as { zonefile: string }).zonefile, zonefile);
    assert.deepEqual(await get('/v1/names/dang.btc/subdomains'), { status: 200, body: ['sub.dang.btc'] });
    const sub = await get('/v1/names/sub.dang.btc');
    assert.equal(sub.status, 200);
    assert.deepEqual({ ...(sub.body as Record<string, unknown>), zonefile: undefined, zonefile_hash: undefined }, {
      address: OWNER,
      blockchain: 'stacks',
      last_txid: attachment.tx_id,
      resolver: 'https://resolver.example',
      status: 'registered_subdomain',
      zonefile: undefined,
      zonefile_hash: undefined,
    });
    assert.match(((sub.body as { zonefile: string }).zonefile), /^\$ORIGIN sub\.dang\.btc/);
    assert.deepEqual(await get(`/v1/addresses/stacks/${OWNER}`), { status: 200, body: { names: ['sub.dang.btc'] } });
    // An unknown subdomain of a name with a resolver is redirected there, as the reference does.
    assert.deepEqual(await get('/v1/names/other.dang.btc'), { status: 302, body: 'https://resolver.example/v1/names/other.dang.btc' });
    // Prices are answered here, not forwarded to the node.
    assert.deepEqual(await get('/v2/prices/namespaces/btc'), { status: 200, body: { units: 'STX', amount: '64000000000' } });
    assert.deepEqual(await get('/v2/prices/names/dang.btc'), { status: 400, body: { error: 'Invalid name' } });
  } finally {
    await svc.stop();
  }
});

test('name and namespace prices follow the BNS contract', () => {
  assert.equal(namespacePrice(Buffer.from('a')), 640000000000n);
  assert.equal(namespacePrice(Buffer.from('id')), 64000000000n);
  assert.equal(namespacePrice(Buffer.from('verylongnamespace')), 640000000n);
  assert.equal(namespacePrice(Buffer.from('')), undefined);
  const ns = { namespace_id: 'id', lifetime: 0, ready_block: 0, base: '4', coeff: '250', no_vowel_discount: '4', nonalpha_discount: '2', buckets: '7,6,5,4,3,2,1,1,1,1,1,1,1,1,1,1' };
  // "muneeb": 6 chars -> exponent 2, has vowels, alpha only: 250 * 4^2 / 1 * 10.
  assert.equal(namePrice(Buffer.from('muneeb'), ns), 40000n);
  // "bcd": no vowel (discount 4) -> 250 * 4^5 / 4 * 10.
  assert.equal(namePrice(Buffer.from('bcd'), ns), 640000n);
  // "a1": non-alpha (2) and a vowel -> max(2, 1) = 2: 250 * 4^6 / 2 * 10.
  assert.equal(namePrice(Buffer.from('a1'), ns), 5120000n);
});
