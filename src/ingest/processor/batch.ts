// Rows of many log entries gathered per table and inserted together: ClickHouse wants few large
// inserts. Each insert carries a token derived from the batch's entry range and the table, which
// makes a repeated insert of the same batch a no-op.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RowWriter, Store } from '../../storage/client.ts';
import { hasColumns, insertTarget, nativeBlockOf, parseInsertTarget, targetTable, typesOf, type InsertTarget } from '../../workers/rows.ts';
import { encodeFragment, type NativeFragment } from '../../storage/native-format.ts';
import type { TableBytes } from '../../workers/decoded.ts';
import { PendingSetChanges } from './pending-set.ts';
import { ServingChanges } from '../../serving/changes.ts';
import { RowOwners, failedRowOf, type EntryRef } from './row-owners.ts';
import { CallerTransitions } from './unique-callers.ts';
import { HolderTransitions } from './holder-transitions.ts';
import { AnalyticsRows, bucketCode } from './analytics-rows.ts';
import { changeKey } from '../../workers/analytics-changes.ts';
import { failpoint } from './failpoints.ts';

/** An insert of one target failed; `entry` is the log entry of the refused row, when the engine
 *  said which row that was. */
export class TargetInsertError extends Error {
  constructor(readonly target: InsertTarget, readonly entry: EntryRef | undefined, override readonly cause: Error) {
    super(cause.message);
  }
}

/** STACKS_API_CAPTURE_INSERTS=<dir>: every insert's rows are also written to
 *  <dir>/<table>.<target n>.<insert n>.native (the target's columns in <table>.<target n>.columns),
 *  for bench/ingest/insert-cost.ts to replay table by table. */
const CAPTURE_DIR = process.env.STACKS_API_CAPTURE_INSERTS;
const captured = new Map<string, { name: string; inserts: number }>();

function captureInsert(table: string, columns: readonly string[], body: Uint8Array): void {
  if (!CAPTURE_DIR) return;
  const target = `${table}(${columns.join(',')})`;
  let c = captured.get(target);
  if (!c) {
    captured.set(target, (c = { name: `${table}.${captured.size}`, inserts: 0 }));
    writeFileSync(join(CAPTURE_DIR, `${c.name}.columns`), columns.join(','));
  }
  writeFileSync(join(CAPTURE_DIR, `${c.name}.${c.inserts++}.native`), body);
}

/** Rows the processor added, kept as objects until the batch is inserted. */
interface RowList {
  list: Array<Record<string, unknown>>;
  rows: number;
}

type BatchPart = NativeFragment | RowList;

/** What a processor row is counted as towards the batch's size limit (they are small). */
const ROW_BYTES_GUESS = 100;

export class Batch {
  /** Per insert target, its rows in the order entries added them: the decode workers' Native
   *  fragments, and the processor's own rows as objects, encoded once per target and insert (a
   *  fragment per call of addRows cost the processor's thread a tenth of its time). */
  private readonly text = new Map<string, BatchPart[]>();
  private bytes = 0;
  from = 0;
  to = 0;
  entries = 0;
  /** Some block that was canonical stopped being so (a reorg): answers cached until a reorg expire. */
  reorged = false;
  /** Net changes of the pending mempool, written as rows when the batch is stored. */
  readonly pendingSet = new PendingSetChanges();
  /** The batch's changes of (contract, caller) pairs, turned into distinct-caller counts when stored. */
  readonly callers = new CallerTransitions();
  readonly holders = new HolderTransitions();
  /** The batch's analytics rows, summed by key (analytics-rows.ts). */
  readonly analytics = new AnalyticsRows();
  /** What the batch changes in the serving store (nothing is gathered when there is none). */
  readonly serving: ServingChanges;
  private readonly owners = new RowOwners();

  constructor(serving = true) {
    this.serving = new ServingChanges(serving);
  }

  private partsOf(target: InsertTarget): BatchPart[] {
    let parts = this.text.get(target);
    if (!parts) this.text.set(target, (parts = []));
    return parts;
  }

  private addText(target: InsertTarget, fragment: NativeFragment | undefined): void {
    if (!fragment || fragment.rows === 0) return;
    this.partsOf(target).push(fragment);
    this.owners.addPart(target);
    this.bytes += fragment.bytes.length;
  }

