// Test helper: headless Chromium (Debian's `chromium`) driven over the DevTools protocol (a
// WebSocket, undici's client): open a page, wait until a script says it is ready, read from it,
// screenshot it. Every browser started here is killed when the session closes (and after 90 s).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'undici';

/** The browser binary (CHROMIUM_BIN, else chromium or chromium-browser on PATH), or undefined. */
export function chromiumBinary(): string | undefined {
  for (const name of [process.env.CHROMIUM_BIN, 'chromium', 'chromium-browser']) {
    if (name && spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0) return name;
  }
  return undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface BrowserPage {
  /** Evaluates an expression in the page; resolves with its (JSON) value. */
  evaluate<T>(expression: string): Promise<T>;
  /** Polls `expression` until it is truthy (or throws after `timeoutMs`). */
  waitFor(expression: string, timeoutMs?: number): Promise<void>;
  screenshot(file: string): Promise<void>;
  close(): Promise<void>;
}

export async function openPage(binary: string, url: string, size = { width: 1440, height: 1000 }): Promise<BrowserPage> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-'));
  const child: ChildProcess = spawn(
    binary,
    ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--hide-scrollbars', '--remote-debugging-port=0', `--user-data-dir=${profile}`, `--window-size=${size.width},${size.height}`, 'about:blank'],
    // Its own process group, so that closing kills its renderer and utility processes too: they
    // outlive a killed browser process and keep writing into the profile while it is removed.
    { stdio: 'ignore', detached: true },
  );
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  };
  const killer = setTimeout(killGroup, 90_000);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const close = async () => {
    clearTimeout(killer);
    killGroup();
    await exited;
    // A child that was still exiting may add a file while the tree is removed: retry, and never
    // fail a test over a temporary directory.
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch (e) {
      console.warn(`could not remove the browser profile ${profile}: ${(e as Error).message}`);
    }
  };
  try {
    // Chromium writes the port it chose into the profile.
    const portFile = join(profile, 'DevToolsActivePort');
    for (const until = Date.now() + 30_000; !existsSync(portFile) || !readFileSync(portFile, 'utf8').includes('\n'); await sleep(100)) {
      if (Date.now() > until) throw new Error('chromium did not open its DevTools port');
    }
    const port = readFileSync(portFile, 'utf8').split('\n')[0];
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ type: string; webSocketDebuggerUrl: string }>;
    const ws = new WebSocket(targets.find((t) => t.type === 'page')!.webSocketDebuggerUrl);
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener('open', () => resolve());
      ws.addEventListener('error', () => reject(new Error('DevTools WebSocket failed')));
    });
    let nextId = 1;
    const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
    ws.addEventListener('message', (ev) => {
      const msg = JSON.parse(String(ev.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const p = msg.id !== undefined ? pending.get(msg.id) : undefined;
      if (!p) return;
      pending.delete(msg.id!);
      if (msg.error) p.reject(new Error(msg.error.message));
      else p.resolve(msg.result);
    });
    const send = <T>(method: string, params: Record<string, unknown> = {}) =>
      new Promise<T>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        ws.send(JSON.stringify({ id, method, params }));
      });
    await send('Page.enable');
    await send('Emulation.setDeviceMetricsOverride', { width: size.width, height: size.height, deviceScaleFactor: 1, mobile: false });
    await send('Page.navigate', { url });
    const evaluate = async <T>(expression: string): Promise<T> => {
      const r = await send<{ result: { value?: T }; exceptionDetails?: { text: string } }>('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
      if (r.exceptionDetails) throw new Error(`page script failed: ${r.exceptionDetails.text}`);
      return r.result.value as T;
    };
    return {
      evaluate,
      async waitFor(expression, timeoutMs = 30_000) {
        for (const until = Date.now() + timeoutMs; !(await evaluate<boolean>(`!!(${expression})`)); await sleep(200)) {
          if (Date.now() > until) throw new Error(`the page did not get to: ${expression}`);
        }
      },
      async screenshot(file) {
        const { data } = await send<{ data: string }>('Page.captureScreenshot', { format: 'png' });
        writeFileSync(file, Buffer.from(data, 'base64'));
      },
      async close() {
        ws.close();
        await close();
      },
    };
  } catch (e) {
    await close();
    throw e;
  }
}
