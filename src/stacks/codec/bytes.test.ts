import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ByteReader, DecodeError, hexToBytes, bytesToHex, toBuffer } from './bytes.ts';

const decodeErr = (re: RegExp) => (e: unknown) => e instanceof DecodeError && re.test(e.message);

test('hexToBytes is strict', () => {
  assert.deepEqual([...hexToBytes('0x0aFf')], [10, 255]);
  assert.deepEqual([...hexToBytes('0X0a')], [10]);
  assert.deepEqual([...hexToBytes('')], []);
  assert.throws(() => hexToBytes('0xabc', 'raw_tx'), decodeErr(/odd-length hex in raw_tx: 3 hex digits/));
  assert.throws(() => hexToBytes('ab c'), decodeErr(/invalid hex digit " " at position 2/));
  assert.throws(() => hexToBytes('0xabzz'), decodeErr(/invalid hex digit "z" at position 4/));
  assert.throws(() => hexToBytes('0xg0'), decodeErr(/invalid hex digit "g" at position 2/));
  assert.equal(bytesToHex(new Uint8Array([1, 2, 255])), '0x0102ff');
  const u8 = new Uint8Array([9, 8, 7]).subarray(1);
  assert.deepEqual([...toBuffer(u8)], [8, 7]);
});

test('reads are bounds-checked and say what they were reading', () => {
  const r = new ByteReader('0x0102030405060708090a');
  assert.equal(r.u8('a'), 1);
  assert.equal(r.u16('b'), 0x0203);
  assert.equal(r.u32('c'), 0x04050607);
  assert.throws(() => r.u64('fee'), decodeErr(/^truncated: needed 8 bytes at offset 7 reading fee, but only 3 left \(input is 10 bytes\)$/));
  assert.equal(r.pos, 7, 'a failed read does not move');
  assert.equal(r.hex(2, 'x'), '0x0809');
  assert.throws(() => r.expectEnd('transaction'), decodeErr(/1 trailing byte after transaction at offset 9/));
  assert.throws(() => r.bytes(2, 'memo'), decodeErr(/needed 2 bytes at offset 9 reading memo/));
  assert.equal(r.u8('last'), 10);
  assert.throws(() => r.u8('version'), decodeErr(/needed 1 byte at offset 10 reading version/));
  r.expectEnd('transaction');
  const n = new ByteReader('0x0261620000');
  assert.equal(n.name('contract name'), 'ab');
  assert.throws(() => n.name('function name', 1), decodeErr(/bad function name length 0/));
  assert.equal(new ByteReader(Buffer.from([0, 0, 0, 0, 0, 0, 0, 5])).u64('nonce'), 5n);
});
