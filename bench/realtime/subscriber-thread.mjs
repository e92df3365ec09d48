// Worker entry of the soak bench's subscribers: registers tsx so the TypeScript module loads here.
import { register } from 'tsx/esm/api';

register();
await import('./subscriber-thread.ts');
