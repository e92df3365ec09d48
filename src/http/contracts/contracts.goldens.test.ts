// The contract family (/extended/v1/contract/*, /extended/v2/smart-contracts/status) against the
// reference's recorded answers.
import { testFamilyAgainstGoldens } from '../../testing/goldens.ts';

testFamilyAgainstGoldens('contract routes', '^/extended/v1/contract/|^/extended/v2/smart-contracts/');
