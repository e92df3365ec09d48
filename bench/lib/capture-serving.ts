// Preloaded (`node --import`) by `bench/serving-write.ts --import`: with SERVING_CAPTURE set, the
// process's serving writes are also saved, batch by batch, to that file.
import { captureWrites } from '../serving-write.ts';

const file = process.env.SERVING_CAPTURE;
if (file) {
  const capture = captureWrites(file);
  process.once('exit', () => capture.close());
}
