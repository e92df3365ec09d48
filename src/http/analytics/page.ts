// GET /analytics: the dashboard page, its script and style, and the chart library (uPlot from
// node_modules), all served by this service: the page needs no other network access.
import { readFileSync } from 'node:fs';
import type { RouteDef } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { notFound } from '../errors.ts';

// From the source tree, whether this module runs there or compiled in build/ (same depth).
const PAGE_DIR = new URL('../../../src/http/analytics/page/', import.meta.url);
const UPLOT_DIR = new URL('../../../node_modules/uplot/dist/', import.meta.url);

const ASSETS: Array<{ path: string; file: URL; type: string }> = [
  { path: '/analytics', file: new URL('index.html', PAGE_DIR), type: 'text/html; charset=utf-8' },
  { path: '/analytics/dashboard.js', file: new URL('dashboard.js', PAGE_DIR), type: 'text/javascript; charset=utf-8' },
  { path: '/analytics/dashboard.css', file: new URL('dashboard.css', PAGE_DIR), type: 'text/css; charset=utf-8' },
  { path: '/analytics/uplot.js', file: new URL('uPlot.iife.min.js', UPLOT_DIR), type: 'text/javascript; charset=utf-8' },
  { path: '/analytics/uplot.css', file: new URL('uPlot.min.css', UPLOT_DIR), type: 'text/css; charset=utf-8' },
];

const loaded = new Map<string, string>();

function content(file: URL): string {
  let text = loaded.get(file.href);
  if (text === undefined) {
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      throw notFound(`${file.pathname.split('/').pop()} is not installed on this server`);
    }
    loaded.set(file.href, text);
  }
  return text;
}

export const analyticsPageRoutes: RouteDef<ApiContext>[] = ASSETS.map((a) => ({
  method: 'get',
  path: a.path,
  summary: a.path === '/analytics' ? 'The analytics dashboard (HTML)' : `Dashboard asset: ${a.path.slice('/analytics/'.length)}`,
  tags: ['Analytics'],
  responses: { 200: { type: 'string', description: a.type } },
  cache: false,
  handler: async () => ({ status: 200, headers: { 'content-type': a.type, 'cache-control': 'public, max-age=300' }, body: content(a.file) }),
}));
