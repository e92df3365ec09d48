// Test support: transactions built with @stacks/transactions v7 for shapes the recorded fixtures lack
// (sponsored auth, every hash mode, uncompressed keys, every post-condition kind, code and mode,
// every payload but poison-microblock, every tenure-change cause, every anchor mode).
import {
  StacksTransactionWire,
  createStandardAuth,
  createSponsoredAuth,
  createSingleSigSpendingCondition,
  createMultiSigSpendingCondition,
  createTransactionAuthField,
  createStacksPublicKey,
  createMessageSignature,
  createLPList,
  createTokenTransferPayload,
  createContractCallPayload,
  createSmartContractPayload,
  createCoinbasePayload,
  createNakamotoCoinbasePayload,
  createTenureChangePayload,
  postConditionToWire,
  privateKeyToPublic,
  AddressHashMode,
  PubKeyEncoding,
  AnchorMode,
  PostConditionMode,
  Cl,
  type PostCondition,
} from '@stacks/transactions';

type Any = any;

const hex = (byte: number, n: number) => byte.toString(16).padStart(2, '0').repeat(n);
const bytes = (byte: number, n: number) => new Uint8Array(n).fill(byte);
const compressedKey = (i: number) => privateKeyToPublic(hex(i + 1, 32) + '01');
const uncompressedKey = (i: number) => privateKeyToPublic(hex(i + 1, 32));

export const SAMPLE_ADDRESS = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';
export const SAMPLE_CONTRACT = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7.my-contract';

function singleSig(hashMode: AddressHashMode, keyIndex: number, uncompressed = false, nonce = 7, fee = 180): Any {
  const c: Any = createSingleSigSpendingCondition(hashMode as never, uncompressed ? uncompressedKey(keyIndex) : compressedKey(keyIndex), nonce, fee);
  c.signature = createMessageSignature(hex(0x30 + keyIndex, 65));
  return c;
}

function multiSig(hashMode: AddressHashMode, uncompressed = false, nonce = 3, fee = 5000): Any {
  const keys: string[] = [0, 1, 2].map((i) => (uncompressed && i === 1 ? uncompressedKey(i) : compressedKey(i)) as string);
  const c: Any = createMultiSigSpendingCondition(hashMode as never, 2, keys, nonce, fee);
  const enc = (i: number) => (uncompressed && i === 1 ? PubKeyEncoding.Uncompressed : PubKeyEncoding.Compressed);
  c.fields = [
    createTransactionAuthField(enc(0), createMessageSignature(hex(0xa0, 65))),
    createTransactionAuthField(enc(1), createMessageSignature(hex(0xa1, 65))),
    createTransactionAuthField(enc(2), createStacksPublicKey(keys[2])),
  ];
  return c;
}

/** Clarity values of every type, incl. escapes, non-ASCII text and nesting. */
export function sampleClarityValues(): Any[] {
  return [
    Cl.int(-5),
    Cl.int(-(2n ** 127n)),
    Cl.int(2n ** 127n - 1n),
    Cl.uint(0),
    Cl.uint(2n ** 128n - 1n),
    Cl.uint(9007199254740993n),
    Cl.bufferFromHex('00ff10'),
    Cl.bufferFromHex(''),
    Cl.bool(true),
    Cl.bool(false),
    Cl.principal(SAMPLE_ADDRESS),
    Cl.principal(SAMPLE_CONTRACT),
    Cl.ok(Cl.uint(1)),
    Cl.error(Cl.none()),
    Cl.some(Cl.principal(SAMPLE_ADDRESS)),
    Cl.list([]),
    Cl.list([Cl.uint(1), Cl.uint(2)]),
    Cl.tuple({ b: Cl.bufferFromHex('00'), a: Cl.uint(1), 'a-b': Cl.stringAscii('x') }),
    Cl.tuple({}),
    Cl.stringAscii('tab\there "quoted" \'single\' back\\slash\nnew\rret \x01\x7f'),
    Cl.stringAscii(''),
    Cl.stringUtf8('héllo wörld 😀 ✓ \u0000 "q" \\'),
    Cl.stringUtf8(''),
    Cl.ok(Cl.tuple({ name: Cl.stringAscii('stack-stx'), data: Cl.tuple({ 'pox-addr': Cl.some(Cl.tuple({ version: Cl.bufferFromHex('01'), hashbytes: Cl.bufferFromHex('ab'.repeat(20)) })) }) })),
    [...Array(14)].reduce((v) => Cl.some(v), Cl.list([Cl.ok(Cl.int(1))])),
  ];
}

