// Writes the OpenAPI document (as /extended/v1/openapi.json serves it) to a file, for the client
// package's build (client/: `npm run build`) and anyone who wants it without a running service:
//   node --import tsx src/http/openapi/write.ts <file>
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { apiOpenApi } from '../routes.ts';

const file = process.argv[2];
if (!file) {
  console.error('usage: src/http/openapi/write.ts <file>');
  process.exit(2);
}
const doc = apiOpenApi();
writeFileSync(resolve(file), JSON.stringify(doc, null, 1) + '\n');
console.log(`${Object.keys(doc.paths as object).length} paths -> ${resolve(file)}`);
// Some route modules keep timers (caches); the document is written, so end here.
process.exit(0);
