// The burnchain family (PoX rewards and reward slot holders) against the reference's recorded answers.
import { testFamilyAgainstGoldens } from '../../testing/goldens.ts';

testFamilyAgainstGoldens('burnchain reward routes', '^/extended/v1/burnchain/');
