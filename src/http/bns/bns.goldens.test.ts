// The BNS routes (/v1/names, /v1/namespaces, /v1/addresses) against the reference's recorded answers.
import { testFamilyAgainstGoldens } from '../../testing/goldens.ts';

testFamilyAgainstGoldens('BNS routes', '^/v1/|^/v2/prices/');
