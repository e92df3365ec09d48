// The uWebSockets.js plumbing the API and the event observer share: making an app, listening
// (exclusively) and the CORS preflight.
import uWS, { type HttpRequest, type HttpResponse, type TemplatedApp, type us_listen_socket } from 'uWebSockets.js';
import { endWithoutBody, writeReply, type ResponseState } from './respond.ts';
import { ANY_ORIGIN, type CorsPolicy } from './cors.ts';

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
 *  a preflight. An origin the policy does not list gets the 204 without the allow headers (the
 *  browser then refuses the call). */
export function preflightHandler(cors: CorsPolicy = ANY_ORIGIN): (res: HttpResponse, req: HttpRequest) => void {
  return (res, req) => {
    const state: ResponseState = { aborted: false };
    const origin = req.getHeader('origin');
    const method = req.getHeader('access-control-request-method');
    const requested = req.getHeader('access-control-request-headers');
    if (!origin || !method) {
      writeReply(res, state, { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'Invalid Preflight Request' } }, cors.headers(origin));
      return;
    }
    const allow = cors.allowOrigin(origin);
    res.cork(() => {
      res.writeStatus('204 No Content');
      if (allow) {
        res.writeHeader('access-control-allow-origin', allow);
        res.writeHeader('access-control-allow-methods', 'GET,HEAD,PUT,PATCH,POST,DELETE');
        if (requested) res.writeHeader('access-control-allow-headers', requested);
        // Browsers may keep the answer a day (they cap it lower themselves).
        res.writeHeader('access-control-max-age', '86400');
      }
      res.writeHeader('vary', allow === '*' ? 'Access-Control-Request-Headers' : 'Origin, Access-Control-Request-Headers');
      endWithoutBody(res, 0);
    });
  };
}

/** The preflight with any origin allowed. */
export const answerPreflight = preflightHandler();

/** Listens on host:port; a port that is taken (or an address that cannot be bound) rejects with
 *  one line saying so. */
export function listen(app: TemplatedApp, host: string, port: number): Promise<Listening> {
  return listenWith(app, host, port, LISTEN_EXCLUSIVE_PORT);
}

/** Listens on a port other threads of this process listen on too (SO_REUSEPORT: the kernel spreads
 *  new connections over the sockets). The caller makes sure no other process holds the port first
 *  (reserveExclusively). */
export function listenShared(app: TemplatedApp, host: string, port: number): Promise<Listening> {
  return listenWith(app, host, port, 0);
}

/** Binds host:port exclusively and lets it go again: fails as `listen` does when another process
 *  holds the port. Resolves with the port bound (the one chosen, for port 0). */
export async function reserveExclusively(host: string, port: number): Promise<number> {
  const probe = uWS.App();
  const bound = await listen(probe, host, port);
  bound.close();
  closeApp(probe);
  return bound.port;
}

/** Times a port-0 reservation is made again when another process took its port meanwhile. */
const PORT_ZERO_ATTEMPTS = 5;

/** listenShared on a port reserved first (reserveExclusively). With port 0, another process's
 *  port-0 bind can take the chosen port between the reservation's release and the shared bind: a new
 *  port is reserved then. (The shared bind cannot itself ask for port 0: Linux lets no other socket
 *  join a port it chose, so the other threads could not.) */
export async function listenSharedReserved(app: TemplatedApp, host: string, configured: number, reserve = reserveExclusively): Promise<Listening> {
  for (let attempt = 1; ; attempt++) {
    const port = await reserve(host, configured);
    try {
      return await listenShared(app, host, port);
    } catch (e) {
      if (configured !== 0 || attempt === PORT_ZERO_ATTEMPTS) throw e;
    }
  }
}

/** Closes every socket of the app, its connections too (the binding has it; its typings do not). */
export function closeApp(app: TemplatedApp): void {
  (app as unknown as { close(): void }).close();
}

function listenWith(app: TemplatedApp, host: string, port: number, options: number): Promise<Listening> {
  return new Promise((resolve, reject) => {
    // The binding takes (host, port, options, cb); its typings only list (port, options, cb).
    const listenWith = app.listen as unknown as (h: string, p: number, o: number, cb: (s: us_listen_socket | false) => void) => void;
    listenWith.call(app, host, port, options, (socket) => {
      if (!socket) return reject(new Error(`cannot listen on ${host}:${port}: the port is in use or the address is not available`));
      resolve({ port: uWS.us_socket_local_port(socket), close: () => uWS.us_listen_socket_close(socket) });
    });
  });
}
