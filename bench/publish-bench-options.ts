import { parseArgs } from "node:util";

export type Scenario = "a" | "b" | "c";

export interface PublishBenchOptions {
  scenarios: Scenario[];
  /** a: measured rounds, each running the baseline and every candidate once. */
  rounds: number;
  /** a: jobs per run (baseline and candidates alike). */
  jobs: number;
  /** a: destination counts of the candidate shapes; products = jobs / destinations. */
  destinations: number[];
  /** a: publish worker processes of the candidates. */
  processes: number[];
  /** b: destinations, and jobs per destination. */
  bDestinations: number;
  bJobs: number;
  /** b: Redis connections allowed per worker process. */
  bMaxConnections: number;
  /**
   * c: jobs of the big destination, small destinations, jobs per small destination, and the limit
   * in seconds.
   */
  cBig: number;
  cSmall: number;
  cSmallJobs: number;
  cLimitSeconds: number;
  /** LOG_LEVEL of the worker processes. */
  logLevel: string;
  /** Longest wait for one run, in seconds. */
  timeoutSeconds: number;
}

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} must be a positive integer, got "${raw}"`);
  return value;
}

function intList(name: string, raw: string | undefined, fallback: number[]): number[] {
  if (raw === undefined) return fallback;
  return raw.split(",").map((part) => positiveInt(name, part.trim(), 0));
}

/** Flags win over BENCH_* variables, which win over the defaults. */
export function readPublishBenchOptions(
  argv = process.argv.slice(2),
  env = process.env,
): PublishBenchOptions {
  const { values } = parseArgs({
    args: argv.filter((arg) => arg !== "--"),
    options: {
      scenario: { type: "string" },
      rounds: { type: "string" },
      jobs: { type: "string" },
      destinations: { type: "string" },
      processes: { type: "string" },
      "b-destinations": { type: "string" },
      "b-jobs": { type: "string" },
      "b-max-connections": { type: "string" },
      "c-big": { type: "string" },
      "c-small": { type: "string" },
      "c-small-jobs": { type: "string" },
      "c-limit": { type: "string" },
      "log-level": { type: "string" },
      timeout: { type: "string" },
    },
  });
  const scenario = values.scenario ?? env.BENCH_SCENARIO ?? "all";
  if (!["a", "b", "c", "all"].includes(scenario))
    throw new Error(`--scenario must be a, b, c or all, got "${scenario}"`);
  const jobs = positiveInt("jobs", values.jobs ?? env.BENCH_JOBS, 10_000);
  const destinations = intList("destinations", values.destinations ?? env.BENCH_DESTINATIONS, [10]);
  for (const d of destinations) {
    if (jobs % d !== 0)
      throw new Error(`--jobs (${jobs}) must be a multiple of every --destinations value (${d})`);
  }
  return {
    scenarios: scenario === "all" ? ["a", "b", "c"] : [scenario as Scenario],
    rounds: positiveInt("rounds", values.rounds ?? env.BENCH_ROUNDS, 3),
    jobs,
    destinations,
    processes: intList("processes", values.processes ?? env.BENCH_PROCESSES, [1, 2]),
    bDestinations: positiveInt("b-destinations", values["b-destinations"], 1_000),
    bJobs: positiveInt("b-jobs", values["b-jobs"], 10),
    bMaxConnections: positiveInt("b-max-connections", values["b-max-connections"], 50),
    cBig: positiveInt("c-big", values["c-big"], 20_000),
    cSmall: positiveInt("c-small", values["c-small"], 50),
    cSmallJobs: positiveInt("c-small-jobs", values["c-small-jobs"], 10),
    cLimitSeconds: positiveInt("c-limit", values["c-limit"], 10),
    logLevel: values["log-level"] ?? env.BENCH_LOG_LEVEL ?? "info",
    timeoutSeconds: positiveInt("timeout", values.timeout, 600),
  };
}
