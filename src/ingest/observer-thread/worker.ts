// Entry of the observer thread: named before its modules load, so their loading counts as its CPU.
import { nameThread } from '../../metrics/thread-name.ts';

nameThread('observer');
await import('./thread-main.ts');
