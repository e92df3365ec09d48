// Memory pressure for a moment: a child process takes all but 1.5 GiB of the memory the kernel
// reports available and holds it while `sample` reads the process under test. Resident pages the
// kernel can take back (clean mapped file pages) leave that process; what it truly holds stays.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const HOG = `
const want = Number(process.argv[1]);
const held = [];
for (let n = 0; n < want; n += 256 * 2 ** 20) held.push(Buffer.alloc(256 * 2 ** 20, 1));
console.log('held');
setInterval(() => held.length, 1000);
`;

export async function underMemoryPressure<T>(sample: () => T): Promise<{ takenGb: number; before: T; during: T }> {
  const availableKb = Number(/MemAvailable:\s+(\d+) kB/.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0);
  const take = Math.max(0, availableKb * 1024 - 1.5 * 2 ** 30);
  const before = sample();
  const hog = spawn(process.execPath, ['-e', HOG, String(take)], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve, reject) => {
      hog.stdout.on('data', (d: Buffer) => d.toString().includes('held') && resolve());
      hog.once('exit', (code) => reject(new Error(`the memory-taking process exited (${code})`)));
    });
    await new Promise((r) => setTimeout(r, 2000));
    return { takenGb: take / 1e9, before, during: sample() };
  } finally {
    hog.kill('SIGKILL');
  }
}
