export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const ms = (value: number) => `${value.toFixed(0)} ms`;

/** `p50 …, p99 …, max …` of durations in ms sorted ascending. */
export const percentiles = (sorted: number[]) =>
  `p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? NaN)}`;

/**
 * Calls `send` `rate` times a second for `durationMs` (open loop: each on its schedule even if earlier ones lag), and
 * waits for them all.
 */
export async function paced(rate: number, durationMs: number, send: (index: number) => Promise<void>): Promise<void> {
  const started = Date.now();
  const sent: Promise<void>[] = [];
  for (let i = 0; i < (rate * durationMs) / 1000; i++) {
    const wait = started + (i * 1000) / rate - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sent.push(send(i));
  }
  await Promise.all(sent);
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
