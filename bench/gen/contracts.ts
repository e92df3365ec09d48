// The contracts the synthetic chain deploys: a SIP-010 fungible token and a SIP-009 non-fungible
// token (real Clarity source), their `contract_interface` in the node's shape, and a deploy that
// fails at run time. Events the generator emits for calls follow what this source would do.

export type ContractKind = 'ft' | 'nft';

export interface ContractSpec {
  kind: ContractKind;
  /** Contract name (the part after the dot). */
  name: string;
  /** define-fungible-token / define-non-fungible-token name. */
  asset: string;
  code: string;
  clarityVersion: number;
  /** The node's contract_interface object for a successful deploy. */
  abi: Record<string, unknown>;
  /** FT: initial supply minted to the deployer. */
  supply: bigint;
  /** NFT: µSTX a non-deployer pays the deployer per mint. */
  mintPrice: number;
}

const WORDS = ['alpha', 'bravo', 'comet', 'delta', 'ember', 'flux', 'gale', 'halo', 'ion', 'jade', 'koi', 'lumen', 'mango', 'nova', 'onyx', 'pixel', 'quark', 'rune', 'sol', 'terra', 'umbra', 'vega', 'wren', 'xeno', 'yuzu', 'zen'];

const U = 'uint128';
const resp = (ok: unknown, error: unknown) => ({ response: { ok, error } });
const fn = (name: string, access: 'public' | 'read_only' | 'private', args: Array<[string, unknown]>, output: unknown) => ({
  args: args.map(([n, type]) => ({ name: n, type })),
  name,
  access,
  outputs: { type: output },
});
const variable = (name: string, type: unknown, access: 'constant' | 'variable') => ({ name, type, access });

/** Keys in the order a Hiro export (Postgres jsonb) prints them. */
function abi(o: { functions: unknown[]; variables: unknown[]; fts: string[]; nfts: Array<[string, unknown]>; epoch: string; clarity: number }) {
  return {
    maps: [],
    epoch: o.epoch,
    functions: o.functions,
    variables: o.variables,
    clarity_version: `Clarity${o.clarity}`,
    fungible_tokens: o.fts.map((name) => ({ name })),
    non_fungible_tokens: o.nfts.map(([name, type]) => ({ name, type })),
  };
}

export function ftContract(k: number, clarityVersion: number, epoch: string): ContractSpec {
  const word = WORDS[k % WORDS.length];
  const name = `${word}-token-${k}`;
  const asset = word;
  const title = `${word[0].toUpperCase()}${word.slice(1)} Token ${k}`;
  const symbol = `${word.slice(0, 4).toUpperCase()}${k}`;
  const supply = 1_000_000_000_000_000n;
  const code = `;; ${title}: a SIP-010 fungible token
(define-fungible-token ${asset})

(define-constant contract-owner tx-sender)
(define-constant err-owner-only (err u100))
(define-constant err-not-token-owner (err u101))

(define-data-var token-uri (optional (string-utf8 256)) (some u"https://tokens.example/${name}.json"))

(define-public (transfer (amount uint) (sender principal) (recipient principal) (memo (optional (buff 34))))
  (begin
    (asserts! (is-eq tx-sender sender) err-not-token-owner)
    (try! (ft-transfer? ${asset} amount sender recipient))
    (print {action: "transfer", amount: amount, sender: sender, recipient: recipient, memo: memo})
    (ok true)))

(define-public (mint (amount uint) (recipient principal))
  (begin
    (asserts! (is-eq tx-sender contract-owner) err-owner-only)
    (try! (ft-mint? ${asset} amount recipient))
    (print {action: "mint", amount: amount, recipient: recipient})
    (ok true)))

(define-public (burn (amount uint))
  (begin
    (try! (ft-burn? ${asset} amount tx-sender))
    (print {action: "burn", amount: amount, sender: tx-sender})
    (ok true)))

(define-read-only (get-name) (ok "${title}"))
(define-read-only (get-symbol) (ok "${symbol}"))
(define-read-only (get-decimals) (ok u6))
(define-read-only (get-balance (who principal)) (ok (ft-get-balance ${asset} who)))
(define-read-only (get-total-supply) (ok (ft-get-supply ${asset})))
(define-read-only (get-token-uri) (ok (var-get token-uri)))

(ft-mint? ${asset} u${supply} contract-owner)
`;
  const errU = resp('bool', U);
  const uri = { optional: { 'string-utf8': { length: 256 } } };
  return {
    kind: 'ft',
    name,
    asset,
    code,
    clarityVersion,
    supply,
    mintPrice: 0,
    abi: abi({
      functions: [
        fn('burn', 'public', [['amount', U]], errU),
        fn('mint', 'public', [['amount', U], ['recipient', 'principal']], errU),
        fn('transfer', 'public', [['amount', U], ['sender', 'principal'], ['recipient', 'principal'], ['memo', { optional: { buffer: { length: 34 } } }]], errU),
        fn('get-balance', 'read_only', [['who', 'principal']], resp(U, 'none')),
        fn('get-decimals', 'read_only', [], resp(U, 'none')),
        fn('get-name', 'read_only', [], resp({ 'string-ascii': { length: title.length } }, 'none')),
        fn('get-symbol', 'read_only', [], resp({ 'string-ascii': { length: symbol.length } }, 'none')),
        fn('get-token-uri', 'read_only', [], resp(uri, 'none')),
        fn('get-total-supply', 'read_only', [], resp(U, 'none')),
      ],
      variables: [
        variable('contract-owner', 'principal', 'constant'),
        variable('err-not-token-owner', resp('none', U), 'constant'),
        variable('err-owner-only', resp('none', U), 'constant'),
        variable('token-uri', uri, 'variable'),
      ],
      fts: [asset],
      nfts: [],
      epoch,
      clarity: clarityVersion,
    }),
  };
}

