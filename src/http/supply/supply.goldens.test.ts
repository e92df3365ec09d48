// The supply family (/extended/v1/stx_supply and its plain and legacy formats) against the
// reference's recorded answers.
import { testFamilyAgainstGoldens } from '../../testing/goldens.ts';

testFamilyAgainstGoldens('STX supply routes', '^/extended/v1/stx_supply');
