// A service fed the fork fixture (src/testing/fork-fixture.ts), as fedService feeds a recorded log.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { feedLog, serviceFedWith } from './goldens.ts';
import { writeForkFixture } from './fork-fixture.ts';
import type { RunningService } from './service.ts';

/** Feeds the fork fixture, written to a temporary file, to an observer. */
export async function feedForkFixture(eventUrl: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'fork-fixture-'));
  try {
    const file = join(dir, 'fork-fixture.tsv');
    await writeForkFixture(file);
    await feedLog(eventUrl, file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A service holding the fork fixture (a mainnet chain), processing done. */
export function forkService(env: Record<string, string> = {}): Promise<RunningService> {
  return serviceFedWith('fork-fixture', feedForkFixture, env);
}