export function nftContract(k: number, clarityVersion: number, epoch: string): ContractSpec {
  const word = WORDS[(k * 7) % WORDS.length];
  const name = `${word}-nft-${k}`;
  const asset = `${word}-nft`;
  const title = `${word[0].toUpperCase()}${word.slice(1)} Collection ${k}`;
  const mintPrice = 1_000_000 * (1 + (k % 5));
  const uri = `ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/${name}.json`;
  const code = `;; ${title}: a SIP-009 non-fungible token
(define-non-fungible-token ${asset} uint)

(define-constant contract-owner tx-sender)
(define-constant mint-price u${mintPrice})
(define-constant err-not-token-owner (err u101))

(define-data-var last-token-id uint u0)

(define-read-only (get-last-token-id) (ok (var-get last-token-id)))
(define-read-only (get-token-uri (id uint)) (ok (some "${uri}")))
(define-read-only (get-owner (id uint)) (ok (nft-get-owner? ${asset} id)))

(define-public (transfer (id uint) (sender principal) (recipient principal))
  (begin
    (asserts! (is-eq tx-sender sender) err-not-token-owner)
    (try! (nft-transfer? ${asset} id sender recipient))
    (print {action: "transfer", id: id, sender: sender, recipient: recipient})
    (ok true)))

(define-public (mint (recipient principal))
  (let ((id (+ (var-get last-token-id) u1)))
    (if (is-eq tx-sender contract-owner) true (try! (stx-transfer? mint-price tx-sender contract-owner)))
    (try! (nft-mint? ${asset} id recipient))
    (var-set last-token-id id)
    (print {action: "mint", id: id, recipient: recipient})
    (ok id)))

(define-public (burn (id uint))
  (begin
    (asserts! (is-eq (some tx-sender) (nft-get-owner? ${asset} id)) err-not-token-owner)
    (try! (nft-burn? ${asset} id tx-sender))
    (print {action: "burn", id: id, sender: tx-sender})
    (ok true)))
`;
  return {
    kind: 'nft',
    name,
    asset,
    code,
    clarityVersion,
    supply: 0n,
    mintPrice,
    abi: abi({
      functions: [
        fn('burn', 'public', [['id', U]], resp('bool', U)),
        fn('mint', 'public', [['recipient', 'principal']], resp(U, U)),
        fn('transfer', 'public', [['id', U], ['sender', 'principal'], ['recipient', 'principal']], resp('bool', U)),
        fn('get-last-token-id', 'read_only', [], resp(U, 'none')),
        fn('get-owner', 'read_only', [['id', U]], resp({ optional: 'principal' }, 'none')),
        fn('get-token-uri', 'read_only', [['id', U]], resp({ optional: { 'string-ascii': { length: uri.length } } }, 'none')),
      ],
      variables: [
        variable('contract-owner', 'principal', 'constant'),
        variable('err-not-token-owner', resp('none', U), 'constant'),
        variable('mint-price', U, 'constant'),
        variable('last-token-id', U, 'variable'),
      ],
      fts: [],
      nfts: [[asset, U]],
      epoch,
      clarity: clarityVersion,
    }),
  };
}

/** A deploy whose top-level expression fails at run time: abort_by_response, `(err none)`, no interface. */
export function failingContract(k: number): { name: string; code: string; vmError: string } {
  return {
    name: `lookup-table-${k}`,
    code: `;; lookup table ${k}
(define-constant items (list u1 u2 u3))
(define-read-only (get-item (i uint)) (element-at? items i))
(unwrap-panic (element-at? items u${7 + (k % 5)}))
`,
    vmError: 'Runtime(UnwrapFailure, Some([FunctionIdentifier { identifier: "_native_:native_unwrap" }]))',
  };
}

/** Execution cost of a deploy, roughly proportional to the code size as the node's are. */
export function deployCost(codeLength: number) {
  return { runtime: 2_000 * codeLength, read_count: 6, read_length: 1_200, write_count: 5, write_length: codeLength + 600 };
}
