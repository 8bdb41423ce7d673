// The scheduled passes are declared once (lib/core/schedule.ts): vercel.json and the cron route
// files are held to that table; scripts/serve.ts and scripts/indexer.ts read it.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CRON_ROUTES, PASS_NAMES } from '@/lib/core/schedule';
import { SCHEDULED_PASSES } from '@/lib/features/schedule/passes';

interface VercelJson {
  crons?: { path: string; schedule: string }[];
}

const vercel = JSON.parse(readFileSync('vercel.json', 'utf8')) as VercelJson;

describe('the schedule table', () => {
  it('vercel.json calls exactly the routes the table schedules on Vercel, on their schedules', () => {
    const declared = CRON_ROUTES.filter((route) => route.vercelSchedule !== null).map((route) => ({
      path: route.path,
      schedule: route.vercelSchedule,
    }));
    expect(vercel.crons).toEqual(declared);
  });

  it('every pass runs on Vercel: some route that Vercel calls runs it', () => {
    const onVercel = new Set(CRON_ROUTES.filter((r) => r.vercelSchedule !== null).flatMap((r) => [...r.passes]));
    expect([...onVercel].sort()).toEqual([...PASS_NAMES].sort());
  });

  it('every pass named has its work, and every route its file', () => {
    expect(Object.keys(SCHEDULED_PASSES).sort()).toEqual([...PASS_NAMES].sort());
    for (const { path } of CRON_ROUTES) expect(existsSync(`app${path}/route.ts`), path).toBe(true);
  });
});
