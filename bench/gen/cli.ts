// `npm run gen -- --txs <N> --seed <S> --out <file.tsv> [--gz] [options]`: writes a deterministic
// synthetic Stacks chain as a node event log in the Hiro TSV export format (what
// `npm run import-events -- --file` reads). See bench/gen/README.md for the model and parameters.
import { parseArgs } from 'node:util';
import { progress } from '../../src/ingest/progress.ts';
import { generateFile } from './generate.ts';
import { defaultOptions } from './options.ts';

const USAGE = `usage: npm run gen -- --txs <N> --out <file.tsv> [--seed <S>] [--gz]
  [--network mainnet|testnet] [--principals <n>] [--zipf <s>] [--epoch2-blocks <n>] [--block-txs <n>]
  [--tenure-blocks <n>] [--fork-rate <p>] [--microblock-rate <p>] [--mempool-window <blocks>] [--quiet]`;

function num(v: string | undefined, name: string, fallback: number, opts: { int?: boolean; min?: number; max?: number } = {}): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || (opts.int && !Number.isInteger(n)) || (opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max)) {
    console.error(`bad --${name}: ${v}`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      txs: { type: 'string' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string' },
      gz: { type: 'boolean', default: false },
      network: { type: 'string', default: 'mainnet' },
      principals: { type: 'string' },
      zipf: { type: 'string' },
      'epoch2-blocks': { type: 'string' },
      'block-txs': { type: 'string' },
      'tenure-blocks': { type: 'string' },
      'fork-rate': { type: 'string' },
      'microblock-rate': { type: 'string' },
      'mempool-window': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.txs || !values.out) {
    console.error(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  if (values.network !== 'mainnet' && values.network !== 'testnet') {
    console.error(`bad --network: ${values.network}`);
    process.exit(2);
  }
  const txs = num(values.txs, 'txs', 0, { int: true, min: 10 });
  const opts = defaultOptions(txs, values.seed!);
  opts.mainnet = values.network === 'mainnet';
  opts.users = num(values.principals, 'principals', opts.users, { int: true, min: 2 });
  opts.zipfExponent = num(values.zipf, 'zipf', opts.zipfExponent, { min: 0.01 });
  opts.epoch2Blocks = num(values['epoch2-blocks'], 'epoch2-blocks', opts.epoch2Blocks, { int: true, min: 0 });
  opts.blockTxs = num(values['block-txs'], 'block-txs', opts.blockTxs, { int: true, min: 1 });
  opts.tenureBlocks = num(values['tenure-blocks'], 'tenure-blocks', opts.tenureBlocks, { int: true, min: 1 });
  opts.forkRate = num(values['fork-rate'], 'fork-rate', opts.forkRate, { min: 0, max: 1 });
  opts.microblockRate = num(values['microblock-rate'], 'microblock-rate', opts.microblockRate, { min: 0, max: 1 });
  opts.mempoolWindow = num(values['mempool-window'], 'mempool-window', opts.mempoolWindow, { int: true, min: 1 });
  let out = values.out;
  if (values.gz && !out.endsWith('.gz')) out += '.gz';

  const bar = values.quiet ? null : progress('gen', txs, 'txs');
  const r = await generateFile(opts, out, values.gz!, bar ? (n) => bar.update(n) : undefined);
  bar?.finish();
  const rate = Math.round(r.txs / r.seconds);
  console.error(
    `wrote ${out}: ${r.txs} txs, ${r.blocks} blocks (+${r.forkBlocks} in ${r.forks} forks), ${r.burnBlocks} burn blocks, ${r.microblocks} microblocks, ` +
      `${r.rows} rows, ${(r.bytes / 1e6).toFixed(1)} MB uncompressed in ${r.seconds.toFixed(1)} s (${rate} txs/s)`,
  );
  console.error(`rows by path: ${JSON.stringify(r.entries)}`);
  console.error(`tx kinds: ${JSON.stringify(r.kinds)}`);
  console.error(`mempool: ${JSON.stringify(r.mempool)}`);
  console.error(`senders: ${JSON.stringify(r.senders)}`);
}

main().catch((e) => {
  console.error('gen failed:', e instanceof Error ? e.stack : e);
  process.exit(1);
});
