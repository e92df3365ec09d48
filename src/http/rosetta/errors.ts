// Rosetta error answers: the Mesh Error object {code, message, retriable, details?}, thrown by
// handlers as an HttpError so the route layer writes it with its status.
import { HttpError } from '../errors.ts';
import { ERRORS, type ErrorName } from './constants.ts';

/** A Rosetta error from the reference's table; `details` explains this instance. */
export function rosettaError(name: ErrorName, details?: string | Record<string, unknown>, status = 400): HttpError {
  const body: Record<string, unknown> = { ...ERRORS[name] };
  if (details !== undefined) body.details = typeof details === 'string' ? { message: details } : details;
  return new HttpError(status, body);
}

/** A node the construction endpoints needed did not answer usefully (retriable: try again). */
export function nodeUnavailable(message: string, status = 503): HttpError {
  return new HttpError(status, { ...ERRORS.unknownError, retriable: true, details: { message } });
}
