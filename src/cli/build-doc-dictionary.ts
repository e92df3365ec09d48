// `npx tsx src/cli/build-doc-dictionary.ts --log a.tsv --log b.tsv [--size 61440]`: makes the serving
// store's compression dictionary (src/serving/dict/docs.bin) from event logs: rendered tx, mempool
// and block documents (their uncompressed bytes) taken across tx types and logs, concatenated up to
// the size. The dictionary is part of the store's layout (layout.ts): after changing it, bump
// servingLayoutVersion. The committed one was made from two generated chains of other seeds than the
// benchmarks' (`npm run gen -- --txs 20000 --seed 11 --network testnet` and `--seed 12 --network
// mainnet`, `--per-log 20000 --size 61440`): on the seed-7 chain its documents compress to 622 bytes
// on average, against 715 with the shared fixtures' documents in the sample (their odd kinds took a
// share of the dictionary in the round-robin). A deployment indexing mainnet would do better with a
// dictionary made from mainnet documents (a new layout version).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readTsvRows } from '../ingest/tsv/read-tsv.ts';
import { decodeBlockRows, type NodeBlock } from '../workers/decode-block.ts';
import { mempoolDoc, servedRows } from '../workers/serving/served-rows.ts';
import { decompressValue } from '../serving/lz4.ts';
import { DOC_DICTIONARY } from '../serving/dictionaries.ts';
import { unpackTxDoc } from '../serving/codec.ts';

const { values } = parseArgs({ options: { log: { type: 'string', multiple: true }, size: { type: 'string', default: '61440' }, 'per-log': { type: 'string', default: '3000' } } });
const size = Number(values.size) & ~7;

/** Samples per kind of document ("tx type" of the body), per log, in log order. */
const docs = new Map<string, Uint8Array[]>();
const add = (m: Map<string, Uint8Array[]>, kind: string, b: Uint8Array) => {
  let l = m.get(kind);
  if (!l) m.set(kind, (l = []));
  l.push(b);
};

for (const file of values.log ?? []) {
  let n = 0;
  for await (const row of readTsvRows(file)) {
    if (n >= Number(values['per-log'])) break;
    if (row.path === '/new_mempool_tx') {
      for (const raw of JSON.parse(row.payload) as string[]) {
        try {
          add(docs, `${file}|mempool`, decompressValue(mempoolDoc('0x'.padEnd(66, '0'), raw), DOC_DICTIONARY));
        } catch {
          // an undecodable tx has no document
        }
      }
      continue;
    }
    if (row.path !== '/new_block') continue;
    const d = decodeBlockRows(JSON.parse(row.payload) as NodeBlock);
    const served = servedRows(d.rows, d.ownCount);
    if (served.block) add(docs, `${file}|block`, decompressValue(served.block.record, DOC_DICTIONARY));
    for (const t of served.txs) {
      const type = /"tx_type":"(\w+)"/.exec(unpackTxDoc(t.packed).body)?.[1] ?? '?';
      add(docs, `${file}|${type}`, decompressValue(t.packed.hot, DOC_DICTIONARY));
      add(docs, `${file}|${type} cold`, decompressValue(t.packed.cold, DOC_DICTIONARY));
      n++;
    }
  }
}

/** Round-robin over the kinds, each kind's samples spread across its list, until `size` bytes. */
function dictionary(m: Map<string, Uint8Array[]>): Buffer {
  const out: Uint8Array[] = [];
  let bytes = 0;
  const kinds = [...m.values()];
  for (let round = 0; bytes < size && round < 64; round++) {
    for (const list of kinds) {
      const step = Math.max(1, Math.floor(list.length / 64));
      if (round * step >= list.length) continue;
      const b = list[round * step];
      out.push(b);
      bytes += b.length;
    }
  }
  // The newest bytes are the nearest: LZ4 finds the last occurrence of a sequence.
  return Buffer.concat(out).subarray(Math.max(0, bytes - size));
}

// The dictionary lives with the store that reads it.
const dir = new URL('../serving/dict/', import.meta.url);
writeFileSync(new URL('docs.bin', dir), dictionary(docs));
console.log(`samples: ${[...docs].map(([k, l]) => `${k.split('/').pop()} ${l.length}`).join(', ')}`);
console.log(`a dictionary of ${size} bytes written to ${dir.pathname}docs.bin`);
