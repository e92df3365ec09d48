// Contract calls on the generated SIP-010 / SIP-009 contracts, with the events, results and
// failures their source (contracts.ts) produces. Token ownership is tracked in a small ring per
// contract (recent receipts), so every transfer, burn and NFT move spends what the sender holds.
import { Cv, clarityHex, OK_TRUE_HEX, errUintHex, okUintHex, type ClarityValue } from '../../src/stacks/encode/clarity.ts';
import { contractPrint, ftBurn, ftMint, ftTransfer, nftBurn, nftMint, nftTransfer, stxTransfer, type Cost, type GenTx } from './events.ts';
import { FungibleCode, NonFungibleCode, type AssetInfo, type Payload, type PostCondition } from '../../src/stacks/encode/transaction.ts';
import { RING, type Era, type FtState, type NftState, type TxFactory } from './activity.ts';

function callCost(f: TxFactory, c: FtState | NftState, writes: number): Cost {
  const r = f.rng;
  return {
    runtime: r.range(150_000, 900_000),
    read_count: r.range(4, 9),
    read_length: c.spec.codeLength + r.range(50, 400),
    write_count: writes,
    write_length: writes * r.range(40, 160),
  };
}

function callPayload(f: TxFactory, c: FtState | NftState, functionName: string, args: ClarityValue[]): Payload {
  return { type: 'contract_call', address: f.acc.addr(c.deployer), contractName: c.spec.name, functionName, args };
}

/** A deployed contract of `kind`, biased towards the early (popular) ones. */
function pickContract<K extends 'ft' | 'nft'>(f: TxFactory, kind: K): (K extends 'ft' ? FtState : NftState) | null {
  const list = f.contracts;
  for (let t = 0; t < 8; t++) {
    const c = list[Math.floor(list.length * Math.pow(f.rng.float(), 3))];
    if (c.kind === kind) return c as never;
  }
  return null;
}

function asset(f: TxFactory, c: FtState | NftState): AssetInfo {
  return { address: f.acc.addr(c.deployer), contractName: c.spec.name, assetName: c.spec.asset };
}

function remember(ring: { cursor: number }, a: number[], b: number[], x: number, y: number): void {
  if (a.length < RING) {
    a.push(x);
    b.push(y);
    return;
  }
  a[ring.cursor] = x;
  b[ring.cursor] = y;
  ring.cursor = (ring.cursor + 1) % RING;
}

/** Sponsored when asked for, or when the origin cannot pay the fee itself. */
const sponsorIf = (f: TxFactory, sender: number, fee: number) => f.rng.chance(f.opts.mix.sponsored) || !f.canPay(sender, fee);

