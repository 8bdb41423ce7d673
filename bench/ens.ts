// ENS gateway benchmark: the gateway's throughput against GET /v1/resolve on the same tags (the
// gateway reads the same mirror row, then ABI-encodes and signs), and both routes' latency
// percentiles under the same concurrent load.
//   npm run bench -- ens
import { encodeFunctionData, parseAbi, toHex, type Hex } from 'viem';
import { namehash, packetToBytes } from 'viem/ens';
import { compareRoutes, median } from './measure';
import { seedBenchProfiles } from './seed';

/** The gateway's throughput, at least this share of /v1/resolve's on the same tags (the signature is the extra cost). */
const TARGET = 0.6;
const TAGS = 500;
const LATENCY_CONNECTIONS = 10;
const LATENCY_REQUESTS = 3000;

const RESOLVER_CALLS = parseAbi([
  'function addr(bytes32 node, uint256 coinType) view returns (bytes)',
  'function text(bytes32 node, string key) view returns (string)',
]);
const GATEWAY_CALL = parseAbi(['function resolve(bytes name, bytes data) view returns (bytes)']);
/** Any resolver address: the gateway signs for whichever resolver asks. */
const SENDER = '0x8464135c8f25da09e49bc8782676a84730c318bc';

/** The gateway path of one lookup of `name`: addr(node, 501) or text(node, "name"), as a resolver's OffchainLookup carries it. */
function gatewayPath(name: string, record: 'addr' | 'text'): string {
  const call =
    record === 'addr'
      ? encodeFunctionData({ abi: RESOLVER_CALLS, functionName: 'addr', args: [namehash(name), 501n] })
      : encodeFunctionData({ abi: RESOLVER_CALLS, functionName: 'text', args: [namehash(name), 'name'] });
  const data: Hex = encodeFunctionData({
    abi: GATEWAY_CALL,
    functionName: 'resolve',
    args: [toHex(packetToBytes(name)), call],
  });
  return `/v1/ens/${SENDER}/${data}.json`;
}

/** Latency percentiles (ms) of `paths` taken in turn by `connections` concurrent clients. */
async function latencies(appUrl: string, paths: string[], connections: number, total: number) {
  const times: number[] = [];
  let next = 0;
  const client = async () => {
    while (next < total) {
      const path = paths[next++ % paths.length]!;
      const started = performance.now();
      const res = await fetch(`${appUrl}${path}`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      times.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: connections }, client));
  const sorted = times.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), mean: times.reduce((a, b) => a + b, 0) / times.length };
}

export async function benchEns({ appUrl, databaseUrl }: { appUrl: string; databaseUrl: string }) {
  const tags = await seedBenchProfiles(databaseUrl, TAGS);
  const { parent } = (await (await fetch(`${appUrl}/v1/ens`)).json()) as { parent: string };
  const resolvePaths = tags.map((tag) => `/v1/resolve/${tag}`);
  const gatewayPaths = tags.flatMap((tag) => [
    gatewayPath(`${tag}.${parent}`, 'addr'),
    gatewayPath(`${tag}.${parent}`, 'text'),
  ]);
  const check = await fetch(`${appUrl}${gatewayPaths[0]}`);
  if (check.status !== 200) throw new Error(`the gateway answered ${check.status}: ${await check.text()}`);

  let nextResolve = 0;
  let nextGateway = 0;
  const names = {
    resolve: `GET /v1/resolve/{tag}, ${TAGS} tags`,
    gateway: `GET /v1/ens/{sender}/{data}.json, the same tags (addr 501 and text)`,
  };
  const [, gateway] = await compareRoutes({
    title: 'The ENS gateway against /v1/resolve (production build, 10 connections; the ratio is to /v1/resolve)',
    baseline: {
      name: names.resolve,
      load: () => ({
        name: names.resolve,
        url: `${appUrl}${resolvePaths[0]}`,
        nextPath: () => resolvePaths[nextResolve++ % TAGS]!,
      }),
    },
    routes: [
      {
        name: names.gateway,
        load: () => ({
          name: names.gateway,
          url: `${appUrl}${gatewayPaths[0]}`,
          nextPath: () => gatewayPaths[nextGateway++ % gatewayPaths.length]!,
        }),
      },
    ],
    targets: { [names.gateway]: TARGET },
  });

  // p95 (autocannon reports p97.5, not p95): each route in turn, three times, medians.
  const runs: Record<'resolve' | 'gateway', Awaited<ReturnType<typeof latencies>>[]> = { resolve: [], gateway: [] };
  for (let round = 0; round < 3; round++) {
    runs.resolve.push(await latencies(appUrl, resolvePaths, LATENCY_CONNECTIONS, LATENCY_REQUESTS));
    runs.gateway.push(await latencies(appUrl, gatewayPaths, LATENCY_CONNECTIONS, LATENCY_REQUESTS));
  }
  console.log(
    `\n## Latency under ${LATENCY_CONNECTIONS} concurrent clients (${LATENCY_REQUESTS} requests a run, 3 runs each in turn, medians)`,
  );
  console.log('| route | p50 ms | p95 ms | p99 ms | mean ms |');
  console.log('|---|---:|---:|---:|---:|');
  for (const key of ['resolve', 'gateway'] as const) {
    const m = (k: 'p50' | 'p95' | 'p99' | 'mean') => median(runs[key].map((r) => r[k])).toFixed(2);
    console.log(`| ${names[key]} | ${m('p50')} | ${m('p95')} | ${m('p99')} | ${m('mean')} |`);
  }
  return { gatewayRatio: gateway!.ratio };
}
