// Clarity value serialization agrees with @stacks/transactions byte for byte, and our decoder
// reads it back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Cl, serializeCV, type ClarityValue as StacksValue } from '@stacks/transactions';
import { clarityHexRepr } from '../codec/index.ts';
import { Cv, clarityHex, type ClarityValue } from './clarity.ts';

const addr = { version: 22, hash160: Buffer.from('a46ff88886c2ef9762d970b4d2c63678835bd39d', 'hex') };
const P = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';

const cases: Array<[string, ClarityValue, StacksValue]> = [
  ['int', Cv.int(-5n), Cl.int(-5)],
  ['int min', Cv.int(-(2n ** 127n)), Cl.int(-(2n ** 127n))],
  ['uint max', Cv.uint(2n ** 128n - 1n), Cl.uint(2n ** 128n - 1n)],
  ['buffer', Cv.buffer(Buffer.from('00ff10', 'hex')), Cl.bufferFromHex('00ff10')],
  ['bools', Cv.list([Cv.bool(true), Cv.bool(false)]), Cl.list([Cl.bool(true), Cl.bool(false)])],
  ['principal', Cv.principal(addr), Cl.principal(P)],
  ['contract principal', Cv.principal(addr, 'alpha-token-0'), Cl.principal(`${P}.alpha-token-0`)],
  ['responses', Cv.list([Cv.ok(Cv.uint(1)), Cv.err(Cv.none())]), Cl.list([Cl.ok(Cl.uint(1)), Cl.error(Cl.none())])],
  ['optional', Cv.some(Cv.buffer(Buffer.from('ref-1'))), Cl.some(Cl.buffer(Buffer.from('ref-1')))],
  [
    'tuple (keys sorted)',
    Cv.tuple({ sender: Cv.principal(addr), amount: Cv.uint(7), action: Cv.ascii('transfer'), memo: Cv.none() }),
    Cl.tuple({ sender: Cl.principal(P), amount: Cl.uint(7), action: Cl.stringAscii('transfer'), memo: Cl.none() }),
  ],
  ['utf8', Cv.utf8('héllo 😀'), Cl.stringUtf8('héllo 😀')],
];

for (const [name, ours, theirs] of cases) {
  test(`serializes ${name} as @stacks/transactions does`, () => {
    assert.equal(clarityHex(ours), '0x' + serializeCV(theirs));
    assert.ok(clarityHexRepr(clarityHex(ours)).repr.length > 0);
  });
}
