// PoX operations as the reference shows them: the printed state corrected by the operation
// (src/stacks/roles.ts poxLockState, and the balance it moved), the reward address as a
// Bitcoin address, and the data fields per operation name in snake case.
import { createHash } from 'node:crypto';
import { poxLockState } from '../../stacks/roles.ts';
import { poxAddressToBtc } from '../../stacks/encode/btc-address.ts';
import { AddressVersion, c32address } from '../../stacks/codec/c32.ts';
import type { PoxEventRow } from './queries.ts';

type Data = Record<string, unknown>;

const text = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const amount = (data: Data, key: string): bigint => {
  const v = data[key];
  return typeof v === 'string' && /^\d+$/.test(v) ? BigInt(v) : 0n;
};

/** Data fields shown per operation (printed name -> shown name); every op also shows the cycle ids. */
const DATA_FIELDS: Record<string, string[]> = {
  'handle-unlock': ['first-cycle-locked', 'first-unlocked-cycle'],
  'stack-stx': ['lock-amount', 'lock-period', 'start-burn-height', 'unlock-burn-height', 'signer-key'],
  'stack-increase': ['increase-by', 'total-locked', 'signer-key'],
  'stack-extend': ['extend-count', 'unlock-burn-height', 'signer-key'],
  'delegate-stx': ['amount-ustx', 'delegate-to', 'unlock-burn-height'],
  'delegate-stack-stx': ['lock-amount', 'unlock-burn-height', 'start-burn-height', 'lock-period', 'delegator'],
  'delegate-stack-increase': ['increase-by', 'total-locked', 'delegator'],
  'delegate-stack-extend': ['unlock-burn-height', 'extend-count', 'delegator'],
  'stack-aggregation-commit': ['reward-cycle', 'amount-ustx', 'signer-key'],
  'stack-aggregation-commit-indexed': ['reward-cycle', 'amount-ustx', 'signer-key'],
  'stack-aggregation-increase': ['reward-cycle', 'amount-ustx'],
  'revoke-delegate-stx': ['delegate-to'],
};

export function parseData(row: PoxEventRow): Data {
  try {
    return JSON.parse(row.data) as Data;
  } catch {
    return {};
  }
}

/** The reward address of the op: Bitcoin address and raw bytes (version ++ hashbytes), if any. */
export function poxAddrOf(data: Data, mainnet: boolean): { pox_addr: string | null; pox_addr_raw: string | null } {
  if (!('pox-addr' in data)) return { pox_addr: null, pox_addr_raw: null };
  const addr = data['pox-addr'] as { version?: string; hashbytes?: string } | null;
  if (!addr || typeof addr.version !== 'string' || typeof addr.hashbytes !== 'string') return { pox_addr: null, pox_addr_raw: '0x' };
  const version = Buffer.from(addr.version.slice(2), 'hex');
  const hash = Buffer.from(addr.hashbytes.slice(2), 'hex');
  return { pox_addr: poxAddressToBtc({ version: version[0] ?? -1, hashbytes: hash }, mainnet ? 'mainnet' : 'testnet'), pox_addr_raw: `0x${Buffer.concat([version, hash]).toString('hex')}` };
}

/** The stacker's balance after the operation (the boot contracts print it before). */
function balanceAfter(row: PoxEventRow, data: Data): bigint {
  const balance = BigInt(row.balance);
  switch (row.name) {
    case 'handle-unlock':
      return balance + BigInt(row.locked);
    case 'stack-stx':
    case 'delegate-stack-stx':
      return balance - amount(data, 'lock-amount');
    case 'stack-increase':
    case 'delegate-stack-increase':
      return balance - amount(data, 'increase-by');
    default:
      return balance;
  }
}

export function formatPoxEvent(row: PoxEventRow, mainnet: boolean): Record<string, unknown> {
  const data = parseData(row);
  const { locked, unlock } = poxLockState(row);
  const shown: Data = {};
  for (const key of DATA_FIELDS[row.name] ?? []) {
    const v = data[key];
    // An absent optional (delegate-stx's unlock height) is left out, as the reference does.
    if (v === undefined || (v === null && key === 'unlock-burn-height')) continue;
    shown[key.replaceAll('-', '_')] = v === null ? null : typeof v === 'object' ? v : String(v);
  }
  shown.end_cycle_id = text(data['end-cycle-id']);
  shown.start_cycle_id = text(data['start-cycle-id']);
  return {
    block_height: row.block_height,
    tx_id: row.tx_id,
    tx_index: row.tx_index,
    event_index: row.event_index,
    stacker: row.stacker,
    locked: locked.toString(),
    balance: balanceAfter(row, data).toString(),
    burnchain_unlock_height: unlock.toString(),
    ...poxAddrOf(data, mainnet),
    name: row.name,
    data: shown,
  };
}

/** The signer's Stacks address: hash160 of its public key. */
export function signerAddress(signingKey: string, mainnet: boolean): string {
  const key = Buffer.from(signingKey.replace(/^0x/, ''), 'hex');
  const hash160 = createHash('ripemd160').update(createHash('sha256').update(key).digest()).digest('hex');
  return c32address(mainnet ? AddressVersion.MainnetSingleSig : AddressVersion.TestnetSingleSig, hash160);
}
