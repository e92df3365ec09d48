// A worker thread's entry when the process runs the TypeScript source (thread-entry.ts): registers
// tsx in this thread, then loads the module its argv names and re-exports its default (a piscina
// task function; thread entries that only run have none).
import { register } from 'tsx/esm/api';

register();
const module = await import(process.argv[process.argv.length - 1]);
export default module.default;
