// Structural check of an observer request body against the JSON Schema of its path
// (schemas/events/*.json, sharing common.json): types, every integer within its column's range,
// hex fields of their length. A body that fails is malformed input: answered 400 and kept, rejected.
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { describeAjvError } from '../server/schema-errors.ts';
import { withinDepth } from './json-depth.ts';

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

const readSchema = (name: string) => JSON.parse(readFileSync(join(SCHEMA_DIR, `${name}.json`), 'utf8')) as Record<string, unknown>;

let ajv: Ajv | undefined;
const validators = new Map<string, ValidateFunction>();

function validatorFor(path: string): ValidateFunction | undefined {
  const name = OBSERVER_PATHS[path];
  if (!name) return undefined;
  let v = validators.get(name);
  if (!v) {
    ajv ??= newAjv();
    v = ajv.compile(readSchema(name));
    validators.set(name, v);
  }
  return v;
}

/** The schemas' own keyword `maxDepth`: how deeply a free-form part (one the decoder stores by
 *  re-serializing it, a recursive step) may nest. Checked without recursion, so a body nested 100k
 *  deep is refused the same way on every thread instead of overflowing some thread's stack. */
function newAjv(): Ajv {
  const a = new Ajv({ allErrors: false, strict: false, schemas: [readSchema('common')] });
  const maxDepth = Object.assign(
    (limit: number, data: unknown): boolean => {
      if (withinDepth(data, limit)) return true;
      maxDepth.errors = [{ keyword: 'maxDepth', message: `must not nest deeper than ${limit} levels`, params: { limit } }];
      return false;
    },
    { errors: null as Array<Record<string, unknown>> | null },
  );
  a.addKeyword({ keyword: 'maxDepth', schemaType: 'number', validate: maxDepth as never });
  return a;
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
