// The service as deployed, for benchmarks: the test harness's startService turns on response schema
// validation (every answer checked by ajv), which is test-only work that would skew the numbers.
import { startService, type RunningService } from '../../src/testing/service.ts';

export function startBenchService(opts: { dataDir?: string; env?: Record<string, string>; nodeArgs?: string[] } = {}): Promise<RunningService> {
  return startService({ ...opts, env: { STACKS_API_VALIDATE_RESPONSES: '0', ...opts.env } });
}
