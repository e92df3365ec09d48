import { startService, waitForProcessing, runTool, SHARED } from '/work/main/src/testing/service.ts';
const name = process.argv[2];
const match = process.argv[3] ?? '^/extended(/v1/status)?$|^/extended/v1/block(\\?|$|/by_height/)|^/extended/v2/blocks(\\?|$)';
const svc = await startService();
const fed = await runTool('feed-events.mjs', [`${SHARED}/fixtures/${name}.tsv`, '--url', svc.eventUrl]);
console.log(fed.output.trim().split('\n').slice(-2).join(' | '));
await waitForProcessing(svc.apiUrl);
const diff = await runTool('diff-goldens.mjs', [svc.apiUrl, `${SHARED}/goldens/${name}.jsonl.gz`, '--match', match, '--verbose']);
console.log(diff.output.split('\n').slice(0, 60).join('\n'));
if (process.env.KEEP) { console.log(svc.apiUrl); await new Promise(r => setTimeout(r, 1e9)); }
await svc.stop();
