// The PoX family (v1 operations per PoX version, v2 reward cycles and signers) against the
// reference's recorded answers.
import { testFamilyAgainstGoldens } from '../../testing/goldens.ts';

testFamilyAgainstGoldens('PoX routes', '^/extended/v1/pox|^/extended/v2/pox/');
