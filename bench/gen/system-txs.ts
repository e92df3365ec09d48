// Transactions the chain itself carries: the boot block's genesis transfer (with every genesis
// balance as an stx_mint_event), epoch-2 coinbases, Nakamoto tenure changes and coinbases.
import type { Accounts } from './accounts.ts';
import { Cv } from '../../src/stacks/encode/clarity.ts';
import { stxMint, ZERO_COST, type GenTx } from './events.ts';
import { encodeTxWithId, AnchorMode, PostConditionMode, TenureChangeCause, type Payload, type UnsignedTx } from '../../src/stacks/encode/transaction.ts';
import type { Rng } from './rng.ts';

function systemTx(acc: Accounts, rng: Rng, mainnet: boolean, chainId: number, miner: number, payload: Payload, kind: string): GenTx {
  const unsigned: UnsignedTx = {
    mainnet,
    chainId,
    origin: acc.spend(miner, 0, rng),
    anchorMode: AnchorMode.OnChainOnly,
    postConditionMode: PostConditionMode.Deny,
    postConditions: [],
    payload,
  };
  const nonce = unsigned.origin.nonce;
  const enc = encodeTxWithId(unsigned);
  return { txid: enc.txid, raw: enc.raw, status: 'success', rawResult: '0x0703', cost: ZERO_COST, events: [], contractInterface: null, vmError: null, sender: miner, nonce, fee: 0, kind };
}

/**
 * The boot block's genesis receipt: a 0-STX transfer from the boot address to itself, chain id 0,
 * empty signature (as the node's boot receipts are), carrying the genesis balances as mint events.
 */
export function genesisTx(acc: Accounts, mainnet: boolean, balances: Array<[account: number, microStx: number]>): GenTx {
  const unsigned: UnsignedTx = {
    mainnet,
    chainId: 0,
    origin: { kind: 'single', hashMode: 0, signer: acc.boot.hash160, nonce: 0, fee: 0, signature: Buffer.alloc(65) },
    anchorMode: AnchorMode.Any,
    postConditionMode: PostConditionMode.Deny,
    postConditions: [],
    payload: { type: 'token_transfer', recipient: Cv.principal(acc.boot), amount: 0, memo: Buffer.alloc(34) },
  };
  const enc = encodeTxWithId(unsigned);
  return {
    txid: enc.txid,
    raw: enc.raw,
    status: 'success',
    rawResult: '0x0703',
    cost: ZERO_COST,
    events: balances.map(([i, amount]) => stxMint(acc.address(i), amount)),
    contractInterface: null,
    vmError: null,
    sender: -1,
    nonce: 0,
    fee: 0,
    kind: 'genesis',
  };
}

export interface ChainIds {
  mainnet: boolean;
  chainId: number;
}

/** Epoch-2 coinbase (0x04), or to an alternative recipient (0x05). */
export function coinbaseTx(acc: Accounts, rng: Rng, ids: ChainIds, miner: number, altRecipient: number | null): GenTx {
  const payload: Payload = { type: 'coinbase', buffer: rng.bytes(32), altRecipient: altRecipient === null ? undefined : Cv.principal(acc.addr(altRecipient)) };
  return systemTx(acc, rng, ids.mainnet, ids.chainId, miner, payload, 'coinbase');
}

/** Nakamoto coinbase (0x08) with an optional alternative recipient and an 80-byte VRF proof. */
export function nakamotoCoinbaseTx(acc: Accounts, rng: Rng, ids: ChainIds, miner: number, altRecipient: number | null): GenTx {
  const payload: Payload = {
    type: 'nakamoto_coinbase',
    buffer: Buffer.alloc(32),
    altRecipient: altRecipient === null ? null : Cv.principal(acc.addr(altRecipient)),
    vrfProof: rng.bytes(80),
  };
  return systemTx(acc, rng, ids.mainnet, ids.chainId, miner, payload, 'coinbase');
}

export interface TenureChangeFields {
  tenureConsensusHash: Buffer;
  prevTenureConsensusHash: Buffer;
  burnViewConsensusHash: Buffer;
  /** index_block_hash of the previous tenure's last block. */
  previousTenureEnd: Buffer;
  previousTenureBlocks: number;
  extend: boolean;
}

export function tenureChangeTx(acc: Accounts, rng: Rng, ids: ChainIds, miner: number, t: TenureChangeFields): GenTx {
  const payload: Payload = {
    type: 'tenure_change',
    tenureConsensusHash: t.tenureConsensusHash,
    prevTenureConsensusHash: t.prevTenureConsensusHash,
    burnViewConsensusHash: t.burnViewConsensusHash,
    previousTenureEnd: t.previousTenureEnd,
    previousTenureBlocks: t.previousTenureBlocks,
    cause: t.extend ? TenureChangeCause.Extended : TenureChangeCause.BlockFound,
    pubkeyHash: acc.minerKeyHash(miner),
  };
  return systemTx(acc, rng, ids.mainnet, ids.chainId, miner, payload, t.extend ? 'tenure-extend' : 'tenure-change');
}
