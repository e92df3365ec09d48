// A contract call rendered as text skips JSON.stringify for strings that need no escaping: its text
// must equal the serialized object for every kind of string a repr, a name or a type can hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServingStore } from '../../serving/store.ts';
import { callJson, writeCallWithoutAbi } from './served-call.ts';
import { pack, unpack } from '../../serving/codec.ts';
import { JsonBytesWriter } from '../../server/json-bytes.ts';
import type { CallPart } from '../../serving/docs.ts';

test('a contract call without an ABI as text equals its object serialized, escapes included', () => {
  const reprs = ['u100', "'ST2WXBFYG3AAP0PXKWGWBKTJY8C6DPAVQ3MVX4K5T", '"quoted"', 'back\\slash', 'line\nbreak', '\u0001', 'lone \ud800', 'pair \ud83d\ude00', 'é ü', '\u2028', '(tuple (a u1))'];
  const call = { contract_id: 'ST2AKZW2R2XRD66KQGY8JFS0HZDJXYV7JFJ2QWFCF.bravo-nft-119', function_name: 'set-name!', args: reprs.map((r, i): [string, string, string] => [`0x0${i}`, r, i % 2 ? '(string-ascii 10)' : 'principal']) };
  const expected = {
    contract_id: call.contract_id,
    function_name: call.function_name,
    function_signature: '',
    function_args: call.args.map(([hex, repr, type]) => ({ hex, repr, name: '', type })),
  };
  // No ABI is read without one asked for: the store is not touched.
  const store = {} as ServingStore;
  assert.equal(callJson(store, call, { withAbi: false, excludeFunctionArgs: false }), JSON.stringify(expected));
  const { function_args: _, ...bare } = expected;
  assert.equal(callJson(store, call, { withAbi: false, excludeFunctionArgs: true }), JSON.stringify(bare));
  assert.equal(callJson(store, { ...call, function_name: 'a"b' }, { withAbi: false, excludeFunctionArgs: true }), JSON.stringify({ ...bare, function_name: 'a"b' }));
});

test('a contract call written from its stored bytes equals its text from the unpacked call', () => {
  const reprs = ['u100', '"quoted"', 'back\\slash', 'tab\tand\r\n', '\u0001\u001f\u007f', 'lone \ud800', 'low \udc00 alone', 'pair \ud83d\ude00', 'é ü', '\u2028', ''];
  const call = { contract_id: 'SP000000000000000000002Q6VF78.pox-4', function_name: 'stack"stx', args: reprs.map((r, i): [string, string, string] => [`0x0${i}`, r, i % 2 ? '(string-utf8 10)' : 'uint']) };
  // As a document holds it: inside other values, and its members in any order.
  for (const stored of [call, { args: call.args, function_name: call.function_name, contract_id: call.contract_id }]) {
    const bytes = pack(['before', stored, 'after']);
    const start = 1 + 7;
    const end = bytes.length - 6;
    // (A lone surrogate does not survive MessagePack: the stored call is compared, not the original.)
    assert.deepEqual(unpack(bytes.subarray(start, end)), unpack<unknown[]>(bytes)[1], 'the call\'s byte range');
    const storedCall = unpack<CallPart>(bytes.subarray(start, end));
    for (const excludeFunctionArgs of [false, true]) {
      const w = new JsonBytesWriter(16).text('[');
      writeCallWithoutAbi(w, bytes, start, end, excludeFunctionArgs);
      // Byte for byte: a lone surrogate's stored form is no valid UTF-8, and must not reach the wire.
      assert.deepEqual(w.text(']').written(), Buffer.from(`[${callJson({} as ServingStore, storedCall, { withAbi: false, excludeFunctionArgs })}]`));
    }
  }
  // Each string alone, so a lone surrogate's fallback is not the only path a case takes.
  for (const repr of reprs) {
    const one = { ...call, args: [['0x01', repr, 'uint'] as [string, string, string]] };
    const bytes = pack(one);
    const w = new JsonBytesWriter(8);
    writeCallWithoutAbi(w, bytes, 0, bytes.length, false);
    assert.deepEqual(w.written(), Buffer.from(callJson({} as ServingStore, unpack<CallPart>(bytes), { withAbi: false, excludeFunctionArgs: false })), JSON.stringify(repr));
  }
});
