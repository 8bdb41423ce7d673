// GET /api/health — liveness; also the trivial route the benchmarks compare against
export function GET(): Response {
  return Response.json({ ok: true });
}
