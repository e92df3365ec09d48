// Errors a handler throws to answer with a JSON error body instead of a 500.
import { statusText } from '../server/respond.ts';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message ?? body.error ?? status));
  }
}

/** The standard reason phrase of a status code (`200 OK`, `301 Moved Permanently`, …). */
export { statusText };

/** The reference API's error shape: {statusCode, error, message}, plus `code` for validation errors. */
export function httpError(status: number, message: string, extra: Record<string, unknown> = {}): HttpError {
  return new HttpError(status, { statusCode: status, error: statusText(status), message, ...extra });
}

export const notFound = (message: string): HttpError => httpError(404, message);

export const badRequest = (message: string): HttpError => httpError(400, message, { code: 'FST_ERR_VALIDATION' });
