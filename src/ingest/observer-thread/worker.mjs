// Worker entry for the observer thread: registers tsx so the TypeScript modules load here too.
import { register } from 'tsx/esm/api';

register();
(await import('../../metrics/thread-name.ts')).nameThread('observer');
await import('./thread-main.ts');
