export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

/** Runs `call` from `clients` concurrent loops for `durationMs` (bounded), timing every call. */
export async function runLoad(
  clients: number,
  durationMs: number,
  call: (client: number) => Promise<boolean>,
): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const ok = await call(client).catch(() => false);
        latencies.push(performance.now() - t0);
        if (!ok) errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

export function formatLoad(result: LoadResult): string {
  return (
    `${result.perSecond.toFixed(1)}/s over ${result.seconds.toFixed(1)} s (${result.requests} requests, ` +
    `${result.errors} errors), p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms`
  );
}
