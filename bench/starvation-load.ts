// The heavy readers of bench/starvation.ts, in a process of their own that it starts at the
// lowest CPU priority: on a deployment they are other machines, so here they take only the
// CPU that the app and the health sampler leave. Reading 64 feed pages of up to 1 MiB (and
// inflating them) costs this process about half a core; at the same priority as the app, the
// figure measured how the machine shares two cores, not how the app shares its event loop.
//   node --import tsx bench/starvation-load.ts '<StarvationLoad as JSON>'
// Runs until its stdin closes, then prints `{ "<status>": <count>, … }` and exits.

export type StarvationLoad =
  /** `count` followers of the change feed, each pausing `pauseMs` (±50%) between pages. */
  | { kind: 'feed'; appUrl: string; count: number; pauseMs: number }
  /** `count` crawlers going round the share images of `tags`, without pausing. */
  | { kind: 'og'; appUrl: string; count: number; tags: string[] };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each client's own source address, as the proxy in front would append it. */
const addressOf = (i: number) => `10.77.${i >> 8}.${(i % 254) + 1}`;

type Client = (i: number, answered: (status: number) => void, stopped: () => boolean) => Promise<void>;

function clientOf(load: StarvationLoad): Client {
  if (load.kind === 'feed')
    return async (i, answered, stopped) => {
      let after = '0-0';
      await pause(Math.random() * load.pauseMs); // independent readers: they do not start in step
      while (!stopped()) {
        const res = await fetch(`${load.appUrl}/v1/events?after=${after}&limit=1000`, {
          headers: { 'x-forwarded-for': addressOf(i) },
        });
        answered(res.status);
        if (res.status === 200) {
          // `next` from the page's end, without parsing up to 1 MiB here; at the live end (`next` unchanged), from the start again
          const next = /"next":"([0-9-]+)"}$/.exec(await res.text())?.[1] ?? '0-0';
          after = next === after ? '0-0' : next;
        } else await res.arrayBuffer();
        await pause(load.pauseMs * (0.5 + Math.random())); // on average its budget's pace, never in step for long
      }
    };
  return async (i, answered, stopped) => {
    for (let n = i; !stopped(); n += load.count) {
      const res = await fetch(`${load.appUrl}/profile/${load.tags[n % load.tags.length]}/opengraph-image`, {
        headers: { 'x-forwarded-for': addressOf(1000 + i) },
      });
      answered(res.status);
      await res.arrayBuffer();
    }
  };
}

async function main() {
  const load = JSON.parse(process.argv[2]!) as StarvationLoad;
  const client = clientOf(load);
  const statuses: Record<string, number> = {};
  let stop = false;
  const running = Array.from({ length: load.count }, (_, i) =>
    client(
      i,
      (status) => (statuses[status] = (statuses[status] ?? 0) + 1),
      () => stop,
    ).catch(() => {}),
  );
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.on('end', resolve));
  stop = true;
  await Promise.all(running);
  process.stdout.write(JSON.stringify(statuses));
}

void main();
