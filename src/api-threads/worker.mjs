// Worker entry for an API thread: registers tsx so the TypeScript modules load here too.
import { register } from 'tsx/esm/api';

register();
(await import('../metrics/thread-name.ts')).nameThread('api');
await import('./thread-main.ts');
