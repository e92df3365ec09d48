// The block families (v1 /block, v2 /blocks, /burn-blocks, /block-tenures) against the reference's
// recorded answers, checked by ../goldens.test.ts.
import type { GoldenFamily } from '../../testing/goldens.ts';

export const blocksGoldenFamily: GoldenFamily = {
  name: 'block families',
  routes: /^\/extended\/v1\/block|^\/extended\/v2\/(burn-blocks|block-tenures|blocks(\?|$|\/[^/]+$|\/[^/]+\/signer-signatures|\/average-times))/,
};
