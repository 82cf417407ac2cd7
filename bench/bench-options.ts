import { parseArgs } from "node:util";

export interface BenchOptions {
  rounds: number;
  /** Seconds per measured run. */
  duration: number;
  connections: number;
  /** Seconds of unrecorded load per target before round 1 (JIT, pools, PostgreSQL cache). */
  warmup: number;
  products: number;
  /**
   * Other members' sessions the gateway holds before the runs (each checked once), as a busy
   * instance does: what a read of its in-process caches costs when they are not nearly empty.
   */
  sessions: number;
  /** Run the gateway from `pnpm build`'s output, as the image does, instead of its sources under tsx. */
  built: boolean;
}

function positiveInt(
  name: string,
  flag: string | undefined,
  env: string | undefined,
  fallback: number,
): number {
  const raw = flag ?? env;
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} must be a positive integer, got "${raw}"`);
  return value;
}

function nonNegativeInt(
  name: string,
  flag: string | undefined,
  env: string | undefined,
  fallback: number,
): number {
  return (flag ?? env) === "0" ? 0 : positiveInt(name, flag, env, fallback);
}

/** Flags win over BENCH_* variables, which win over the defaults. */
export function readBenchOptions(argv = process.argv.slice(2), env = process.env): BenchOptions {
  const { values } = parseArgs({
    // pnpm forwards a literal "--" when one is typed before the flags.
    args: argv.filter((arg) => arg !== "--"),
    options: {
      rounds: { type: "string" },
      duration: { type: "string" },
      connections: { type: "string" },
      warmup: { type: "string" },
      products: { type: "string" },
      sessions: { type: "string" },
      built: { type: "boolean" },
    },
  });
  return {
    rounds: positiveInt("rounds", values.rounds, env.BENCH_ROUNDS, 5),
    duration: positiveInt("duration", values.duration, env.BENCH_DURATION, 10),
    connections: positiveInt("connections", values.connections, env.BENCH_CONNECTIONS, 50),
    warmup: positiveInt("warmup", values.warmup, env.BENCH_WARMUP, 3),
    products: positiveInt("products", values.products, env.BENCH_PRODUCTS, 100_000),
    sessions: nonNegativeInt("sessions", values.sessions, env.BENCH_SESSIONS, 0),
    built: values.built ?? env.BENCH_BUILT === "1",
  };
}
