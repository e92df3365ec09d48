// Clarity values: structure vs @stacks/transactions deserializeCV on every value in the fixtures,
// byte-level repr == structured repr, the reference's rendering rules, and malformed input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deserializeCV, serializeCV, addressToString, addressFromVersionHash } from '@stacks/transactions';
import { loadFixtures, distinctRawTxs } from '../../testing/stacks/fixtures.ts';
import { sampleClarityValues } from '../../testing/stacks/synthetic-txs.ts';
import { decodeTransaction } from './transaction.ts';
import {
  clarityRepr,
  clarityHexRepr,
  clarityTypeSignature,
  decodeClarity,
  decodeClarityValue,
  validateClarityValue,
  clarityValueRepr,
  clarityValueTypeSignature,
  tupleGet,
  unwrap,
  type ClarityValue,
} from './clarity.ts';
import { DecodeError } from './bytes.ts';

/** Our structured value in @stacks/transactions v7's ClarityValue shape. */
function toStacksShape(cv: ClarityValue): unknown {
  switch (cv.type) {
    case 'int':
    case 'uint':
      return { type: cv.type, value: cv.value };
    case 'buffer':
      return { type: 'buffer', value: Buffer.from(cv.value).toString('hex') };
    case 'bool':
      return { type: cv.value ? 'true' : 'false' };
    case 'principal_standard':
      return { type: 'address', value: cv.value };
    case 'principal_contract':
      return { type: 'contract', value: cv.value };
    case 'ok':
    case 'err':
    case 'some':
      return { type: cv.type, value: toStacksShape(cv.value) };
    case 'none':
      return { type: 'none' };
    case 'list':
      return { type: 'list', value: cv.items.map(toStacksShape) };
    case 'tuple':
      return { type: 'tuple', value: Object.fromEntries(cv.entries.map((e) => [e.name, toStacksShape(e.value)])) };
    case 'string_ascii':
      return { type: 'ascii', value: cv.value };
    case 'string_utf8':
      return { type: 'utf8', value: cv.value };
  }
}

/** Every serialized Clarity value the fixtures hold: results, event values, call args, NFT post-condition values. */
function fixtureValues(): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of loadFixtures()) {
    for (const t of f.txs) if (t.rawResult) out.set(t.rawResult, `${f.name} raw_result`);
    for (const e of f.events) if (e.rawValue !== '0x') out.set(e.rawValue, `${f.name} ${e.type}`);
  }
  for (const t of distinctRawTxs()) {
    const d = decodeTransaction(t.rawTx);
    if (d.payload.type === 'contract_call') for (const a of d.payload.functionArgs) out.set(a, `${t.fixture} function arg`);
    for (const pc of d.postConditions) if (pc.type === 'non_fungible') out.set(pc.assetValue.hex, `${t.fixture} nft post-condition`);
  }
  for (const cv of sampleClarityValues()) out.set('0x' + serializeCV(cv), 'synthetic');
  return out;
}

test('every fixture Clarity value decodes like @stacks/transactions, and both repr paths agree', () => {
  const values = fixtureValues();
  assert.ok(values.size > 350, `expected 350+ distinct values, found ${values.size}`);
  const failures: string[] = [];
  for (const [hex, where] of values) {
    const ours = decodeClarityValue(hex);
    try {
      assert.deepStrictEqual(toStacksShape(ours), deserializeCV(hex.slice(2)));
    } catch {
      failures.push(`${where} ${hex.slice(0, 80)}: structure differs`);
    }
    const repr = clarityRepr(hex);
    if (repr !== clarityValueRepr(ours)) failures.push(`${where} ${hex.slice(0, 80)}: byte repr ${repr} vs structured ${clarityValueRepr(ours)}`);
    const sig = clarityTypeSignature(hex);
    if (sig !== clarityValueTypeSignature(ours)) failures.push(`${where}: type signature paths differ: ${sig} vs ${clarityValueTypeSignature(ours)}`);
    validateClarityValue(hex);
  }
  console.log(`Clarity values compared with @stacks/transactions deserializeCV: ${values.size}`);
  assert.deepEqual(failures.slice(0, 20), []);
});

