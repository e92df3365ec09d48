// Preloaded (`node --import`) by `bench/serving-write.ts --import`: with SERVING_CAPTURE set, the
// process's serving writes are also saved, batch by batch, to that file. Plain JavaScript: the
// decode workers inherit the preload, and load it before any TypeScript loader.
import { isMainThread } from 'node:worker_threads';

const file = process.env.SERVING_CAPTURE;
if (file && isMainThread) {
  const { captureWrites } = await import('../serving-write.ts');
  const capture = captureWrites(file);
  process.once('exit', () => capture.close());
}
