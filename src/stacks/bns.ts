// The BNS boot contracts (mainnet, testnet): their prints are name and namespace operations.
export const BNS_CONTRACTS = new Set(['SP000000000000000000002Q6VF78.bns', 'ST000000000000000000002AMW42H.bns']);