const u = (n: bigint) => '01' + n.toString(16).padStart(32, '0');
const ascii = (s: string) => '0d' + Buffer.byteLength(s, 'latin1').toString(16).padStart(8, '0') + Buffer.from(s, 'latin1').toString('hex');
const utf8 = (b: Buffer) => '0e' + b.length.toString(16).padStart(8, '0') + b.toString('hex');

test('repr rules of the reference API', () => {
  const cases: [string, string, string][] = [
    ['00ffffffffffffffffffffffffffffffff', '-1', 'int'],
    ['0080000000000000000000000000000000', '-170141183460469231731687303715884105728', 'int'],
    ['00ffffffffffffffffffe0000000000000', '-9007199254740992', 'int'],
    ['00ffffffffffffffffffdfffffffffffff', '-9007199254740993', 'int'],
    [u(2n ** 128n - 1n), 'u340282366920938463463374607431768211455', 'uint'],
    [u(2n ** 53n), 'u9007199254740992', 'uint'],
    ['0200000000', '0x', '(buff 0)'],
    ['0703', '(ok true)', '(response bool UnknownType)'],
    ['0809', '(err none)', '(response UnknownType (optional UnknownType))'],
    ['0b00000000', '(list)', '(list 0 UnknownType)'],
    ['0b000000020309', '(list true none)', '(list 2 bool)'],
    ['0c00000000', '(tuple)', '(tuple)'],
    [ascii('a"b\'c\\d\te\nf\rg\x00h\x7f\xff'), '"a\\"b\\\'c\\\\d\\te\\nf\\rg\\x00h\\x7f\\xff"', '(string-ascii 17)'],
    [utf8(Buffer.from('😀é a\n')), 'u"\\u{f09f9880}\\u{c3a9} a\\n"', '(string-utf8 20)'],
    // invalid UTF-8 becomes U+FFFD (from_utf8_lossy), one per maximal invalid subsequence
    [utf8(Buffer.from([0x61, 0xff, 0xe2, 0x82, 0x62])), 'u"a\\u{efbfbd}\\u{efbfbd}b"', '(string-utf8 16)'],
    ['051a' + 'a5'.repeat(20), "'" + addressToString(addressFromVersionHash(26, 'a5'.repeat(20))), 'principal'],
    ['0616' + '00'.repeat(20) + '03706f78', "'SP000000000000000000002Q6VF78.pox", 'principal'],
  ];
  for (const [hex, repr, sig] of cases) {
    assert.equal(clarityRepr(hex), repr, hex);
    assert.equal(clarityTypeSignature('0x' + hex), sig, hex);
    assert.deepEqual(decodeClarity(hex), { hex: '0x' + hex, repr, type_signature: sig });
  }
});

test('tuples render sorted by key, a repeated key keeps its last value (a BTreeMap insert)', () => {
  const field = (name: string, v: string) => Buffer.from([name.length]).toString('hex') + Buffer.from(name).toString('hex') + v;
  const hex = '0c00000003' + field('b', u(2n)) + field('a', u(1n)) + field('b', u(3n));
  assert.equal(clarityRepr(hex), '(tuple (a u1) (b u3))');
  assert.equal(clarityTypeSignature(hex), '(tuple (a uint) (b uint))');
  const cv = decodeClarityValue(hex);
  assert.equal(clarityValueRepr(cv), '(tuple (a u1) (b u3))');
  assert.deepEqual(tupleGet(cv, 'b'), { type: 'uint', value: 3n });
});

