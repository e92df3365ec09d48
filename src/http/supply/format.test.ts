import { test } from 'node:test';
import assert from 'node:assert/strict';
import { microStxToStx, percent, withThousands } from './format.ts';

test('microSTX amounts print as the reference prints them', () => {
  assert.equal(microStxToStx(0n), '0.000000');
  assert.equal(microStxToStx(60005738842905579n), '60005738842.905579');
  assert.equal(microStxToStx(-10002700n), '-10.002700');
  assert.equal(withThousands('60005738842.905579'), '60,005,738,842.905579');
  assert.equal(withThousands('998.000000'), '998.000000');
  assert.equal(withThousands('-4000.000000'), '-4,000.000000');
  assert.equal(percent(5n, 5n), '100.00');
  assert.equal(percent(1n, 3n), '33.33');
  assert.equal(percent(2n, 3n), '66.67');
  assert.equal(percent(0n, 0n), 'NaN');
});
