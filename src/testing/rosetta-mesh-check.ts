// For tests: checks a Rosetta request or answer against the schemas its route declares (the Mesh
// objects of schemas/rosetta/mesh.json), as a list of problems (empty when it validates).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Ajv, type ValidateFunction } from 'ajv';
import { SHARED } from './service.ts';
import { describeAjvError } from '../server/schema-errors.ts';
import { rosettaRoutes } from '../http/rosetta/routes.ts';
import { meshSchema } from '../http/rosetta/schemas.ts';

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<string, ValidateFunction>();

function validator(key: string, schema: () => Record<string, unknown> | undefined): ValidateFunction {
  let v = compiled.get(key);
  if (!v) {
    const s = schema();
    if (!s) throw new Error(`no schema for ${key}`);
    compiled.set(key, (v = ajv.compile(s)));
  }
  return v;
}

const routeOf = (path: string) => {
  const r = rosettaRoutes.find((x) => x.path === path.replace(/\/$/, ''));
  if (!r) throw new Error(`no Rosetta route ${path}`);
  return r;
};

/** Problems of a request body for the route at `path`. */
export function requestProblems(path: string, body: unknown): string[] {
  const check = validator(`req ${path}`, () => routeOf(path).body);
  return check(body) ? [] : [describeAjvError(`${path} request`, check.errors)];
}

/** Problems of an answer: a 200 against the route's response object, any other status against the Mesh Error. */
export function responseProblems(path: string, status: number, body: unknown): string[] {
  const check = status === 200 ? validator(`res ${path}`, () => routeOf(path).responses?.[200]) : validator('error', () => meshSchema('RosettaError'));
  return check(body) ? [] : [describeAjvError(`${path} ${status} answer`, check.errors)];
}

/**
 * POSTs a Rosetta request, checking the request (unless it is sent invalid on purpose) and the
 * answer; returns status and body.
 */
export async function rosettaPost<T = Record<string, unknown>>(apiUrl: string, path: string, body: unknown, problems: string[], opts: { invalidRequest?: boolean } = {}): Promise<{ status: number; body: T }> {
  if (!opts.invalidRequest) problems.push(...requestProblems(path, body));
  const res = await fetch(apiUrl + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await res.json()) as T;
  problems.push(...responseProblems(path, res.status, answer));
  return { status: res.status, body: answer };
}

/** An operation and a transaction as tests read them from answers. */
export interface RosettaOp {
  type: string;
  account?: { address: string };
  amount?: { value: string };
  metadata?: Record<string, unknown>;
}
export interface RosettaTx {
  transaction_identifier: { hash: string };
  operations: RosettaOp[];
}

export interface RosettaGolden {
  url: string;
  status: number;
  request_body: unknown;
  body: unknown;
}

/** The reference's recorded /rosetta/v1 answers for a fixture. */
export function rosettaGoldens(fixture: string): RosettaGolden[] {
  const text = gunzipSync(readFileSync(join(SHARED, 'goldens', `${fixture}.jsonl.gz`))).toString('utf8');
  return text
    .split('\n')
    .filter((l) => l.includes('/rosetta/v1'))
    .map((l) => JSON.parse(l) as RosettaGolden);
}

/** The fixture's chain: the network the reference served ('mainnet' or 'testnet') and its chain id. */
export function fixtureNetwork(fixture: string): { network: string; chainId: string } {
  const list = rosettaGoldens(fixture).find((g) => g.url === '/rosetta/v1/network/list')?.body as { network_identifiers: Array<{ network: string }> } | undefined;
  const network = list?.network_identifiers[0].network ?? 'testnet';
  return { network, chainId: network === 'mainnet' ? '0x00000001' : '0x80000000' };
}
