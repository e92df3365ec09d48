// Which file a worker thread runs for one of our modules. The service runs compiled (`npm run
// build` emits build/, which `npm start` and the tests' service run): there the module's .js is the
// entry. Tests, benches and commands run the TypeScript source under tsx, whose loader a new thread
// does not inherit: there the thread runs a bootstrap that registers tsx and then imports the
// module (named in its argv).
import { fileURLToPath } from 'node:url';

/** True when this process runs the TypeScript source (under tsx), not build/. */
const RUNNING_SOURCE = import.meta.url.endsWith('.ts');

const BOOTSTRAP = new URL('./tsx-thread.mjs', import.meta.url);

export interface ThreadEntry {
  /** The file to give Worker (or piscina's `filename`). */
  filename: string;
  /** Arguments the thread must get (Worker's and piscina's `argv` option). */
  argv: string[];
}

/** The entry of a thread that runs `module`, given as the URL of its TypeScript source beside the
 *  caller (`new URL('./worker.ts', import.meta.url)`); compiled, the URL names the .js beside it. */
export function threadEntry(module: URL): ThreadEntry {
  if (!RUNNING_SOURCE) return { filename: fileURLToPath(module).replace(/\.ts$/, '.js'), argv: [] };
  return { filename: fileURLToPath(BOOTSTRAP), argv: [module.href] };
}
