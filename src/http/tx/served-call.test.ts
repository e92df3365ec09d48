// A contract call rendered as text skips JSON.stringify for strings that need no escaping: its text
// must equal the serialized object for every kind of string a repr, a name or a type can hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServingStore } from '../../serving/store.ts';
import { callJson } from './served-call.ts';

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
