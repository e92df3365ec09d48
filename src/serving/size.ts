// Bytes a directory's files take (the serving store's size in reports).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function dirBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? dirBytes(p) : statSync(p).blocks * 512;
  }
  return n;
}
