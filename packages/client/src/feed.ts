import { unwrap, type TagApi } from './http';
import type { components } from './schema';

export type IdentityEvent = components['schemas']['IdentityEvent'];
export type Identity = components['schemas']['Identity'];

/** What a follower keeps: every live identity by its tag (`@alice`), and where to go on. */
export interface Replica {
  identities: Map<string, Identity>;
  /** Opaque; undefined means "from the beginning". */
  cursor: string | undefined;
}

/** Applies one event: an upsert stores the identity as it is now, a remove drops the tag. */
export function applyEvent(identities: Map<string, Identity>, event: IdentityEvent): void {
  if (event.type === 'upsert' && event.identity) identities.set(event.tag, event.identity);
  else identities.delete(event.tag);
}

export interface FollowOptions {
  /** Called after each page is applied, before the next is read: store the replica and its cursor together. */
  save?(replica: Replica): void | Promise<void>;
  /** Pause at the live end. */
  pollIntervalMs?: number;
  pageSize?: number;
  signal?: AbortSignal;
}

/**
 * Keeps a replica of every live identity from the change feed (`GET /v1/events`), resuming
 * from a saved cursor. Events come in commit order and none is ever skipped, so applying them
 * in order converges to exactly the set `GET /v1/identity/{tag}` answers.
 */
export class FeedFollower {
  readonly replica: Replica;

  constructor(
    private readonly api: TagApi,
    saved?: Replica,
  ) {
    this.replica = saved ?? { identities: new Map(), cursor: undefined };
  }

  /** Reads and applies one page; true when it reached the live end. */
  async step(pageSize = 1000): Promise<{ applied: number; atEnd: boolean }> {
    const query =
      this.replica.cursor === undefined ? { limit: pageSize } : { limit: pageSize, after: this.replica.cursor };
    const page = unwrap(await this.api.GET('/v1/events', { params: { query } }));
    for (const event of page.events) applyEvent(this.replica.identities, event);
    const atEnd = page.next === this.replica.cursor || page.events.length === 0;
    this.replica.cursor = page.next;
    return { applied: page.events.length, atEnd };
  }

  /** Reads until the live end. */
  async catchUp(pageSize = 1000): Promise<void> {
    while (!(await this.step(pageSize)).atEnd);
  }

  /** Follows the feed until `signal` aborts. */
  async follow(options: FollowOptions = {}): Promise<void> {
    const { save, pollIntervalMs = 2_000, pageSize = 1000, signal } = options;
    while (!signal?.aborted) {
      const { atEnd } = await this.step(pageSize);
      await save?.(this.replica);
      if (atEnd) await sleep(pollIntervalMs, signal);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
