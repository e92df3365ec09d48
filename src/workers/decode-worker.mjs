// Piscina worker entry: registers tsx so the TypeScript decoder loads in the worker thread.
import { register } from 'tsx/esm/api';

register();
const { decodeEvent } = await import('./decode-event.ts');

export default decodeEvent;