test('structured access to a PoX print event', () => {
  const pox = loadFixtures()
    .flatMap((f) => f.events)
    .map((e) => decodeClarityValue(e.rawValue === '0x' ? '09' : e.rawValue))
    .find((v) => tupleGet(unwrap(v), 'name')?.type === 'string_ascii' && (tupleGet(unwrap(v), 'name') as { value: string }).value === 'stack-stx');
  assert.ok(pox, 'a stack-stx print event in the fixtures');
  const data = tupleGet(unwrap(pox), 'data');
  assert.equal(data?.type, 'tuple');
  assert.equal(tupleGet(data, 'lock-amount')?.type, 'uint');
  assert.equal(tupleGet(unwrap(pox), 'stacker')?.type, 'principal_standard');
});

test('deep nesting: 32 levels decode, 33 do not', () => {
  const nested = (depth: number) => '0a'.repeat(depth - 1) + '03';
  assert.equal(clarityRepr(nested(32)), '(some '.repeat(31) + 'true' + ')'.repeat(31));
  assert.equal(decodeClarityValue(nested(32)).type, 'some');
  assert.throws(() => clarityRepr(nested(33)), (e: unknown) => e instanceof DecodeError && /nested deeper than 32/.test(e.message));
  assert.throws(() => decodeClarityValue(nested(33)), DecodeError);
  assert.throws(() => clarityTypeSignature(nested(33)), DecodeError);
});

test('malformed Clarity values throw DecodeError with a useful message', () => {
  const bad: [string, RegExp][] = [
    ['0f', /unknown Clarity type id 0x0f at offset 0/],
    ['0b000000010f', /unknown Clarity type id 0x0f at offset 5/],
    ['01000000', /truncated: needed 16 bytes at offset 1 reading uint/],
    ['0200000005aabb', /truncated: needed 5 bytes at offset 5 reading buffer/],
    ['0703ff', /1 trailing byte after Clarity value at offset 2/],
    ['070', /odd-length hex in Clarity value: 3 hex digits/],
    ['0x07zz', /invalid hex digit "z" at position 4/],
    ['', /empty Clarity value/],
    ['0bffffffff', /truncated: list of 4294967295 elements/],
    ['0cffffffff', /truncated: tuple of 4294967295 elements/],
    ['0620' + '00'.repeat(20) + '00', /address version 32 out of range|contract name length 0/],
    ['0616' + '00'.repeat(20) + '00', /contract name length 0 at offset 22/],
    ['0c0000000181' + '61'.repeat(129) + '03', /tuple key of 129 bytes/],
  ];
  for (const [hex, re] of bad) {
    for (const fn of [clarityRepr, clarityTypeSignature, decodeClarityValue, clarityHexRepr, validateClarityValue] as ((h: string) => unknown)[]) {
      assert.throws(() => fn(hex), (e: unknown) => e instanceof DecodeError && re.test(e.message), `${fn.name}(${hex.slice(0, 30)})`);
    }
  }
});

test('random mutations never escape as anything but DecodeError, and both paths agree', () => {
  let seed = 12345;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const samples = [...fixtureValues().keys()].filter((h) => h.length < 2000).slice(0, 400);
  let decoded = 0;
  let rejected = 0;
  for (const hex of samples) {
    for (let k = 0; k < 10; k++) {
      const b = Buffer.from(hex.slice(2), 'hex');
      const mode = rand(3);
      let input: Buffer = b;
      if (mode === 0) b[rand(b.length)] = rand(256);
      else if (mode === 1) input = b.subarray(0, rand(b.length));
      else b[rand(b.length)] ^= 1 << rand(8);
      let a: string | Error;
      let s: string | Error;
      try {
        a = clarityRepr(input);
      } catch (e) {
        a = e as Error;
      }
      try {
        s = clarityValueRepr(decodeClarityValue(input));
      } catch (e) {
        s = e as Error;
      }
      if (a instanceof Error) {
        assert.ok(a instanceof DecodeError, `not a DecodeError: ${a.stack}`);
        assert.ok(s instanceof DecodeError, 'structured path must reject too');
        rejected++;
      } else {
        assert.equal(a, s);
        decoded++;
      }
    }
  }
  assert.ok(decoded > 0 && rejected > 0);
});
