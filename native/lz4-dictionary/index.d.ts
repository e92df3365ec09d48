/** A dictionary (at most 64 KB) loaded into liblz4's stream state once, for compressInto. */
export function loadDictionary(bytes: Uint8Array): object;
/** The LZ4 block of `src`, its matches reaching into the dictionary, written to `dst` from
 *  `offset`: its length, or 0 when it does not fit. */
export function compressInto(dictionary: object, src: Uint8Array, dst: Uint8Array, offset: number): number;
