// /docs in a real browser: headless Chromium (Debian's `chromium`) opens the page, Scalar renders
// the OpenAPI document served by the same service (no other network), and the seed endpoint's
// section shows with its response fields. DOCS_SCREENSHOT=<file> also keeps a screenshot of it
// (docs/docs-page.png in the README is made so).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { startService } from '../../testing/service.ts';
import { chromiumBinary, openPage } from '../../testing/chromium.ts';

const SEED = '/extended/v1/address/{principal}/{tx_id}/with_transfers';
const binary = chromiumBinary();

test('/docs renders the seed endpoint and its response fields in headless Chromium', { skip: binary ? false : 'no chromium binary (apt-get install chromium)', timeout: 180_000 }, async () => {
  const svc = await startService();
  try {
    const page = await fetch(`${svc.apiUrl}/docs`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.equal((await fetch(`${svc.apiUrl}/docs/scalar.js`)).status, 200, 'the bundle is served from the installed package');

    const browser = await openPage(binary!, `${svc.apiUrl}/docs#tag/accounts/GET${SEED}`);
    try {
      // The operation's section: its path, summary, and the response's fields.
      const section = `[...document.querySelectorAll('section, [id]')].find((e) => e.id && e.id.endsWith('GET${SEED}'))`;
      await browser.waitFor(section);
      const heading = await browser.evaluate<string>(`${section}.innerText`);
      assert.match(heading, /Get account transaction information for specific transaction/);
      assert.match(heading, /Deprecated/, 'marked deprecated');
      // Open the 200 answer: its fields are listed with their types (not only the example).
      await browser.evaluate(`[...${section}.querySelectorAll('button')].find((b) => /^\\s*200\\b/.test(b.innerText) && b.innerText.includes('AddressTransactionWithTransfers')).click(), true`);
      await browser.waitFor(`${section}.innerText.includes('array of StxTransfer')`);
      const text = await browser.evaluate<string>(`${section}.innerText`);
      const responses = text.slice(text.indexOf('Responses'), text.indexOf('Request Example'));
      for (const [field, type] of [['tx', 'Transaction'], ['stx_sent', 'string'], ['stx_received', 'string'], ['stx_transfers', 'array of StxTransfer'], ['ft_transfers', 'array of FtTransfer']]) {
        assert.match(responses, new RegExp(`\\n${field}\\nType:\\n${type}\\n`), `response field ${field} (${type})`);
      }
      assert.ok(text.includes(`GET${SEED}`) || text.includes(SEED), 'the seed endpoint path is shown');
      const shot = process.env.DOCS_SCREENSHOT;
      if (shot) {
        await browser.evaluate(`(${section}).scrollIntoView(), true`);
        await new Promise((r) => setTimeout(r, 500));
        await browser.screenshot(resolve(shot));
      }
    } finally {
      await browser.close();
    }
  } finally {
    await svc.stop();
  }
});
