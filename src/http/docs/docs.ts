// GET /docs: the API reference page, rendered in the browser by Scalar's standalone bundle from
// the OpenAPI document (/extended/v1/openapi.json). The bundle is served from the installed
// package (node_modules), so the page needs no network beyond this service; the default web
// fonts (fetched from Scalar's CDN) are switched off.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HttpResponse } from 'uWebSockets.js';
import type { AppPlugin } from '../../server/server.ts';
import { writeReply } from '../../server/respond.ts';
import { etagOf, ifNoneMatchHits } from '../conventions/etag.ts';

export const DOCS_PATH = '/docs';
export const OPENAPI_PATH = '/extended/v1/openapi.json';
const BUNDLE_PATH = '/docs/scalar.js';

/** Where the installed @scalar/api-reference keeps its browser bundle: looked up as Node looks up
 *  packages, in each node_modules from here up (the package's exports do not name the file). */
export function scalarBundleFile(): string | undefined {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'node_modules', '@scalar', 'api-reference', 'dist', 'browser', 'standalone.js');
    if (existsSync(file)) return file;
    if (dir === dirname(dir)) return undefined;
  }
}

const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Stacks Index API reference</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="${BUNDLE_PATH}"></script>
    <script>
      Scalar.createApiReference('#app', {
        url: '${OPENAPI_PATH}',
        withDefaultFonts: false,
        hideDownloadButton: false,
        telemetry: false,
        // Features that call Scalar's cloud.
        agent: { disabled: true },
        mcp: { disabled: true },
        defaultOpenAllTags: false,
        metaData: { title: 'Stacks Index API reference' },
      });
    </script>
  </body>
</html>
`;

interface Asset {
  body: string;
  etag: string;
  type: string;
}

/** Registers /docs (the page) and its bundle. Without the package installed /docs says so (503). */
export function docsPlugin(): AppPlugin {
  const html: Asset = { body: page, etag: etagOf(page), type: 'text/html; charset=utf-8' };
  let bundle: Asset | null | undefined;
  const loadBundle = (): Asset | null => {
    if (bundle !== undefined) return bundle;
    const file = scalarBundleFile();
    const body = file ? readFileSync(file, 'utf8') : null;
    return (bundle = body === null ? null : { body, etag: etagOf(body), type: 'text/javascript; charset=utf-8' });
  };
  const serve = (asset: () => Asset | null, head: boolean) => (res: HttpResponse, req: import('uWebSockets.js').HttpRequest) => {
    const state = { aborted: false, head };
    const a = asset();
    if (!a) {
      writeReply(res, state, { status: 503, body: { statusCode: 503, error: 'Service Unavailable', message: '@scalar/api-reference is not installed: the docs page cannot be served' } });
      return;
    }
    const headers = { 'content-type': a.type, etag: a.etag, 'cache-control': 'public, no-cache' };
    if (ifNoneMatchHits(req.getHeader('if-none-match'), a.etag)) {
      state.head = true;
      writeReply(res, state, { status: 304, headers, body: a.body });
    } else writeReply(res, state, { status: 200, headers, body: a.body });
  };
  return (app) => {
    for (const path of [DOCS_PATH, `${DOCS_PATH}/`]) {
      app.get(path, serve(() => html, false));
      app.head(path, serve(() => html, true));
    }
    app.get(BUNDLE_PATH, serve(loadBundle, false));
    app.head(BUNDLE_PATH, serve(loadBundle, true));
  };
}