export function ftCall(f: TxFactory, era: Era): GenTx | null {
  const c = pickContract(f, 'ft');
  if (!c) return null;
  const acc = f.acc;
  const rng = f.rng;
  const fee = f.fee(1_000, 200_000);
  const op = rng.weighted([0.78, 0.07, 0.05, 0.06, 0.04]);

  if (op === 1) {
    // mint: only the deployer may
    const amount = rng.logUniform(1_000_000, 1_000_000_000_000);
    const to = f.otherUser(c.deployer);
    const b = f.build(era, c.deployer, fee, callPayload(f, c, 'mint', [Cv.uint(amount), f.principal(to)]), { sponsored: sponsorIf(f, c.deployer, fee) });
    remember(c, c.holders, c.amounts, to, amount);
    return f.finish(b, c.deployer, fee, 'ft-mint', {
      result: OK_TRUE_HEX,
      cost: callCost(f, c, 3),
      events: [
        ftMint(c.assetId, acc.address(to), amount),
        contractPrint(c.contractId, clarityHex(Cv.tuple({ action: Cv.ascii('mint'), amount: Cv.uint(amount), recipient: f.principal(to) }))),
      ],
    });
  }
  if (op === 3) {
    // a call the contract refuses: transfer on someone else's behalf (err u101) or mint by a non-owner
    // (err u100). Half the refused transfers carry the wallet's "owner sends = amount" post-condition,
    // which then fails too (nothing moved): abort_by_post_condition with the (err …) result.
    const caller = f.payer(fee);
    const onBehalf = rng.chance(0.5) || caller === c.deployer;
    const other = f.otherUser(caller);
    const amount = rng.logUniform(1, 1_000_000);
    const payload = onBehalf
      ? callPayload(f, c, 'transfer', [Cv.uint(amount), f.principal(other), f.principal(caller), Cv.none()])
      : callPayload(f, c, 'mint', [Cv.uint(amount), f.principal(caller)]);
    const withPc = onBehalf && rng.chance(0.5);
    const pcs: PostCondition[] = withPc ? [{ type: 'ft', principal: { type: 'standard', address: acc.addr(other) }, asset: asset(f, c), code: FungibleCode.SentEq, amount }] : [];
    const b = f.build(era, caller, fee, payload, { deny: withPc, postConditions: pcs });
    return f.finish(b, caller, fee, withPc ? 'ft-refused-pc-abort' : 'ft-refused', {
      status: withPc ? 'abort_by_post_condition' : 'abort_by_response',
      result: errUintHex(onBehalf ? 101 : 100),
      cost: callCost(f, c, 0),
      vmError: withPc ? `Post-condition check failure on fungible asset ${c.assetId} owned by ${acc.address(other)}: 0 SentEq ${amount}` : null,
    });
  }

  // transfer (op 0), burn (op 2) or a transfer aborted by its post-condition (op 4): spend a holding
  let slot = -1;
  for (let t = 0; t < 4 && c.holders.length > 0; t++) {
    const s = rng.int(c.holders.length);
    if (c.amounts[s] > 0) {
      slot = s;
      break;
    }
  }
  if (slot < 0 && (op === 2 || c.treasury < 1)) return null;
  if (slot >= 0 && op === 0 && rng.chance(0.3) && c.treasury >= 1) slot = -1; // distribution from the treasury
  const holder = slot < 0 ? c.deployer : c.holders[slot];
  const have = slot < 0 ? Math.min(c.treasury, 1_000_000_000_000) : c.amounts[slot];
  const amount = Math.max(1, Math.floor(have * Math.pow(rng.float(), 2)));
  const spend = (n: number) => {
    if (slot < 0) c.treasury -= n;
    else c.amounts[slot] -= n;
  };
  const sponsored = sponsorIf(f, holder, fee);
  const info = asset(f, c);
  const holderPc = rng.chance(0.5) ? ({ type: 'origin' } as const) : ({ type: 'standard', address: acc.addr(holder) } as const);

  if (op === 2) {
    const b = f.build(era, holder, fee, callPayload(f, c, 'burn', [Cv.uint(amount)]), { sponsored, deny: true, postConditions: [{ type: 'ft', principal: holderPc, asset: info, code: FungibleCode.SentEq, amount }] });
    spend(amount);
    return f.finish(b, holder, fee, 'ft-burn', {
      result: OK_TRUE_HEX,
      cost: callCost(f, c, 2),
      events: [
        ftBurn(c.assetId, acc.address(holder), amount),
        contractPrint(c.contractId, clarityHex(Cv.tuple({ action: Cv.ascii('burn'), amount: Cv.uint(amount), sender: f.principal(holder) }))),
      ],
    });
  }

  const to = f.otherUser(holder);
  const memo = rng.chance(0.2) ? Cv.some(Cv.buffer(Buffer.from(`ref-${rng.int(1_000_000)}`))) : Cv.none();
  const args = [Cv.uint(amount), f.principal(holder), f.principal(to), memo];
  if (op === 4 && amount >= 2) {
    // the wallet's post-condition says fewer tokens leave than the call moves: aborted, nothing changes
    const pcs: PostCondition[] = [{ type: 'ft', principal: holderPc, asset: info, code: FungibleCode.SentLe, amount: amount - 1 }];
    const b = f.build(era, holder, fee, callPayload(f, c, 'transfer', args), { sponsored, deny: true, postConditions: pcs });
    return f.finish(b, holder, fee, 'ft-pc-abort', {
      status: 'abort_by_post_condition',
      result: OK_TRUE_HEX,
      cost: callCost(f, c, 0),
      vmError: `Post-condition check failure on fungible asset ${c.assetId} owned by ${acc.address(holder)}: ${amount} SentLe ${amount - 1}`,
    });
  }
  const withPc = rng.chance(0.6);
  const pcs: PostCondition[] = withPc ? [{ type: 'ft', principal: holderPc, asset: info, code: FungibleCode.SentEq, amount }] : [];
  const b = f.build(era, holder, fee, callPayload(f, c, 'transfer', args), { sponsored, deny: withPc, postConditions: pcs });
  spend(amount);
  remember(c, c.holders, c.amounts, to, amount);
  return f.finish(b, holder, fee, 'ft-transfer', {
    result: OK_TRUE_HEX,
    cost: callCost(f, c, 2),
    events: [
      ftTransfer(c.assetId, acc.address(holder), acc.address(to), amount),
      contractPrint(c.contractId, clarityHex(Cv.tuple({ action: Cv.ascii('transfer'), amount: Cv.uint(amount), sender: f.principal(holder), recipient: f.principal(to), memo }))),
    ],
  });
}

