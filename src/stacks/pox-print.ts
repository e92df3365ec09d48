// Decodes a PoX boot contract's print value: (ok (tuple (name "...") (stacker 'SP..) (locked u..)
// (balance u..) (burnchain-unlock-height u..) (data (tuple ...)))). Anything else is not a PoX op.
import { decodeClarityValue, tupleGet, type ClarityValue } from './codec/clarity.ts';
import { clarityValueRepr } from './codec/clarity-repr.ts';

export interface PoxOp {
  name: string;
  stacker: string;
  locked: string;
  balance: string;
  burnchain_unlock_height: string;
  data: string;
}

function plain(cv: ClarityValue | undefined): unknown {
  if (!cv) return null;
  switch (cv.type) {
    case 'int':
    case 'uint':
      return cv.value.toString();
    case 'bool':
      return cv.value;
    case 'buffer':
      return `0x${Buffer.from(cv.value).toString('hex')}`;
    case 'principal_standard':
    case 'principal_contract':
    case 'string_ascii':
    case 'string_utf8':
      return cv.value;
    case 'none':
      return null;
    case 'some':
    case 'ok':
    case 'err':
      return plain(cv.value);
    case 'list':
      return cv.items.map(plain);
    case 'tuple':
      return Object.fromEntries(cv.entries.map((e) => [e.name, plain(e.value)]));
    default:
      return clarityValueRepr(cv);
  }
}

export function decodePoxPrint(rawValue: string): PoxOp | null {
  let cv: ClarityValue;
  try {
    cv = decodeClarityValue(rawValue);
  } catch {
    return null;
  }
  if (cv.type !== 'ok' || cv.value.type !== 'tuple') return null;
  const t = cv.value;
  const name = tupleGet(t, 'name');
  if (!name || name.type !== 'string_ascii') return null;
  const str = (v: unknown) => (v === null || v === undefined ? '0' : String(v));
  return {
    name: name.value,
    stacker: String(plain(tupleGet(t, 'stacker')) ?? ''),
    locked: str(plain(tupleGet(t, 'locked'))),
    balance: str(plain(tupleGet(t, 'balance'))),
    burnchain_unlock_height: str(plain(tupleGet(t, 'burnchain-unlock-height'))),
    data: JSON.stringify(plain(tupleGet(t, 'data')) ?? {}),
  };
}
