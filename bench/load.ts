// Drives load with autocannon: a fixed number of connections for a fixed time, cycling through a
// set of requests (different URLs and bodies, so no cache sees the same request twice in a row).
// Latencies are kept per response from autocannon's own timer at full precision (its histogram
// rounds to whole milliseconds, too coarse for sub-millisecond reads).
import autocannon, { type AutocannonRequest } from "autocannon";

export interface LoadResult {
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx responses, connection errors and timeouts. */
  errors: number;
  /** Response counts by status, for the log when something failed. */
  statuses: Record<string, number>;
  /**
   * CPU time (user + system) the server's process tree spent per measured request, in ms. Unlike
   * throughput it hardly moves with what else the machine runs, so it compares two builds fairly.
   */
  cpuMsPerRequest: number;
}

function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index]!;
}

async function drive(url: string, requests: AutocannonRequest[], connections: number, seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const instance = autocannon({ url, connections, duration: seconds, timeout: 30, requests });
  instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  });
  const result = await instance;
  const sorted = Float64Array.from(latencies).sort();
  const total = result.requests.total;
  return {
    cpuMsPerRequest: 0,
    requests: total,
    rps: total / (result.duration || seconds),
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    errors: result.errors + result.non2xx,
    statuses,
  };
}

/**
 * A short unmeasured warm-up (JIT, pools, plan caches), then the measured run. `cpuMs` reads the
 * server's CPU time so far (@parley/testing/processes treeCpuMs).
 */
export async function measure(
  url: string,
  requests: AutocannonRequest[],
  options: { connections: number; seconds: number; warmupSeconds: number; cpuMs: () => number },
): Promise<LoadResult> {
  if (options.warmupSeconds > 0) await drive(url, requests, options.connections, options.warmupSeconds);
  const cpuBefore = options.cpuMs();
  const result = await drive(url, requests, options.connections, options.seconds);
  const spent = options.cpuMs() - cpuBefore;
  return { ...result, cpuMsPerRequest: result.requests > 0 ? spent / result.requests : 0 };
}
