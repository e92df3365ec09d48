// Errors a handler throws to answer with a JSON error body instead of a 500.

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message ?? body.error ?? status));
  }
}

const REASON: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export const statusText = (status: number): string => REASON[status] ?? 'Error';

/** The reference API's error shape: {statusCode, error, message}, plus `code` for validation errors. */
export function httpError(status: number, message: string, extra: Record<string, unknown> = {}): HttpError {
  return new HttpError(status, { statusCode: status, error: statusText(status), message, ...extra });
}

export const notFound = (message: string): HttpError => httpError(404, message);

export const badRequest = (message: string): HttpError => httpError(400, message, { code: 'FST_ERR_VALIDATION' });