function postConditions(): PostCondition[] {
  const nft = `${SAMPLE_CONTRACT}::my-nft` as const;
  const ft = `${SAMPLE_CONTRACT}::my-token` as const;
  return [
    { type: 'stx-postcondition', address: 'origin', condition: 'eq', amount: 1 },
    { type: 'stx-postcondition', address: SAMPLE_ADDRESS, condition: 'gt', amount: '18446744073709551615' },
    { type: 'stx-postcondition', address: SAMPLE_CONTRACT, condition: 'gte', amount: 0 },
    { type: 'ft-postcondition', address: 'origin', condition: 'lt', asset: ft, amount: 10 },
    { type: 'ft-postcondition', address: SAMPLE_CONTRACT, condition: 'lte', asset: ft, amount: 99 },
    { type: 'nft-postcondition', address: 'origin', condition: 'sent', asset: nft, assetId: Cl.uint(42) },
    { type: 'nft-postcondition', address: SAMPLE_ADDRESS, condition: 'not-sent', asset: nft, assetId: Cl.tuple({ id: Cl.stringUtf8('ü') }) },
    { type: 'nft-postcondition', address: SAMPLE_CONTRACT, condition: 'maybe-sent', asset: nft, assetId: Cl.bufferFromHex('beef') },
    { type: 'staking-postcondition', address: 'origin', condition: 'gte', amount: 1000 },
    { type: 'pox-postcondition', address: 'origin', condition: 'will-not-perform' },
    { type: 'pox-postcondition', address: SAMPLE_ADDRESS, condition: 'may-perform' },
    { type: 'pox-postcondition', address: SAMPLE_CONTRACT, condition: 'will-perform' },
  ] as PostCondition[];
}

interface Shape {
  name: string;
  auth: Any;
  payload: Any;
  mainnet?: boolean;
  chainId?: number;
  anchorMode?: AnchorMode;
  pcMode?: PostConditionMode;
  pcs?: PostCondition[];
}

