// Structural check of an observer request body against the JSON Schema of its path
// (schemas/events/*.json). A body that fails is malformed input: answered 400 and kept, rejected.
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { describeAjvError } from '../http/route.ts';

const SCHEMA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'schemas', 'events');

export const OBSERVER_PATHS: Record<string, string> = {
  '/new_block': 'new_block',
  '/new_burn_block': 'new_burn_block',
  '/new_microblocks': 'new_microblocks',
  '/new_mempool_tx': 'new_mempool_tx',
  '/drop_mempool_tx': 'drop_mempool_tx',
  '/attachments/new': 'attachments_new',
  '/stackerdb_chunks': 'stackerdb_chunks',
  '/proposal_response': 'proposal_response',
};

const ajv = new Ajv({ allErrors: false, strict: false });
const validators = new Map<string, ValidateFunction>();

function validatorFor(path: string): ValidateFunction | undefined {
  const name = OBSERVER_PATHS[path];
  if (!name) return undefined;
  let v = validators.get(name);
  if (!v) {
    v = ajv.compile(JSON.parse(readFileSync(join(SCHEMA_DIR, `${name}.json`), 'utf8')));
    validators.set(name, v);
  }
  return v;
}

export class MalformedPayload extends Error {}

/** Parses and checks a body; throws MalformedPayload naming what is wrong. Unknown paths pass as-is. */
export function parsePayload(path: string, body: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (e) {
    throw new MalformedPayload(`body of ${path} is not valid JSON: ${(e as Error).message}`);
  }
  const v = validatorFor(path);
  if (v && !v(value)) throw new MalformedPayload(`body of ${path} does not match its schema: ${describeAjvError('body', v.errors)}`);
  return value;
}
