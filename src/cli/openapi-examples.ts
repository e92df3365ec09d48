// Writes schemas/api/examples.json from the reference's recorded answers (src/http/openapi/examples.ts).
// Run after adding routes: node --import tsx src/cli/openapi-examples.ts [goldens dir]
// (default: the goldens in ../shared beside the project, or in STACKS_SHARED_DIR).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHARED_DIR } from '../config/shared-dir.ts';
import { apiOpenApi } from '../http/routes.ts';
import { collectExamples, readGoldens } from '../http/openapi/examples.ts';

const dir = process.argv[2] ?? join(SHARED_DIR, 'goldens');
const doc = apiOpenApi() as { paths: Record<string, Record<string, unknown>> };
const table = collectExamples(readGoldens(dir), doc.paths);
const out = new URL('../../schemas/api/examples.json', import.meta.url);
writeFileSync(out, JSON.stringify(table, null, 1) + '\n');
console.log(`${Object.keys(table).length} operations with examples -> ${fileURLToPath(out)}`);
