// The token family (NFT holdings, history and mints; FT holders) against the reference's recorded
// answers. With tx_metadata the reference's holdings lose their order in a join (the same list
// without it is ordered, and ours is), so there the results are compared as a set.
import { testFamilyAgainstGoldens } from '../../testing/goldens.ts';

testFamilyAgainstGoldens('token routes', '^/extended/v1/tokens/', /\/tokens\/nft\/holdings\?.*tx_metadata=true/);
