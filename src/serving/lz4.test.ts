// The LZ4 compressor: what it writes decodes to the input (with our decoder and with lmdb's, through
// a handle opened with the same dictionary), matches reach into the dictionary, and input that does
// not shrink is stored as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { open } from 'lmdb';
import { Lz4Dictionary, compressValue, compressValueJs, decompressValue, nativeLz4 } from './lz4.ts';

const dict = new Lz4Dictionary(Buffer.from('"tx_id":"0x","nonce":0,"fee_rate":"180","sender_address":"SP000000000000000000002Q6VF78","post_conditions":[],'.repeat(3)));
const text = (i: number) => Buffer.from(`"tx_id":"0x${i.toString(16).padStart(64, '0')}","nonce":${i},"fee_rate":"${180 + i}","sender_address":"SP${'X'.repeat(i % 40)}","post_conditions":[],"memo":"${'0'.repeat(i % 300)}"`);

/** Random bytes as a stored value can be: not starting with a byte of 250 or more (lmdb's markers;
 *  compressValue's precondition — the serving store's values start with a MessagePack array or a
 *  record's type byte). */
function randomValue(n: number): Buffer {
  const b = randomBytes(n);
  b[0] %= 250;
  return b;
}

function inputs(): Uint8Array[] {
  const out: Uint8Array[] = [Buffer.alloc(0), Buffer.from('short'), Buffer.alloc(5000, 7), randomValue(3000)];
  for (let i = 0; i < 300; i++) out.push(text(i));
  // Runs longer than 15 and 270 (the length bytes' continuations), mixed with random literals.
  out.push(Buffer.concat([randomValue(20), Buffer.alloc(300, 1), randomBytes(290), Buffer.alloc(20, 2), randomBytes(40)]));
  return out;
}

const compressors = [
  { name: 'liblz4 (the addon)', compress: compressValue },
  { name: 'JavaScript', compress: compressValueJs },
];

test('the liblz4 addon is built (without it the decode workers compress ~4x slower, in JavaScript)', () => {
  assert.ok(nativeLz4, 'native/lz4-dictionary did not load: is liblz4.so.1 installed, and a C compiler?');
});

for (const { name, compress } of compressors) {
  test(`${name}: compressed values decode to their input; incompressible ones are kept as they are`, () => {
    for (const input of inputs()) {
      const c = compress(input, dict);
      assert.deepEqual(Buffer.from(decompressValue(c, dict)), Buffer.from(input));
      if (c === input) continue;
      assert.equal(c[0], 254);
      assert.ok(c.length < input.length);
    }
    const random = randomBytes(3000);
    assert.equal(compress(random, dict), random, 'random bytes do not shrink');
    const withDict = compress(Buffer.from('"sender_address":"SP000000000000000000002Q6VF78","post_conditions":[],'), dict);
    assert.ok(withDict.length < 20, `a phrase of the dictionary is a few bytes: ${withDict.length}`);
  });
}

test('liblz4 shrinks documents at least as well as the JavaScript compressor (within 5%), the dictionary used by both', () => {
  const docs = Array.from({ length: 200 }, (_, i) => text(i * 7));
  const size = (f: typeof compressValue) => docs.reduce((n, d) => n + f(d, dict).length, 0);
  const plain = docs.reduce((n, d) => n + d.length, 0);
  const [a, b] = [size(compressValue), size(compressValueJs)];
  assert.ok(a < plain * 0.6 && b < plain * 0.6, `${a} and ${b} of ${plain} bytes`);
  assert.ok(a < 1.05 * b, `liblz4 ${a} bytes, JavaScript ${b}`);
});

test("lmdb decompresses what was compressed here, through a handle with the same dictionary", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lz4-'));
  try {
    const env = open({ path: dir, maxDbs: 2 });
    const plain = env.openDB({ name: 'd', encoding: 'binary', compression: false });
    const reading = env.openDB({ name: 'd', encoding: 'binary', compression: { threshold: 2 ** 31, dictionary: Buffer.from(dict.bytes) } });
    const all = inputs().filter((b) => b.length > 0);
    // Both compressors' values, one after the other.
    const values = [...all.map((b) => compressValue(b, dict)), ...all.map((b) => compressValueJs(b, dict))];
    await env.transaction(() => values.forEach((v, i) => void plain.put(i, v as Buffer)));
    [...all, ...all].forEach((b, i) => {
      assert.deepEqual(Buffer.from(reading.getBinary(i)!), Buffer.from(b), `value ${i}`);
      const fast = reading.getBinaryFast(i)!;
      assert.deepEqual(Buffer.from(Uint8Array.prototype.slice.call(fast, 0, fast.length)), Buffer.from(b), `value ${i}, read fast`);
    });
    await env.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
