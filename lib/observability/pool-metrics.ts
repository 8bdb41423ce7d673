import { recordPoolWait, watchPoolState, type PoolState } from './metrics';
import { isObserving } from './observe-request';

type Release = (err?: Error | boolean) => void;
type ConnectCallback = (err: Error | undefined, client: unknown, release: Release) => void;

/** The part of a pg-pool (node-postgres, @vercel/postgres) that is observed. */
export interface ObservablePool extends PoolState {
  connect(callback?: ConnectCallback): Promise<unknown> | void;
}

/**
 * Reports a pool's connections and queue (read when metrics are collected), and times every
 * wait for one of its connections: pg-pool's `query` goes through `connect` too, so each
 * statement's wait is counted, a timed-out wait as a failure.
 */
export function observePool(pool: ObservablePool, name: string): void {
  if (!isObserving()) return;
  watchPoolState(name, pool);
  const connect = pool.connect.bind(pool);
  pool.connect = (callback?: ConnectCallback) => {
    const started = performance.now();
    const waited = (ok: boolean) => recordPoolWait(name, (performance.now() - started) / 1000, ok);
    if (typeof callback === 'function') {
      return connect((err, client, release) => {
        waited(!err);
        callback(err, client, release);
      });
    }
    return (connect() as Promise<unknown>).then(
      (client) => {
        waited(true);
        return client;
      },
      (err: unknown) => {
        waited(false);
        throw err;
      },
    );
  };
}
