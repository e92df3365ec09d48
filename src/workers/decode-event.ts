// The decode pool's task: one observer request body → checked, decoded rows. Pure: the same body
// always gives the same rows, which is what makes replay and crash recovery safe.
import { parsePayload, MalformedPayload, OBSERVER_PATHS } from './validate-payload.ts';
import { DecodeError } from '../stacks/codec/bytes.ts';
import type { DecodeOutcome, DecodeTextOutcome, DecodedEvent, DecodedText, ServeLater } from './decoded.ts';
import { decodeBlock, type NodeBlock } from './decode-block.ts';
import { withBlockExtras, withAttachmentExtras } from './block-extras.ts';
import { decodeStackerDbChunks, decodeProposalResponse } from './decode-signer.ts';
import { decodeAttachments, decodeBurnBlock, decodeDrop, decodeMempool, decodeMicroblocks } from './decode-other.ts';
import { mempoolDoc } from './serving/served-rows.ts';

export interface DecodeTask {
  path: string;
  /** The request body. */
  body: Uint8Array;
  /** For block 1: the boot block's body, whose txs are shown as block 1's. */
  bootBody?: Uint8Array;
  /** Render the serving store's documents too (default true; off for a check before the ack, or
   *  with the serving store switched off). */
  serve?: boolean;
  /** A block's txs with their raw bytes (see decodeBlock). */
  withRawTxs?: boolean;
  /** A mempool entry's documents are rendered by the caller (decodeEntriesMovable): default false. */
  deferMempoolDocs?: boolean;
}

function decodeParsed(path: string, payload: unknown, boot: NodeBlock | undefined, serve: boolean | ServeLater, withRawTxs: boolean, mempoolDocs: boolean): DecodedText {
  switch (path) {
    case '/new_block':
      return withBlockExtras(decodeBlock(payload as NodeBlock, boot, serve, withRawTxs), payload as NodeBlock, boot);
    case '/new_burn_block':
      return decodeBurnBlock(payload as Parameters<typeof decodeBurnBlock>[0]);
    case '/new_microblocks':
      return decodeMicroblocks(payload as Parameters<typeof decodeMicroblocks>[0], serve);
    case '/new_mempool_tx':
      return decodeMempool(payload as string[], serve !== false, mempoolDocs);
    case '/drop_mempool_tx':
      return decodeDrop(payload as Parameters<typeof decodeDrop>[0]);
    case '/attachments/new':
      return withAttachmentExtras(decodeAttachments(payload as Parameters<typeof decodeAttachments>[0]), payload as Parameters<typeof withAttachmentExtras>[1]);
    case '/stackerdb_chunks':
      return decodeStackerDbChunks(payload as Parameters<typeof decodeStackerDbChunks>[0]);
    case '/proposal_response':
      return decodeProposalResponse(payload as Record<string, unknown>);
    default:
      // Unknown and unknown paths: the processor stores what it needs from the raw log.
      return { kind: 'ignored' };
  }
}

/** The ArrayBuffers of the event's row blocks (each its own: encodeNativeBlock), to move. */
function factBuffers(ev: DecodedText, moved: ArrayBuffer[]): DecodedEvent {
  if ('facts' in ev) for (const f of Object.values(ev.facts)) moved.push(f.bytes.buffer as ArrayBuffer);
  return ev;
}

/** decodeEvent, with the ArrayBuffers the outcome owns (to move rather than copy to another thread). */
export function decodeEventMovable(task: DecodeTask): { outcome: DecodeOutcome; moved: ArrayBuffer[] } {
  const moved: ArrayBuffer[] = [];
  const out = decodeEventText(task);
  return { outcome: out.ok ? { ok: true, event: factBuffers(out.event, moved) } : out, moved };
}

/**
 * Several log entries in log order (one pool task), each as decodeEventMovable would. A mempool tx
 * that a block later in the same task mines gets no mempool document (null): a batch's serving
 * write drops the document of a tx mined later in the batch, and in a replay nearly every announced
 * tx is mined within ~100 entries (p50 17 on the 100k-tx log), while rendering and compressing the
 * document cost a worker ~18 µs a tx. A task can still straddle two batches, or its block lose a
 * fork: the processor renders what a batch lacks (completeMempoolDocs).
 */
export function decodeEntriesMovable(entries: ReadonlyArray<{ path: string; body: Uint8Array }>, serve: boolean): { outcomes: DecodeOutcome[]; moved: ArrayBuffer[] } {
  const texts = entries.map((e) => decodeEventText({ path: e.path, body: e.body, serve, deferMempoolDocs: serve }));
  if (serve) {
    const minedLater = new Set<string>();
    for (let i = texts.length - 1; i >= 0; i--) {
      const out = texts[i];
      if (!out.ok) continue;
      const ev = out.event;
      if (ev.kind === 'block') for (const t of ev.txs) minedLater.add(t.tx_id);
      if (ev.kind !== 'mempool') continue;
      // Part of the entry's decode, as when decodeMempool renders them: a failure refuses the entry.
      try {
        ev.docs = ev.txs.map((t) => (minedLater.has(t.tx_id) ? null : mempoolDoc(t.tx_id, t.raw_tx)));
      } catch (e) {
        texts[i] = decodeFailure(entries[i].path, e);
      }
    }
  }
  return movable(texts);
}

