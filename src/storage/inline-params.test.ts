// The reads' own binding against the engine's: for fuzzed values of every bound type, the same SQL
// bound both ways gives the same value and type, and a value that can't be bound here is left to
// the engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inlineParams, quoteString } from './inline-params.ts';
import { seeded, EDGE_NUMBERS, type Random } from '../testing/fuzz.ts';
import { tempDataDir } from '../testing/kept-copy.ts';

interface Session {
  query(sql: string, format?: string): string;
  queryBind(sql: string, params: object, format?: string): string;
  close(): void;
}

const { Session } = (await import('chdb')) as unknown as { Session: new (path: string) => Session };

const TRICKY = ["'", '\\', "\\'", "''", '\0', '\n', '\r\n', '\t', '\x07', '\x1b[0m', '\x7f', '{x:String}', '}', '--', '/*', '*/', ';', '"', '`', 'é', '€', '𝄞', '\u2028', "' OR 1=1 --", "\\' UNION SELECT 1 --"];

function randomString(r: Random): string {
  let s = '';
  const n = r.int(12);
  for (let i = 0; i < n; i++) {
    const k = r.int(4);
    s += k === 0 ? r.pick(TRICKY) : k === 1 ? String.fromCharCode(r.int(0x80)) : k === 2 ? String.fromCharCode(0x80 + r.int(0x7f80)) : r.pick(['a', 'Z', '0', ' ', '.']);
  }
  return s;
}

const INTEGER_TYPES = ['UInt8', 'UInt32', 'UInt64', 'Int32', 'Int64', 'UInt128', 'Int256'];

function randomInteger(r: Random): number | bigint | string {
  const k = r.int(3);
  if (k === 0) return r.pick(EDGE_NUMBERS.filter(Number.isSafeInteger));
  if (k === 1) return BigInt(r.pick(['0', '255', '4294967295', '18446744073709551615', '-9223372036854775808', '170141183460469231731687303715884105727']));
  return String(r.int(1 << 30));
}

test('every value bound here reads back as the engine binds it (seeded fuzz, 1,000 values)', () => {
  const session = new Session(tempDataDir('inline-params-'));
  const r = seeded(20261124);
  let bound = 0;
  let leftToEngine = 0;
  try {
    for (let i = 0; i < 1000; i++) {
      const kind = r.int(4);
      const type = kind === 0 ? 'String' : kind === 1 ? r.pick(INTEGER_TYPES) : kind === 2 ? 'Array(String)' : `Array(${r.pick(['UInt32', 'UInt64'])})`;
      const value = kind === 0 ? randomString(r) : kind === 1 ? randomInteger(r) : kind === 2 ? Array.from({ length: r.int(4) }, () => randomString(r)) : Array.from({ length: r.int(4) }, () => randomInteger(r));
      const sql = `SELECT {v:${type}} AS v, toTypeName({v:${type}}) AS t, {v:${type}} = {v:${type}} AS same`;
      const inline = inlineParams(sql, { v: value });
      let engine: string;
      try {
        engine = session.queryBind(sql, { v: value }, 'JSONEachRow');
      } catch (e) {
        // The engine refuses it (out of range, say): it must not have been bound here either.
        assert.equal(inline, undefined, `bound here what the engine refuses: ${type} ${String(value)} (${(e as Error).message.slice(0, 80)})`);
        leftToEngine++;
        continue;
      }
      if (inline === undefined) {
        leftToEngine++;
        continue;
      }
      assert.equal(session.query(inline, 'JSONEachRow'), engine, `${type} ${JSON.stringify(String(value))}`);
      bound++;
    }
  } finally {
    session.close();
  }
  assert.ok(bound >= 700, `most values bound here (${bound}, ${leftToEngine} left to the engine)`);
});

test('a quote or backslash in a value stays inside its literal', () => {
  assert.equal(quoteString("x' OR '1'='1"), "'x\\' OR \\'1\\'=\\'1'");
  assert.equal(quoteString('a\\\'b'), "'a\\\\\\'b'");
  assert.equal(quoteString('\0\x01\n'), "'\\0\\x01\\n'");
  const sql = inlineParams('SELECT 1 WHERE a = {a:String} AND b IN {b:Array(String)}', { a: "'; DROP TABLE t; --", b: ["x'", '\\'] });
  assert.equal(sql, "SELECT 1 WHERE a = CAST('\\'; DROP TABLE t; --' AS String) AND b IN CAST(['x\\'', '\\\\'] AS Array(String))");
});

test('a value of the wrong shape, an unknown type or a missing name is left to the engine', () => {
  assert.equal(inlineParams('SELECT {a:String}', { a: 5 }), undefined);
  assert.equal(inlineParams('SELECT {a:UInt32}', { a: 1.5 }), undefined);
  assert.equal(inlineParams('SELECT {a:UInt32}', { a: -1 }), undefined);
  assert.equal(inlineParams('SELECT {a:UInt8}', { a: 256 }), undefined);
  assert.equal(inlineParams('SELECT {a:Float64}', { a: 1 }), undefined);
  assert.equal(inlineParams('SELECT {a:String}', { b: 'x' }), undefined);
  assert.equal(inlineParams('SELECT {a:Array(UInt32)}', { a: [1, 'x'] }), undefined);
  assert.equal(inlineParams('SELECT {a:UInt32}, {b:Int64}', { a: 7, b: '-9' }), 'SELECT CAST(7 AS UInt32), CAST(-9 AS Int64)');
});
