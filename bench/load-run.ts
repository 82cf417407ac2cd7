import autocannon, { type Options } from "autocannon";

export interface Target {
  name: string;
  /** The server's base URL. */
  url: string;
  /**
   * One path, or several taken in turn by each connection (the mixed search); the first is also
   * the one checked before measuring when `nextPath` is given.
   */
  paths: string[];
  /** A new path for every request, shared by all connections (runs of cache misses). */
  nextPath?: () => string;
  /** Connections for this target when not the run's (the latency runs of misses use a few). */
  connections?: number;
  headers?: Record<string, string>;
  /** The target ratios are taken against (the bare server's hello-world). */
  baseline?: boolean;
  /** The second ceiling: the bare server sending a cached page's body. */
  bodyCeiling?: boolean;
}

export interface Sample {
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  bytesPerResponse: number;
  /**
   * Every response that was not a 2xx, with its status (a 401 or 429 is fast and would flatter the
   * figures).
   */
  non2xx: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  /** CPU the server process spent per request (µs), when the bench measured it. */
  cpuUsPerRequest?: number;
}

export interface LoadSettings {
  connections: number;
  duration: number;
}

/** Settings are identical for every target: only the path (and the session cookie) differ. */
export async function runLoad(
  target: Target,
  settings: LoadSettings,
  duration = settings.duration,
): Promise<Sample> {
  const [first] = target.paths;
  if (first === undefined) throw new Error(`${target.name}: no path`);
  const options: Options = {
    url: target.url + first,
    connections: target.connections ?? settings.connections,
    // Pipelining would queue requests behind each other and hide per-request latency.
    pipelining: 1,
    duration,
    timeout: 10,
    headers: target.headers ?? {},
  };
  const { nextPath } = target;
  if (nextPath)
    options.requests = [
      { method: "GET", setupRequest: (request) => ({ ...request, path: nextPath() }) },
    ];
  else if (target.paths.length > 1)
    options.requests = target.paths.map((path) => ({ method: "GET", path }));
  const result = await autocannon(options);
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count ?? 0]),
  );
  return {
    requests: result.requests.total,
    reqPerSec: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    bytesPerResponse:
      result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
    non2xx: result.non2xx,
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}
