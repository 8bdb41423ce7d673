/** Where the lines come from: an app's process (devstack/app.ts) or this one's (../support/captured-logs.ts). */
type LogSource = { output(): string };

/** The JSON log lines an app wrote so far (other output left out). */
export function logLines(app: LogSource): Record<string, unknown>[] {
  return app
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

/** Waits until the app has logged a line that `match` accepts (its log is written off the request's path). */
export async function loggedLine(
  app: LogSource,
  match: (line: Record<string, unknown>) => boolean,
  timeoutMs = 5000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = logLines(app).find(match);
    if (line) return line;
    if (Date.now() > deadline)
      throw new Error(`no such log line within ${timeoutMs} ms; the app logged:\n${app.output().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The value of one sample in Prometheus text (`name{labels} value`), 0 when absent. */
export function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name} `) && Object.keys(labels).length === 0)
      return Number(line.slice(name.length + 1).trim());
    if (!line.startsWith(`${name}{`)) continue;
    const close = line.lastIndexOf('}');
    const body = line.slice(name.length + 1, close);
    const found = Object.fromEntries([...body.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(line.slice(close + 1).trim());
  }
  return 0;
}
