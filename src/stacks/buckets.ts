// Time buckets of the analytics aggregates: an hour and a day (UTC, by the block's time: its header
// time, or the burn block's for epoch 2.x) and a PoX reward cycle (by the block's burn height).
// Shared by the processor, which writes the buckets, and the analytics queries, which read them.

export type Unit = 'hour' | 'day' | 'cycle';

/** PoX reward cycle geometry: mainnet's, and the regtest / testnet networks' (first burn height 0). */
export const POX_PARAMS = {
  mainnet: { firstBurnHeight: 666050, cycleLength: 2100 },
  testnet: { firstBurnHeight: 0, cycleLength: 20 },
} as const;

export type Network = keyof typeof POX_PARAMS;

export function cycleOf(burnHeight: number, network: Network): number {
  const p = POX_PARAMS[network];
  return burnHeight < p.firstBurnHeight ? 0 : Math.floor((burnHeight - p.firstBurnHeight) / p.cycleLength);
}

/** The first burn height of a cycle. */
export function cycleStart(cycle: number, network: Network): number {
  const p = POX_PARAMS[network];
  return p.firstBurnHeight + cycle * p.cycleLength;
}

export function bucketOf(unit: Unit, blockTime: number, burnHeight: number, network: Network): number {
  if (unit === 'hour') return blockTime - (blockTime % 3600);
  if (unit === 'day') return blockTime - (blockTime % 86400);
  return cycleOf(burnHeight, network);
}

/** Principals' version prefix tells the network: SP / SM mainnet, ST / SN testnet. */
export function networkOfPrincipal(principal: string): Network | undefined {
  if (/^S[PM]/.test(principal)) return 'mainnet';
  if (/^S[TN]/.test(principal)) return 'testnet';
  return undefined;
}

/** The chain-wide series' kinds, kept by hour too; the others by day and cycle only. */
const CHAIN_KINDS = new Set(['tx', 'ptx', 'deploy', 'stx_xfer', 'block']);
export const isChainKind = (kind: string): boolean => CHAIN_KINDS.has(kind);
