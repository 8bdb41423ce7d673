import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { untilVisible } from './until-visible';

/*
 * A webhook receiver as an integrator writes one: it verifies each delivery with the Standard
 * Webhooks library and the subscription's secret (the timestamp included), keeps every
 * verified delivery in arrival order, and keeps a replica of the identities by applying each
 * event once (deduplicated by webhook-id). `answer` says how it answers right now: tests move
 * it through failing, slow and down.
 */

export type ReceivedEvent = { id: number; tag: string; type: 'upsert' | 'remove'; identity: unknown; at: string };

export type Answer = { status: number; delayMs?: number };

export class WebhookReceiver {
  /** Every verified delivery, in arrival order, duplicates included. */
  readonly arrivals: ReceivedEvent[] = [];
  /** Deliveries refused: a bad signature or timestamp. */
  readonly refused: string[] = [];
  /** Each POST's headers, in arrival order. */
  readonly headers: Record<string, string>[] = [];
  readonly replica = new Map<string, unknown>();
  private readonly applied = new Set<string>();
  private server: Server | null = null;
  port = 0;
  secrets: string[] = [];
  /** How the next POST is answered; called per request, in arrival order. */
  answer: (index: number) => Answer = () => ({ status: 200 });
  private posts = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Down: refuses connections until started again on the same port. */
  async stop(): Promise<void> {
    if (!this.server) return;
    const server = this.server;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    this.headers.push(headers);
    const { status, delayMs = 0 } = this.answer(this.posts++);
    let event: ReceivedEvent;
    try {
      event = this.verify(body, headers);
    } catch (err) {
      this.refused.push((err as Error).message);
      return void res.writeHead(400).end();
    }
    if (status < 300) this.accept(event); // a slow answer is processed, then answered late
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    if (!res.destroyed) res.writeHead(status).end();
  }

  private verify(body: string, headers: Record<string, string>): ReceivedEvent {
    let lastError: unknown;
    for (const secret of this.secrets) {
      try {
        return new Webhook(secret).verify(body, headers) as ReceivedEvent;
      } catch (err) {
        lastError = err;
      }
    }
    throw lastError ?? new Error('no secret');
  }

  private accept(event: ReceivedEvent): void {
    this.arrivals.push(event);
    const id = String(event.id);
    if (this.applied.has(id)) return;
    this.applied.add(id);
    if (event.type === 'upsert') this.replica.set(event.tag, event.identity);
    else this.replica.delete(event.tag);
  }

  /** The ids of the verified deliveries with repeats dropped: the order events were first applied. */
  firstArrivals(): number[] {
    const seen = new Set<number>();
    return this.arrivals.map((e) => e.id).filter((id) => !seen.has(id) && seen.add(id));
  }
}

/** Runs delivery passes, one after another, until `arrived` holds, for at most 20 s (`untilVisible`). */
export async function passUntil(pass: () => Promise<unknown>, arrived: () => boolean) {
  await untilVisible(pass, arrived, { withinMs: 20_000, pauseMs: 0 });
}
