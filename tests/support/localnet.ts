import { startLocalnet, type LocalnetOptions } from '@/localnet';
import { held, type Lifetime } from './held';

export interface TestLocalnet {
  /** Its JSON-RPC URL. */
  readonly url: string;
}

/**
 * A localnet of the test's own (in memory, free port, the tag registry loaded unless
 * `programs` says otherwise): the chain holds exactly what the test sent, whatever other
 * files do on the shared one. `options` go to startLocalnet; `lifetime` as in held().
 */
export function ownLocalnet(options: LocalnetOptions & { lifetime?: Lifetime } = {}): TestLocalnet {
  const { lifetime, ...localnetOptions } = options;
  const current = held(
    'the own localnet',
    () => startLocalnet({ port: 0, dataDir: null, ...localnetOptions }),
    (l) => l.close(),
    lifetime,
  );
  return {
    get url() {
      return current().url;
    },
  };
}
