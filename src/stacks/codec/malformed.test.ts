// Malformed transactions: every failure is a DecodeError that says what and where; nothing hangs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeTransaction } from './transaction.ts';
import { DecodeError } from './bytes.ts';
import { distinctRawTxs } from '../../testing/stacks/fixtures.ts';
import { buildSyntheticTxs } from '../../testing/stacks/synthetic-txs.ts';

const decodeErr = (re: RegExp) => (e: unknown) => e instanceof DecodeError && re.test(e.message);
const synthetic = (name: string) => {
  const t = buildSyntheticTxs().find((s) => s.name === name);
  assert.ok(t, name);
  return Buffer.from(t.hex, 'hex');
};
const patch = (b: Buffer, offset: number, ...bytes: number[]) => {
  const c = Buffer.from(b);
  c.set(bytes, offset);
  return c;
};

// Standard single-sig layout: version 0, chain 1..4, auth type 5, spending condition 6..108,
// anchor mode 109, post-condition mode 110, count 111..114, first post-condition 115.
test('unknown tags name the tag and its offset', () => {
  const transfer = synthetic('p2pkh compressed mainnet');
  assert.throws(() => decodeTransaction(patch(transfer, 5, 0x06)), decodeErr(/^unknown auth type 0x06 at offset 5$/));
  assert.throws(() => decodeTransaction(patch(transfer, 6, 0x04)), decodeErr(/^unknown origin hash mode 0x04 at offset 6$/));
  assert.throws(() => decodeTransaction(patch(transfer, 6 + 37, 0x02)), decodeErr(/unknown origin key encoding 2/));
  assert.throws(() => decodeTransaction(patch(transfer, 109, 0x04)), decodeErr(/^unknown anchor mode 0x04 at offset 109$/));
  assert.throws(() => decodeTransaction(patch(transfer, 110, 0x04)), decodeErr(/^unknown post-condition mode 0x04 at offset 110$/));
  assert.throws(() => decodeTransaction(patch(transfer, 111, 0xff, 0xff, 0xff, 0xff)), decodeErr(/truncated: 4294967295 post-conditions/));
  assert.throws(() => decodeTransaction(patch(transfer, 115, 0x0a)), decodeErr(/^unknown payload type 0x0a at offset 115$/));
  assert.throws(() => decodeTransaction(patch(transfer, 116, 0x03)), decodeErr(/token transfer recipient at offset 116 must be a principal/));

  const withPcs = synthetic('post-conditions mode 2 anchor 3');
  assert.throws(() => decodeTransaction(patch(withPcs, 115, 0x05)), decodeErr(/^unknown post-condition type 0x05 at offset 115$/));
  assert.throws(() => decodeTransaction(patch(withPcs, 116, 0x04)), decodeErr(/^unknown post-condition principal type 0x04 at offset 116$/));
  assert.throws(() => decodeTransaction(patch(withPcs, 117, 0x09)), decodeErr(/^unknown post-condition condition code 0x09 at offset 117$/));

  const coinbase = synthetic('coinbase');
  assert.throws(() => decodeTransaction(patch(coinbase, coinbase.length - 33, 0x09)), decodeErr(/^unknown payload type 0x09 at offset \d+$/));
  const tenure = synthetic('tenure change cause 6');
  assert.throws(() => decodeTransaction(patch(tenure, tenure.length - 21, 7)), decodeErr(/unknown tenure change cause 7/));
  const versioned = synthetic('versioned smart contract clarity 6');
  assert.throws(() => decodeTransaction(patch(versioned, 116, 7)), decodeErr(/unknown Clarity version 7 at offset 116/));

  // a contract call whose one argument has type id 0x0f
  const call = synthetic('contract call, no args');
  const oneBadArg = Buffer.concat([call.subarray(0, call.length - 4), Buffer.from([0, 0, 0, 1, 0x0f])]);
  assert.throws(() => decodeTransaction(oneBadArg), decodeErr(new RegExp(`^unknown Clarity type id 0x0f at offset ${call.length}$`)));
  const tooManyArgs = Buffer.concat([call.subarray(0, call.length - 4), Buffer.from([0xff, 0xff, 0xff, 0xff])]);
  assert.throws(() => decodeTransaction(tooManyArgs), decodeErr(/truncated: 4294967295 contract call arguments/));

  const multisig = synthetic('p2wsh multisig mainnet');
  assert.throws(() => decodeTransaction(patch(multisig, 47, 0x07)), decodeErr(/unknown auth field id 0x07 at offset 47/));
  assert.throws(() => decodeTransaction(patch(multisig, 47, 0x03)), decodeErr(/P2WSH allows compressed keys only/));
});

test('hex problems and trailing bytes', () => {
  const [t] = distinctRawTxs();
  assert.throws(() => decodeTransaction(t.rawTx.slice(0, -1)), decodeErr(/^odd-length hex in raw_tx: \d+ hex digits$/));
  assert.throws(() => decodeTransaction(t.rawTx.slice(0, 20) + 'zz' + t.rawTx.slice(22)), decodeErr(/^invalid hex digit "z" at position 20 in raw_tx$/));
  const bytes = Buffer.from(t.rawTx.slice(2), 'hex');
  assert.throws(() => decodeTransaction(t.rawTx + '00'), decodeErr(new RegExp(`^1 trailing byte after transaction at offset ${bytes.length}$`)));
  assert.throws(() => decodeTransaction(t.rawTx + 'abcd'), decodeErr(/^2 trailing bytes after transaction/));
  assert.throws(() => decodeTransaction(''), decodeErr(/^truncated: needed 1 byte at offset 0 reading version/));
  assert.throws(() => decodeTransaction('0x'), DecodeError);
});

test('every truncation of one tx of each kind is reported as truncated', () => {
  const samples = new Map<string, string>();
  for (const t of distinctRawTxs()) {
    const kind = decodeTransaction(t.rawTx).payload.type;
    if (!samples.has(kind)) samples.set(kind, t.rawTx.slice(2));
  }
  for (const s of buildSyntheticTxs()) samples.set(s.name, s.hex);
  let checked = 0;
  for (const [kind, hex] of samples) {
    const b = Buffer.from(hex, 'hex');
    for (let len = 0; len < b.length; len++) {
      assert.throws(() => decodeTransaction(b.subarray(0, len)), decodeErr(/^truncated: /), `${kind} cut at ${len}`);
      checked++;
    }
  }
  assert.ok(checked > 20000, `checked ${checked} truncations`);
});

test('random corruption of every fixture tx: DecodeError or a decode, never another error or a hang', () => {
  let seed = 99;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const started = Date.now();
  let rejected = 0;
  let accepted = 0;
  for (const t of distinctRawTxs()) {
    const orig = Buffer.from(t.rawTx.slice(2), 'hex');
    for (let k = 0; k < 20; k++) {
      const b = Buffer.from(orig);
      const hits = 1 + rand(3);
      for (let h = 0; h < hits; h++) b[rand(b.length)] = rand(2) ? rand(256) : b[rand(b.length)] ^ 0xff;
      try {
        decodeTransaction(b);
        accepted++;
      } catch (e) {
        assert.ok(e instanceof DecodeError, `not a DecodeError: ${(e as Error).stack}`);
        rejected++;
      }
    }
  }
  assert.ok(rejected > 1000 && accepted > 1000, `rejected ${rejected}, accepted ${accepted}`);
  assert.ok(Date.now() - started < 20_000, 'corrupt input must not be slow');
});
