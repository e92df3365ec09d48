// Which origins browsers may call the API from. `*` (the default, as the reference's CORS plugin)
// answers every origin alike; a list echoes a listed request origin (with `Vary: Origin`, so a
// shared cache keeps one answer per origin) and leaves other origins without the allow header.

/** Headers the reference exposes to scripts. */
const EXPOSED = 'X-API-Version';

export class CorsPolicy {
  private readonly any: Readonly<Record<string, string>>;
  private readonly listed: ReadonlySet<string>;

  constructor(readonly origins: '*' | readonly string[] = '*') {
    this.any = { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED };
    this.listed = new Set(origins === '*' ? [] : origins);
  }

  /** The headers an answer to a request from `origin` (the Origin header, '' when absent) carries. */
  headers(origin: string): Readonly<Record<string, string>> {
    if (this.origins === '*') return this.any;
    if (!this.listed.has(origin)) return { vary: 'Origin' };
    return { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED, vary: 'Origin' };
  }

  /** The allow-origin value of a preflight from `origin`, or undefined when it is not allowed. */
  allowOrigin(origin: string): string | undefined {
    if (this.origins === '*') return '*';
    return this.listed.has(origin) ? origin : undefined;
  }
}

/** The default policy: any origin. */
export const ANY_ORIGIN = new CorsPolicy('*');
