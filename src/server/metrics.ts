// GET/HEAD /metrics: the registry's series (and any text added to it, e.g. the node proxy's), or
// `text`: with several API threads, the process's series merged from every thread's.
import type { AppPlugin } from './server.ts';
import { writeReply } from './respond.ts';
import { METRICS_CONTENT_TYPE, metricsText } from '../metrics/registry.ts';

export function metricsPlugin(path = '/metrics', text: () => Promise<string> = metricsText): AppPlugin {
  return (app) => {
    const answer = (head: boolean) => (res: import('uWebSockets.js').HttpResponse) => {
      const state = { aborted: false, head };
      res.onAborted(() => {
        state.aborted = true;
      });
      text().then(
        (text) => writeReply(res, state, { status: 200, headers: { 'content-type': METRICS_CONTENT_TYPE }, body: text }),
        (err: unknown) => {
          console.error('metrics failed:', err);
          writeReply(res, state, { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'metrics failed' } });
        },
      );
    };
    app.get(path, answer(false));
    app.head(path, answer(true));
  };
}
