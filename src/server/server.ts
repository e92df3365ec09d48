// The uWebSockets.js plumbing the API and the event observer share: making an app, listening
// (exclusively) and the CORS preflight.
import uWS, { type HttpRequest, type HttpResponse, type TemplatedApp, type us_listen_socket } from 'uWebSockets.js';
import { CORS_HEADERS, endWithoutBody, writeReply, type ResponseState } from './respond.ts';

export interface Listening {
  port: number;
  close(): void;
}

/** Extra registration for families that are not plain JSON routes (e.g. the node proxy). */
export type AppPlugin = (app: TemplatedApp) => void;

/** uWS's listen option: fail when another socket holds the port (its default, SO_REUSEPORT, lets
 *  a second copy share the port and the kernel split requests between the two). */
const LISTEN_EXCLUSIVE_PORT = 1;

/** A uWS app. Every response of this thread's loop goes without uWS's `uWebSockets: 20` header
 *  (`_cfg('silent')`, the binding's switch for it, is per event loop). */
export function newApp(): TemplatedApp {
  (uWS as unknown as { _cfg(key: string): void })._cfg('silent');
  return uWS.App();
}

/** The reference's CORS preflight (@fastify/cors defaults, strict): 204 with the allowed methods
 *  and the requested headers; an OPTIONS without Origin and Access-Control-Request-Method is not
 *  a preflight. */
export function answerPreflight(res: HttpResponse, req: HttpRequest): void {
  const state: ResponseState = { aborted: false };
  const origin = req.getHeader('origin');
  const method = req.getHeader('access-control-request-method');
  const requested = req.getHeader('access-control-request-headers');
  if (!origin || !method) {
    writeReply(res, state, { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'Invalid Preflight Request' } }, CORS_HEADERS);
    return;
  }
  res.cork(() => {
    res.writeStatus('204 No Content');
    res.writeHeader('access-control-allow-origin', '*');
    res.writeHeader('access-control-allow-methods', 'GET,HEAD,PUT,PATCH,POST,DELETE');
    if (requested) res.writeHeader('access-control-allow-headers', requested);
    res.writeHeader('vary', 'Access-Control-Request-Headers');
    endWithoutBody(res, 0);
  });
}

/** Listens on host:port; a port that is taken (or an address that cannot be bound) rejects with
 *  one line saying so. */
export function listen(app: TemplatedApp, host: string, port: number): Promise<Listening> {
  return new Promise((resolve, reject) => {
    // The binding takes (host, port, options, cb); its typings only list (port, options, cb).
    const listenWith = app.listen as unknown as (h: string, p: number, o: number, cb: (s: us_listen_socket | false) => void) => void;
    listenWith.call(app, host, port, LISTEN_EXCLUSIVE_PORT, (socket) => {
      if (!socket) return reject(new Error(`cannot listen on ${host}:${port}: the port is in use or the address is not available`));
      resolve({ port: uWS.us_socket_local_port(socket), close: () => uWS.us_listen_socket_close(socket) });
    });
  });
}
