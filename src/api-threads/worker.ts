// Entry of an API thread: named before its modules load, so their loading counts as its CPU.
import { nameThread } from '../metrics/thread-name.ts';

nameThread('api');
await import('./thread-main.ts');
