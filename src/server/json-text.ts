// An answer that is already JSON text (assembled from stored fragments): written as it is, without
// building and serializing an object.
export class JsonText {
  /** `stableUntilReorg`: only a reorg can change it (the response cache keeps it across blocks). */
  constructor(
    readonly text: string,
    readonly stableUntilReorg = false,
  ) {}
}
