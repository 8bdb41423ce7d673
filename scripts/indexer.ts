// `npm run indexer -- run | pass <name> | reconcile [--repair]`: the indexer and the scheduled
// passes from the command line, against the database and cluster the configuration names
// (DATABASE_URL / POSTGRES_URL, SOLANA_RPC_URL, TAG_PROGRAM_ID). `run`: one indexer run, as the
// cron route does. `pass <name>`: one scheduled pass of lib/core/schedule.ts (`index`,
// `findPayments`, `deliverWebhooks`, `pruneNonces`, `pruneRateLimits`, `pruneExpiredReferences`). `reconcile`: compare the
// mirror with every record on chain and print each difference; `--repair` makes the mirror
// match. Exit codes: 0 done (no difference, or all repaired), 1 differences left, 2 usage.
import { clusterAccess } from '@/lib/chain/chain-and-mirror';
import { getConfig } from '@/lib/core/config';
import { openDb } from '@/lib/db/client';
import { PASS_NAMES, type PassName } from '@/lib/core/schedule';
import { runPasses } from '@/lib/features/schedule/passes';
import { reconcileMirror, type MirrorDifference } from '@/lib/features/indexer/reconcile';
import { runCommand } from './run-command';

const USAGE = `usage: npm run indexer -- run | pass <${PASS_NAMES.join('|')}> | reconcile [--repair]`;

const isPassName = (name: string | undefined): name is PassName => PASS_NAMES.includes(name as PassName);

async function main(args: string[]): Promise<number> {
  const [command, ...flags] = args;
  const repair = flags.includes('--repair');
  const pass = command === 'run' ? 'index' : command === 'pass' && flags.length === 1 ? flags[0] : undefined;
  const known =
    (command === 'run' && flags.length === 0) ||
    (command === 'pass' && isPassName(pass)) ||
    (command === 'reconcile' && flags.every((f) => f === '--repair'));
  if (!known) {
    console.error(USAGE);
    return 2;
  }
  const config = getConfig();
  const cluster = clusterAccess(config);
  const { db, close } = await openDb(config.database, { poolSize: 3 });
  try {
    if (isPassName(pass)) {
      const results = await runPasses([pass], { db, ...cluster, config, now: new Date() });
      console.log(JSON.stringify(results[pass], null, 2));
      return 0;
    }
    const report = await reconcileMirror({ db, ...cluster, repair, now: new Date() });
    console.log(
      `reconcile: ${report.records} record(s) on chain, ${report.rows} row(s) in the mirror, ${report.differences.length} difference(s)`,
    );
    for (const difference of report.differences) console.log(`  ${describe(difference)}`);
    if (report.repaired) {
      const { created, updated, quietlyUpdated, removed } = report.repaired;
      console.log(
        `repaired: ${created.length} row(s) created, ${updated.length + quietlyUpdated.length} updated, ${removed.length} removed`,
      );
      return 0;
    }
    return report.differences.length === 0 ? 0 : 1;
  } finally {
    await close();
  }
}

function describe(d: MirrorDifference): string {
  switch (d.kind) {
    case 'missing-row':
      return `@${d.tag}: on chain (${d.address}: owner ${d.chain.owner}, wallet ${d.chain.wallet}), no row in the mirror`;
    case 'row-without-record':
      return `@${d.tag}: a row in the mirror (owner ${d.mirror.owner}), no record on chain at ${d.address}`;
    case 'mismatch':
      return `@${d.tag}: ${d.fields.map((f) => `${f.field} is ${f.mirror ?? 'none'} in the mirror, ${f.chain ?? 'none'} on chain`).join('; ')}`;
  }
}

runCommand(main);
