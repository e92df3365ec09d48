// The serving store's documents travel as MessagePack bytes: packed by the decode workers (off the
// main thread, which issues the writes) and stored as they are; unpacked when an answer reads them.
import { Packr } from 'msgpackr';

const packr = new Packr({ useRecords: false });

export const pack = (value: unknown): Buffer => packr.pack(value);
export const unpack = <T>(bytes: Uint8Array): T => packr.unpack(bytes) as T;
