// An answer that is already JSON (assembled from stored fragments): written as it is, without
// building and serializing an object. As text, or as UTF-8 bytes when it was assembled from stored
// bytes (json-bytes.ts): those go to the digest and the socket without an encode.
export class JsonText {
  /** `stableUntilReorg`: only a reorg can change it (the response cache keeps it across blocks).
   *  `etag`: its tag when made from what determines the answer (etag.ts), not from its bytes.
   *  `written`: called once the bytes are on the socket, when they are a lent writer's (json-bytes.ts):
   *  whoever keeps them longer copies them. */
  constructor(
    readonly body: string | Buffer,
    readonly stableUntilReorg = false,
    readonly etag?: string,
    readonly written?: () => void,
  ) {}

  get text(): string {
    return typeof this.body === 'string' ? this.body : this.body.toString('utf8');
  }
}
