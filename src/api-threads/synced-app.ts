// An API thread's app: every handler registered on it (routes, the proxy, /metrics, Socket.IO and
// the JSON-RPC WebSocket alike) first runs `before` — catching up with the main thread's commits
// (commit-follower.ts) — so nothing answered here is older than what the main thread has answered.
import type { TemplatedApp, WebSocketBehavior } from 'uWebSockets.js';

const HTTP_METHODS = ['get', 'post', 'options', 'del', 'patch', 'put', 'head', 'connect', 'trace', 'any'] as const;
const WS_HANDLERS = ['upgrade', 'open', 'message', 'close', 'drain', 'ping', 'pong'] as const;

type AnyHandler = (...args: unknown[]) => unknown;

export function syncedApp(app: TemplatedApp, before: () => void): TemplatedApp {
  const wrap =
    (handler: AnyHandler): AnyHandler =>
    (...args) => {
      before();
      return handler(...args);
    };
  const target = app as unknown as Record<string, AnyHandler>;
  for (const method of HTTP_METHODS) {
    const register = target[method].bind(app);
    target[method] = (pattern: unknown, handler: unknown) => {
      register(pattern, wrap(handler as AnyHandler));
      return app;
    };
  }
  const ws = target.ws.bind(app);
  target.ws = (pattern: unknown, behavior: unknown) => {
    const b = { ...(behavior as WebSocketBehavior<unknown>) } as Record<string, unknown>;
    for (const name of WS_HANDLERS) if (typeof b[name] === 'function') b[name] = wrap(b[name] as AnyHandler);
    ws(pattern, b);
    return app;
  };
  return app;
}
