import { TEST_CRON_SECRET } from '@/devstack/app';

export function cron(appUrl: string, authorization: string | null = `Bearer ${TEST_CRON_SECRET}`): Promise<Response> {
  return fetch(`${appUrl}/api/cron/indexer`, { headers: authorization === null ? {} : { authorization } });
}

/**
 * Calls the cron route until a run of its own completes: on the shared app another test's
 * run may hold the lock, and then this call is answered `skipped` at once.
 */
export async function runCron(appUrl: string): Promise<{ status: string; indexed: number; processed: number }> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const res = await cron(appUrl);
    if (res.status !== 200) throw new Error(`cron: ${res.status} ${await res.text()}`);
    const summary = await res.json();
    if (summary.status === 'completed') return summary;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('cron: every run was skipped');
}