/** Serialized synthetic transactions (hex, no prefix) with a name saying what each exercises. */
export function buildSyntheticTxs(): { name: string; hex: string }[] {
  const std = (c: Any) => createStandardAuth(c);
  const shapes: Shape[] = [];
  const authCases: [string, () => Any][] = [
    ['p2pkh compressed', () => std(singleSig(AddressHashMode.P2PKH, 0))],
    ['p2pkh uncompressed', () => std(singleSig(AddressHashMode.P2PKH, 1, true))],
    ['p2wpkh', () => std(singleSig(AddressHashMode.P2WPKH, 2))],
    ['p2sh multisig', () => std(multiSig(AddressHashMode.P2SH))],
    ['p2sh multisig uncompressed key', () => std(multiSig(AddressHashMode.P2SH, true))],
    ['p2wsh multisig', () => std(multiSig(AddressHashMode.P2WSH))],
    ['p2sh order-independent', () => std(multiSig(AddressHashMode.P2SHNonSequential))],
    ['p2sh order-independent uncompressed', () => std(multiSig(AddressHashMode.P2SHNonSequential, true))],
    ['p2wsh order-independent', () => std(multiSig(AddressHashMode.P2WSHNonSequential))],
    ['sponsored single/single', () => createSponsoredAuth(singleSig(AddressHashMode.P2PKH, 0, false, 1, 0), singleSig(AddressHashMode.P2PKH, 3, false, 9, 777))],
    ['sponsored multisig/p2wpkh', () => createSponsoredAuth(multiSig(AddressHashMode.P2SH, false, 4, 0), singleSig(AddressHashMode.P2WPKH, 4, false, 2n ** 64n - 1n as never, 12345))],
    ['sponsored single/order-independent', () => createSponsoredAuth(singleSig(AddressHashMode.P2PKH, 0), multiSig(AddressHashMode.P2WSHNonSequential, false, 11, 4242))],
  ];
  const transfer = () => createTokenTransferPayload(SAMPLE_ADDRESS, 123456789n, 'hello memo');
  for (const [name, auth] of authCases) {
    for (const mainnet of [true, false]) shapes.push({ name: `${name} ${mainnet ? 'mainnet' : 'testnet'}`, auth: auth(), payload: transfer(), mainnet });
  }
  const payloads: [string, () => Any][] = [
    ['transfer to contract', () => createTokenTransferPayload(SAMPLE_CONTRACT, 0, '')],
    ['contract call, every Clarity type', () => createContractCallPayload(SAMPLE_ADDRESS, 'my-contract', 'do-it', sampleClarityValues())],
    ['contract call, no args', () => createContractCallPayload(SAMPLE_ADDRESS, 'c', 'f', [])],
    ['smart contract', () => createSmartContractPayload('hello-world', '(define-public (hi) (ok u1))')],
    ...[1, 2, 3, 4, 5, 6].map((v): [string, () => Any] => [`versioned smart contract clarity ${v}`, () => createSmartContractPayload('v-contract', ';; ü\n(print "x")', v)]),
    ['coinbase', () => createCoinbasePayload(bytes(0x11, 32))],
    ['coinbase to standard', () => createCoinbasePayload(bytes(0x12, 32), Cl.principal(SAMPLE_ADDRESS))],
    ['coinbase to contract', () => createCoinbasePayload(bytes(0x13, 32), Cl.principal(SAMPLE_CONTRACT))],
    ['nakamoto coinbase, no recipient', () => createNakamotoCoinbasePayload(bytes(0x14, 32), Cl.none(), bytes(0x15, 80))],
    ['nakamoto coinbase to contract', () => createNakamotoCoinbasePayload(bytes(0x16, 32), Cl.some(Cl.principal(SAMPLE_CONTRACT)), bytes(0x17, 80))],
    ...[0, 1, 2, 3, 4, 5, 6].map((cause): [string, () => Any] => [
      `tenure change cause ${cause}`,
      () => createTenureChangePayload(hex(0x21, 20), hex(0x22, 20), hex(0x23, 20), hex(0x24, 32), 4294967295, cause, hex(0x25, 20)),
    ]),
  ];
  for (const [name, payload] of payloads) shapes.push({ name, auth: std(singleSig(AddressHashMode.P2PKH, 0)), payload: payload() });
  for (const pcMode of [PostConditionMode.Allow, PostConditionMode.Deny, PostConditionMode.Originator]) {
    for (const anchorMode of [AnchorMode.OnChainOnly, AnchorMode.OffChainOnly, AnchorMode.Any]) {
      shapes.push({ name: `post-conditions mode ${pcMode} anchor ${anchorMode}`, auth: std(singleSig(AddressHashMode.P2PKH, 0)), payload: transfer(), pcMode, anchorMode, pcs: postConditions() });
    }
  }
  shapes.push({ name: 'odd chain id', auth: std(singleSig(AddressHashMode.P2PKH, 0)), payload: transfer(), mainnet: false, chainId: 0x80000100 });
  return shapes.map((s) => {
    const tx = new StacksTransactionWire({
      auth: s.auth,
      payload: s.payload,
      transactionVersion: s.mainnet === false ? 0x80 : 0x00,
      chainId: s.chainId ?? (s.mainnet === false ? 0x80000000 : 1),
      postConditionMode: s.pcMode ?? PostConditionMode.Deny,
      postConditions: createLPList((s.pcs ?? []).map(postConditionToWire)),
    });
    tx.anchorMode = s.anchorMode ?? AnchorMode.Any;
    return { name: s.name, hex: tx.serialize() };
  });
}
