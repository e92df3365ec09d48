// Where the project is, and its shared data beside it: recorded node logs, the reference API's
// answers and the tools (`../shared`, or STACKS_SHARED_DIR). Tests and the OpenAPI-examples builder
// read them.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SHARED_DIR = process.env.STACKS_SHARED_DIR ? resolve(process.env.STACKS_SHARED_DIR) : resolve(PROJECT_ROOT, '..', 'shared');
