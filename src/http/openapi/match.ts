// Which documented path a concrete URL is: `/extended/v1/tx/0xab…` is `/extended/v1/tx/{tx_id}`.
// Where several match, the most specific wins (a literal segment before a parameter, as the
// router does): `/extended/v1/tx/mempool` is not `/extended/v1/tx/{tx_id}`. And whether an answer
// is as the document describes it.
import { Ajv, type ValidateFunction } from 'ajv';

interface Compiled {
  path: string;
  segments: string[];
}

export class PathMatcher {
  private readonly compiled: Compiled[];

  constructor(paths: Iterable<string>) {
    this.compiled = [...paths].map((path) => ({ path, segments: path.split('/') }));
  }

  /** The documented path of `url` (its query ignored), or undefined. */
  match(url: string): string | undefined {
    const parts = url.split('?')[0].split('/');
    let best: { path: string; rank: string } | undefined;
    for (const c of this.compiled) {
      if (c.segments.length !== parts.length) continue;
      let rank = '';
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const s = c.segments[i];
        if (s.startsWith('{') && s.endsWith('}')) {
          ok = parts[i].length > 0;
          rank += '1';
        } else {
          ok = s === parts[i];
          rank += '0';
        }
      }
      // Lower rank: literals earlier.
      if (ok && (!best || rank < best.rank)) best = { path: c.path, rank };
    }
    return best?.path;
  }
}

interface DocumentedOperation {
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/** Checks answers against the response schemas an OpenAPI document gives them (the 4XX schema
 *  for a client error without its own), compiled once per operation and status. */
export class DocumentedAnswers {
  private readonly ajv = new Ajv({ strict: false });
  private readonly compiled = new Map<string, ValidateFunction | null>();

  constructor(private readonly doc: { paths: Record<string, Record<string, unknown>>; components?: unknown }) {
    this.ajv.addSchema({ $id: 'doc', components: doc.components });
  }

  /** The check of `status` answers of `method path`, or null when the document has no schema for it. */
  validator(path: string, method: string, status: number): ValidateFunction | null {
    const key = `${method} ${path} ${status}`;
    if (!this.compiled.has(key)) {
      const op = this.doc.paths[path]?.[method] as DocumentedOperation | undefined;
      const resp = op?.responses[String(status)] ?? (status >= 400 && status < 500 ? op?.responses['4XX'] : undefined);
      const schema = resp?.content && Object.values(resp.content)[0]?.schema;
      // Component refs point into the document, registered above as `doc`.
      this.compiled.set(key, schema ? this.ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as object) : null);
    }
    return this.compiled.get(key)!;
  }

  errorsText(check: ValidateFunction): string {
    return this.ajv.errorsText(check.errors);
  }
}
