// The token family (NFT holdings, history and mints; FT holders) against the reference's
// recorded answers, checked by ../goldens.test.ts.
// With tx_metadata the reference's holdings lose their order in a join (the same list without it
// is ordered, and ours is), so there the results are compared as a set.
import type { GoldenFamily } from '../../testing/goldens.ts';

export const tokensGoldenFamily: GoldenFamily = {
  name: 'token routes',
  routes: /^\/extended\/v1\/tokens\//,
  unorderedResults: /\/tokens\/nft\/holdings\?.*tx_metadata=true/,
};