  addRows(table: string, rows: Array<Record<string, unknown>>): void {
    let target = '';
    let keys: string[] = [];
    let part: RowList | undefined;
    for (const row of rows) {
      if (!part || !hasColumns(row, keys)) {
        keys = Object.keys(row);
        target = insertTarget(table, keys);
        // One part per entry and target (error attribution names the entry).
        part = { list: [], rows: 0 };
        this.partsOf(target).push(part);
        this.owners.addPart(target);
      }
      part.list.push(row);
      part.rows++;
      this.bytes += ROW_BYTES_GUESS;
    }
  }

  /** Rows of one shape encoded at once, not kept as objects until the insert. */
  private addEncoded(table: string, rows: Array<Record<string, unknown>>): void {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]);
    this.addText(insertTarget(table, columns), encodeFragment(columns, typesOf(table, columns), rows));
  }

  /** Rows serialized by a decode worker: insert target -> a Native block. */
  addFacts(facts: TableBytes): void {
    for (const [target, text] of Object.entries(facts)) this.addText(target, text);
  }

  noteEntry(id: number, path = ''): void {
    this.owners.noteEntry(id, path);
    if (this.entries === 0) this.from = id;
    this.to = id;
    this.entries++;
  }

  get size(): number {
    return this.bytes;
  }

  get isEmpty(): boolean {
    return this.entries === 0;
  }

  tables(): string[] {
    return [...this.text.keys()];
  }

  /** Inserts every table's rows: fact tables first (any order), then `last` in its order, so readers
   *  never see a canonical flag for a block whose rows are not there yet. */
  async insert(store: Store, last: readonly string[]): Promise<void> {
    this.addRows('mempool_pending', this.pendingSet.takeRows());
    const callers = await this.callers.take(store, this.to);
    for (const [contract, n] of callers.distinct) this.analytics.add(changeKey('ucaller', contract, '', ''), [bucketCode('all', 0)], n, '0', 1);
    this.addRows('contract_callers', callers.pairs);
    const holders = await this.holders.take(store, this.to);
    for (const h of holders.counts) this.analytics.add(changeKey('holders', h.asset, '', ''), [bucketCode(h.unit, h.bucket)], h.n, '0', 1);
    this.addRows('ft_holder_pairs', holders.pairs);
    this.analytics.drain((table, rows) => this.addEncoded(table, rows));
    const isLast = (target: InsertTarget) => last.includes(targetTable(target));
    const facts = [...this.text.keys()].filter((t) => !isLast(t));
    // Fact tables are independent: inserted side by side, the largest first.
    facts.sort((a, b) => this.sizeOf(b) - this.sizeOf(a));
    const queue = [...facts];
    const writers = store.writers();
    // After a refusal no lane starts another table, and the batch fails only once every insert has
    // ended: a caller that then closes the store (and exits) must not leave one running in the engine.
    let refusal: { error: unknown } | undefined;
    const lane = async (writer: RowWriter) => {
      for (let t = queue.shift(); t && !refusal; t = queue.shift()) {
        try {
          await this.insertTable(writer, t);
        } catch (e) {
          refusal ??= { error: e };
        }
      }
    };
    await Promise.all(writers.map(lane));
    if (refusal) throw refusal.error;
    for (const table of last) {
      for (const target of this.text.keys()) if (targetTable(target) === table) await this.insertTable(writers[0], target);
    }
  }

  private sizeOf(target: InsertTarget): number {
    return (this.text.get(target) ?? []).reduce((n, p) => n + ('list' in p ? p.rows * ROW_BYTES_GUESS : p.bytes.length), 0);
  }

  private async insertTable(writer: RowWriter, target: InsertTarget): Promise<void> {
    const { table, columns } = parseInsertTarget(target);
    const texts = this.text.get(target)!;
    // One block per insert: the engine pays a fixed cost per block (native-format.ts). The
    // processor's rows are encoded here, each run of them as one fragment.
    const fragments: NativeFragment[] = [];
    for (let i = 0; i < texts.length; ) {
      const p = texts[i];
      if (!('list' in p)) {
        fragments.push(p);
        i++;
        continue;
      }
      const run: Array<Record<string, unknown>> = [];
      for (; i < texts.length && 'list' in texts[i]; i++) run.push(...(texts[i] as RowList).list);
      fragments.push(encodeFragment(columns, typesOf(table, columns), run));
    }
    const body = nativeBlockOf(target, fragments);
    captureInsert(table, columns, body);
    try {
      await writer.insertRows(table, columns, body, `${this.from}-${this.to}:${target}`);
      failpoint('after-table-insert');
    } catch (e) {
      const row = failedRowOf((e as Error).message ?? '');
      throw new TargetInsertError(target, row === undefined ? undefined : this.owners.entryOfRow(target, texts, row), e as Error);
    }
  }
}