export function nftCall(f: TxFactory, era: Era): GenTx | null {
  const c = pickContract(f, 'nft');
  if (!c) return null;
  const acc = f.acc;
  const rng = f.rng;
  const fee = f.fee(1_000, 200_000);
  let op = rng.weighted([0.45, 0.4, 0.04, 0.06, 0.05]);
  if (op !== 0 && op !== 3 && c.ids.length === 0) op = 0;

  if (op === 0) {
    // mint: a non-deployer pays the mint price to the deployer
    const sponsoredWish = rng.chance(f.opts.mix.sponsored);
    const minter = f.payer(c.spec.mintPrice + (sponsoredWish ? 0 : fee));
    const pays = minter !== c.deployer;
    const price = pays ? c.spec.mintPrice : 0;
    const to = rng.chance(0.8) ? minter : f.otherUser(minter);
    const id = c.lastId + 1;
    const withPc = pays && rng.chance(0.5);
    const pcs: PostCondition[] = withPc ? [{ type: 'stx', principal: { type: 'origin' }, code: FungibleCode.SentLe, amount: price }] : [];
    const b = f.build(era, minter, fee, callPayload(f, c, 'mint', [f.principal(to)]), { sponsored: sponsoredWish, deny: withPc, postConditions: pcs });
    c.lastId = id;
    acc.balance[minter] -= price;
    acc.balance[c.deployer] += price;
    remember(c, c.ids, c.owners, id, to);
    const events = [];
    if (pays) events.push(stxTransfer(acc.address(minter), acc.address(c.deployer), price, ''));
    events.push(nftMint(c.assetId, acc.address(to), clarityHex(Cv.uint(id))));
    events.push(contractPrint(c.contractId, clarityHex(Cv.tuple({ action: Cv.ascii('mint'), id: Cv.uint(id), recipient: f.principal(to) }))));
    return f.finish(b, minter, fee, 'nft-mint', { result: okUintHex(id), cost: callCost(f, c, pays ? 4 : 3), events });
  }
  if (op === 3) {
    // transfer of a token that does not exist: nft-transfer? returns (err u3); with an "NFT is sent"
    // post-condition (half the time) that fails too: abort_by_post_condition with the (err …) result
    const caller = f.payer(fee);
    const id = Cv.uint(c.lastId + 1 + rng.int(100));
    const withPc = rng.chance(0.5);
    const pcs: PostCondition[] = withPc ? [{ type: 'nft', principal: { type: 'origin' }, asset: asset(f, c), value: id, code: NonFungibleCode.Sent }] : [];
    const b = f.build(era, caller, fee, callPayload(f, c, 'transfer', [id, f.principal(caller), f.principal(f.otherUser(caller))]), { deny: withPc, postConditions: pcs });
    return f.finish(b, caller, fee, withPc ? 'nft-refused-pc-abort' : 'nft-refused', {
      status: withPc ? 'abort_by_post_condition' : 'abort_by_response',
      result: errUintHex(3),
      cost: callCost(f, c, 0),
      vmError: withPc ? `Post-condition check failure on non-fungible asset ${c.assetId} owned by ${acc.address(caller)}: ${clarityHex(id)} Sent` : null,
    });
  }

  const slot = rng.int(c.ids.length);
  const id = c.ids[slot];
  const owner = c.owners[slot];
  const idCv = Cv.uint(id);
  const rawId = clarityHex(idCv);
  const info = asset(f, c);
  const sponsored = sponsorIf(f, owner, fee);
  if (op === 2) {
    const b = f.build(era, owner, fee, callPayload(f, c, 'burn', [idCv]), { sponsored, deny: true, postConditions: [{ type: 'nft', principal: { type: 'origin' }, asset: info, value: idCv, code: NonFungibleCode.Sent }] });
    // forget the token
    const last = c.ids.length - 1;
    c.ids[slot] = c.ids[last];
    c.owners[slot] = c.owners[last];
    c.ids.pop();
    c.owners.pop();
    c.cursor = 0;
    return f.finish(b, owner, fee, 'nft-burn', {
      result: OK_TRUE_HEX,
      cost: callCost(f, c, 2),
      events: [nftBurn(c.assetId, acc.address(owner), rawId), contractPrint(c.contractId, clarityHex(Cv.tuple({ action: Cv.ascii('burn'), id: idCv, sender: f.principal(owner) })))],
    });
  }
  const to = f.otherUser(owner);
  const args = [idCv, f.principal(owner), f.principal(to)];
  if (op === 4) {
    // the post-condition says the token stays: aborted, nothing changes
    const pcs: PostCondition[] = [{ type: 'nft', principal: { type: 'origin' }, asset: info, value: idCv, code: NonFungibleCode.NotSent }];
    const b = f.build(era, owner, fee, callPayload(f, c, 'transfer', args), { sponsored, deny: true, postConditions: pcs });
    return f.finish(b, owner, fee, 'nft-pc-abort', {
      status: 'abort_by_post_condition',
      result: OK_TRUE_HEX,
      cost: callCost(f, c, 0),
      vmError: `Post-condition check failure on non-fungible asset ${c.assetId} owned by ${acc.address(owner)}: ${rawId} NotSent`,
    });
  }
  const withPc = rng.chance(0.6);
  const pcs: PostCondition[] = withPc ? [{ type: 'nft', principal: { type: 'standard', address: acc.addr(owner) }, asset: info, value: idCv, code: NonFungibleCode.Sent }] : [];
  const b = f.build(era, owner, fee, callPayload(f, c, 'transfer', args), { sponsored, deny: withPc, postConditions: pcs });
  c.owners[slot] = to;
  return f.finish(b, owner, fee, 'nft-transfer', {
    result: OK_TRUE_HEX,
    cost: callCost(f, c, 2),
    events: [
      nftTransfer(c.assetId, acc.address(owner), acc.address(to), rawId),
      contractPrint(c.contractId, clarityHex(Cv.tuple({ action: Cv.ascii('transfer'), id: idCv, sender: f.principal(owner), recipient: f.principal(to) }))),
    ],
  });
}
