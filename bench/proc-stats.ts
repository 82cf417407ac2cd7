// What a bench run cost, read from outside the processes: CPU time from /proc, Redis connections
// per process from `ss`, Redis's own counters from INFO, PostgreSQL's from pg_stat_*.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import type { Redis } from "ioredis";
import type pg from "pg";

const run = promisify(execFile);
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** User + system CPU seconds a process has used so far (0 when it is gone). */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  // Fields after the command name, which may itself contain spaces: utime and stime are fields 14
  // and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / TICKS_PER_SECOND;
}

async function childrenOf(pid: number): Promise<number[]> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, "utf8").catch(() => "");
  return text.split(/\s+/).filter(Boolean).map(Number);
}

/** CPU seconds of a process and its descendants (a tsx launcher and the server it runs). */
export async function treeCpuSeconds(pid: number): Promise<number> {
  let total = await cpuSeconds(pid);
  for (const child of await childrenOf(pid)) total += await treeCpuSeconds(child);
  return total;
}

/** Busy and total CPU seconds of the whole machine (every core, everyone's processes). */
export async function machineCpu(): Promise<{ busy: number; total: number }> {
  const line = (await readFile("/proc/stat", "utf8")).split("\n")[0] ?? "";
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] =
    line.split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy: busy / TICKS_PER_SECOND, total: (busy + idle + iowait) / TICKS_PER_SECOND };
}

/** Established TCP connections to Redis's port held by each of `pids` right now. */
export async function redisConnectionsByPid(
  pids: number[],
  port = 6379,
): Promise<Map<number, number>> {
  const counts = new Map(pids.map((pid) => [pid, 0]));
  const { stdout } = await run("ss", ["-tnpH", "state", "established", `( dport = :${port} )`]);
  for (const line of stdout.split("\n")) {
    // One socket is listed once, with every process holding it: count it once per process.
    const holders = new Set([...line.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1])));
    for (const pid of holders) if (counts.has(pid)) counts.set(pid, (counts.get(pid) ?? 0) + 1);
  }
  return counts;
}

/**
 * Samples `redisConnectionsByPid` every `intervalMs` until stopped; keeps the largest count per
 * pid.
 */
export function sampleRedisConnections(pids: number[], intervalMs = 250) {
  const max = new Map(pids.map((pid) => [pid, 0]));
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const counts = await redisConnectionsByPid(pids).catch(() => null);
      if (counts) {
        samples += 1;
        for (const [pid, n] of counts) max.set(pid, Math.max(max.get(pid) ?? 0, n));
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { max, samples };
    },
  };
}

/** Redis's CPU seconds and per-command call counts (client commands and those scripts run). */
export async function redisCounters(
  redis: Redis,
): Promise<{ cpu: number; calls: Map<string, number> }> {
  const text = await redis.info("all");
  const value = (name: string) =>
    Number(new RegExp(`^${name}:([\\d.]+)`, "m").exec(text)?.[1] ?? 0);
  const calls = new Map<string, number>();
  for (const m of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(m[1]!, Number(m[2]));
  return { cpu: value("used_cpu_user") + value("used_cpu_sys"), calls };
}

/** Transactions committed in one database, and CPU seconds of its backends (pid -> seconds). */
export async function postgresCounters(
  client: pg.Client,
  database: string,
): Promise<{ commits: number; backends: Map<number, number> }> {
  // Each backend publishes its counters at most once a second when idle: read after a pause.
  const { rows } = await client.query<{ n: string }>(
    "SELECT xact_commit AS n FROM pg_stat_database WHERE datname = $1",
    [database],
  );
  const pids = await client.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
    [database],
  );
  const backends = new Map<number, number>();
  for (const { pid } of pids.rows) backends.set(pid, await cpuSeconds(pid));
  return { commits: Number(rows[0]?.n ?? 0), backends };
}

/**
 * CPU seconds the backends used between two readings (a backend that started in between counts
 * whole).
 */
export function backendCpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

export function callsBetween(
  before: Map<string, number>,
  after: Map<string, number>,
): Map<string, number> {
  const delta = new Map<string, number>();
  for (const [name, calls] of after) {
    const d = calls - (before.get(name) ?? 0);
    if (d > 0) delta.set(name, d);
  }
  return delta;
}
