// Calls between the main thread and an API thread over one message port, both ways: a call is a
// request message with an id, answered by a result or an error message with that id. The API
// threads use it for what only the main thread has (engine reads, main-thread routes, the process's
// metrics); the main thread for each thread's own metrics.
import type { MessagePort, Worker } from 'node:worker_threads';

type Port = Pick<MessagePort, 'postMessage' | 'on' | 'off'> | Pick<Worker, 'postMessage' | 'on' | 'off'>;

interface CallMessage {
  rpc: 'call';
  id: number;
  method: string;
  arg: unknown;
}

interface ResultMessage {
  rpc: 'result';
  id: number;
  ok: boolean;
  value: unknown;
}

export type RpcHandler = (arg: never) => unknown;

/** The call failed on the other side (its message is the other side's error message). */
export class RemoteError extends Error {}

export class RpcChannel {
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly handlers = new Map<string, RpcHandler>();
  private readonly listener = (m: unknown) => this.receive(m);
  private closedBecause: string | undefined;

  constructor(private readonly port: Port) {
    port.on('message', this.listener);
  }

  /** Answers calls of `method` with `handler` (its result, or its error's message). */
  handle<A, R>(method: string, handler: (arg: A) => R | Promise<R>): void {
    this.handlers.set(method, handler as RpcHandler);
  }

  call<R>(method: string, arg: unknown, transfer: ArrayBuffer[] = []): Promise<R> {
    if (this.closedBecause) return Promise.reject(new RemoteError(this.closedBecause));
    const id = ++this.next;
    return new Promise<R>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.port.postMessage({ rpc: 'call', id, method, arg } satisfies CallMessage, transfer);
    });
  }

  /** Fails every call still waiting (the other side is gone) and every later one. */
  close(reason: string): void {
    this.closedBecause = reason;
    this.port.off('message', this.listener);
    for (const w of this.waiting.values()) w.reject(new RemoteError(reason));
    this.waiting.clear();
  }

  private receive(m: unknown): void {
    const msg = m as CallMessage | ResultMessage | null;
    if (msg?.rpc === 'result') {
      const w = this.waiting.get(msg.id);
      if (!w) return;
      this.waiting.delete(msg.id);
      if (msg.ok) w.resolve(msg.value);
      else w.reject(new RemoteError(String(msg.value)));
    } else if (msg?.rpc === 'call') {
      void this.answer(msg);
    }
  }

  private async answer(msg: CallMessage): Promise<void> {
    const reply = (ok: boolean, value: unknown) => {
      if (!this.closedBecause) this.port.postMessage({ rpc: 'result', id: msg.id, ok, value } satisfies ResultMessage);
    };
    const handler = this.handlers.get(msg.method);
    if (!handler) return reply(false, `no handler for ${msg.method}`);
    try {
      reply(true, await handler(msg.arg as never));
    } catch (e) {
      reply(false, e instanceof Error ? e.message : String(e));
    }
  }
}
