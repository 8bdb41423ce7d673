import WebSocket from 'ws';
import type { RunningApp } from '@/devstack/app';

/**
 * The Node option that opens the inspector on a port the system picks, on loopback only. Node
 * then writes the line `DEBUGGER_URL` reads to stderr before the server runs any code.
 */
export const INSPECT_OPTION = '--inspect=127.0.0.1:0';

/** "Debugger listening on ws://127.0.0.1:PORT/UUID" (Node's docs: doc/api/cli.md, `--inspect`). */
const DEBUGGER_URL = /Debugger listening on (ws:\/\/\S+)/;

/** What the server's JavaScript holds after a full collection, from `process.memoryUsage()`. */
export interface HeldMemory {
  /** The V8 heap's live objects. */
  heapUsed: number;
  /** Memory outside the V8 heap that JS objects own: Buffers and ArrayBuffers among it. */
  external: number;
}

export interface Inspector {
  /**
   * Collects garbage in full and reads what is left. Both parts count: a cache of strings or
   * objects grows the heap, a cache of Buffers (a rendered PNG) grows `external` only, which
   * `Runtime.getHeapUsage` would not see.
   */
  heldAfterFullCollection(): Promise<HeldMemory>;
  close(): Promise<void>;
}

/**
 * Connects to the inspector of an app started with INSPECT_OPTION in its NODE_OPTIONS, over the
 * Chrome DevTools Protocol (its HeapProfiler and Runtime domains).
 */
export async function inspect(app: RunningApp): Promise<Inspector> {
  const url = DEBUGGER_URL.exec(app.output())?.[1];
  if (!url) throw new Error(`the app printed no inspector URL; was it started with ${INSPECT_OPTION}?`);
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (err: Error) => void }>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
    const call = message.id === undefined ? undefined : pending.get(message.id);
    if (!call) return; // an event, not an answer
    pending.delete(message.id!);
    if (message.error) call.reject(new Error(`inspector: ${message.error.message}`));
    else call.resolve(message.result);
  });
  socket.on('close', () => {
    for (const call of pending.values()) call.reject(new Error('inspector: the connection closed (did the app exit?)'));
    pending.clear();
  });
  let lastId = 0;
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++lastId;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });

  return {
    async heldAfterFullCollection() {
      // Twice: the second still freed 0.2–1 MB that the first had left; more changed < 0.2 MB (measured).
      await send('HeapProfiler.collectGarbage');
      await send('HeapProfiler.collectGarbage');
      const answer = (await send('Runtime.evaluate', {
        expression: 'JSON.stringify(process.memoryUsage())',
        returnByValue: true,
      })) as { result: { value: string } };
      const { heapUsed, external } = JSON.parse(answer.result.value) as HeldMemory;
      return { heapUsed, external };
    },
    close: () =>
      new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
}
