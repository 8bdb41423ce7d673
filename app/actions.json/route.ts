// GET /actions.json — tells wallets and blink clients that /@tag pages have a "pay @tag" Action
import { json } from '@/lib/http/handler';
import { actionPreflight, withActionHeaders } from '@/lib/http/action-route';
import { ACTIONS_JSON } from '@/lib/features/payments/actions-json';

export const dynamic = 'force-dynamic';

export const GET = withActionHeaders(async () =>
  json(ACTIONS_JSON, { headers: { 'Cache-Control': 'public, max-age=3600' } }),
);

export const OPTIONS = () => actionPreflight();
