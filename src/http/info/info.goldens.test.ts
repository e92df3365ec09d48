// The info family (fee rate, network block times) against the reference's recorded answers.
import { testFamilyAgainstGoldens } from '../../testing/goldens.ts';

testFamilyAgainstGoldens('fee rate and network block times', '^/extended/v1/(fee_rate|info/|faucets)');
