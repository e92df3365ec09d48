// Amounts cross from the decode workers as numbers while exact, and as decimal strings beyond.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { amountOf, negatedAmount } from './input.ts';

test('an amount is a number within ±(2^53 - 1) and a string beyond; negating keeps it exact', () => {
  const max = BigInt(Number.MAX_SAFE_INTEGER);
  assert.equal(amountOf(0n), 0);
  assert.equal(amountOf(max), Number.MAX_SAFE_INTEGER);
  assert.equal(amountOf(-max), -Number.MAX_SAFE_INTEGER);
  assert.equal(amountOf(max + 1n), '9007199254740992');
  assert.equal(amountOf(-max - 1n), '-9007199254740992');
  assert.ok(Object.is(negatedAmount(0), 0), 'zero negated is 0, not -0');
  assert.equal(negatedAmount(5), -5);
  assert.equal(negatedAmount('-9007199254740992'), '9007199254740992');
  // A string whose negation fits comes back a number.
  assert.equal(negatedAmount('-9007199254740991'), Number.MAX_SAFE_INTEGER);
  assert.equal(negatedAmount('123456789012345678901234567890'), '-123456789012345678901234567890');
});