/** Decoded entries as they cross to the processor: each one's row blocks and its documents' one
 *  shared buffer listed to move rather than copy. */
function movable(texts: readonly DecodeTextOutcome[]): { outcomes: DecodeOutcome[]; moved: ArrayBuffer[] } {
  const moved: ArrayBuffer[] = [];
  const outcomes = texts.map((out): DecodeOutcome => (out.ok ? { ok: true, event: factBuffers(out.event, moved) } : out));
  shareDocumentBytes(outcomes, moved);
  return { outcomes, moved };
}

/** Every document value of the outcomes (tx documents, principal facts, block records, mempool
 *  documents), with a setter to put a view in its place. */
function documentValues(outcomes: readonly DecodeOutcome[], visit: (bytes: Uint8Array, set: (view: Uint8Array) => void) => void): void {
  for (const out of outcomes) {
    if (!out.ok) continue;
    const ev = out.event;
    if (ev.kind === 'block' || ev.kind === 'microblocks') {
      for (const t of ev.served.txs) {
        const p = t.packed;
        visit(p.hot, (v) => (p.hot = v));
        visit(p.cold, (v) => (p.cold = v));
      }
      for (const f of ev.served.principalTxs) visit(f.packed, (v) => (f.packed = v));
      const b = ev.served.block;
      if (b) visit(b.record, (v) => (b.record = v));
    } else if (ev.kind === 'mempool') {
      const docs = ev.docs;
      docs.forEach((d, i) => d && visit(d, (v) => (docs[i] = v)));
    }
  }
}

/**
 * Copies a task's document values into one ArrayBuffer, moved to the processor, each value a view
 * of it. Sent one by one, each value arrived as an ArrayBuffer of its own (about six a tx), every
 * one an object pair on the processor's heap and an allocation the collector tracks and sweeps.
 */
function shareDocumentBytes(outcomes: readonly DecodeOutcome[], moved: ArrayBuffer[]): void {
  let total = 0;
  documentValues(outcomes, (bytes) => (total += bytes.length));
  if (total === 0) return;
  const shared = new Uint8Array(total);
  let at = 0;
  documentValues(outcomes, (bytes, set) => {
    shared.set(bytes, at);
    set(shared.subarray(at, (at += bytes.length)));
  });
  moved.push(shared.buffer);
}

export function decodeEvent(task: DecodeTask): DecodeOutcome {
  return decodeEventMovable(task).outcome;
}

/**
 * The observer's check, its work kept for the processor: the body is decoded now (all that its 400
 * depends on), and `finish` (once; later calls give the same) renders the serving documents from
 * the rows the decode kept, while the entry's record syncs, and gives the outcome the pool would
 * have (mempool documents left to the processor: completeMempoolDocs), with the buffers to move.
 * Checked, then decoded again with documents in the pool, a live entry cost the two threads its
 * decode twice (bench/RESULTS.md, twenty-first session).
 */
export function decodeCheckedThenServed(task: { path: string; body: Uint8Array }): { outcome: DecodeTextOutcome; finish: () => { outcome: DecodeOutcome; moved: ArrayBuffer[] } } {
  const later: ServeLater = {};
  let outcome = decodeEventText({ ...task, serve: true, deferMempoolDocs: true }, later);
  let finished: { outcome: DecodeOutcome; moved: ArrayBuffer[] } | undefined;
  const finish = () => (finished ??= render());
  const render = () => {
    if (outcome.ok && later.render) {
      const event = outcome.event as Extract<DecodedText, { kind: 'block' | 'microblocks' }>;
      try {
        event.served = later.render();
      } catch (e) {
        // As when the pool's decode of an accepted body fails: the processor skips the entry.
        outcome = decodeFailure(task.path, e);
      }
    }
    const { outcomes, moved } = movable([outcome]);
    return { outcome: outcomes[0], moved };
  };
  return { outcome, finish };
}

/** `later`: a block's or microblocks' documents are left for later.render (decodeCheckedThenServed). */
function decodeEventText(task: DecodeTask, later?: ServeLater): DecodeTextOutcome {
  const text = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
  // Paths we do not know are stored raw, whatever their body (a newer node may send new ones).
  if (!(task.path in OBSERVER_PATHS)) return { ok: true, event: { kind: 'ignored' } };
  try {
    const payload = parsePayload(task.path, text(task.body));
    const boot = task.bootBody ? (parsePayload('/new_block', text(task.bootBody)) as NodeBlock) : undefined;
    const serve = task.serve === false ? false : (later ?? true);
    return { ok: true, event: decodeParsed(task.path, payload, boot, serve, task.withRawTxs === true, task.serve !== false && task.deferMempoolDocs !== true) };
  } catch (e) {
    return decodeFailure(task.path, e);
  }
}

/** The outcome of a body whose decoding threw `e`. */
function decodeFailure(path: string, e: unknown): DecodeTextOutcome {
  if (e instanceof MalformedPayload) return { ok: false, reason: e.message };
  if (e instanceof DecodeError) return { ok: false, reason: `body of ${path} has an undecodable value: ${e.message}` };
  // Any other failure is still this body's: decoding is a pure function of it, so the same body
  // always fails the same way. It is refused (400, kept in the log) rather than answered 500,
  // which the node would retry forever, holding up every later event.
  return { ok: false, reason: `body of ${path} could not be decoded: ${(e as Error)?.message ?? String(e)}` };
}
