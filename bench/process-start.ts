// Start time and memory of each deployed process (issue 28, item 6): how long from spawning
// `node` until the process says it is ready, and its resident memory at that moment. What a
// process loads at start is most of both, so a process that loads code it never runs shows here.
//
//   pnpm exec tsx bench/process-start.ts [--runs 7] [--built]
//
// Without --built each process runs from the sources as the tests start them (`node --import tsx`);
// with --built from `pnpm build`'s output as the image starts them (`node --conditions=built`).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import {
  createTestDatabase,
  deleteRedisPrefix,
  dropTestDatabase,
  newRedisPrefix,
} from "@catalog/testing";
import { runBench } from "./cleanup-stack.js";

interface ProcessSpec {
  name: string;
  source: string;
  built: string;
  args: string[];
  /** A stdout line holding this means ready; absent: the process runs to its end (the CLI). */
  readyText?: string;
}

const PROCESSES: ProcessSpec[] = [
  {
    name: "gateway",
    source: "apps/gateway/src/server.ts",
    built: "apps/gateway/dist/server.js",
    args: [],
    readyText: "Server listening at",
  },
  {
    name: "import-worker",
    source: "apps/import-worker/src/main.ts",
    built: "apps/import-worker/dist/main.js",
    args: [],
    readyText: "import worker started",
  },
  {
    name: "publish-worker",
    source: "apps/publish-worker/src/main.ts",
    built: "apps/publish-worker/dist/main.js",
    args: [],
    readyText: "publish worker started",
  },
  {
    name: "cli help",
    source: "apps/cli/src/main.ts",
    built: "apps/cli/dist/main.js",
    args: ["help"],
  },
];

interface Sample {
  /** Wall time from spawn to ready (or to exit). */
  ms: number;
  /**
   * CPU time (user + system, every thread) the process used by then: steadier than wall time on a
   * shared machine.
   */
  cpuMs: number;
  rssBytes: number;
}

const root = new URL("..", import.meta.url);

async function statusBytes(pid: number, field: string): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

async function cpuMsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  // Fields after the command name: utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 1000) / TICKS_PER_SECOND;
}

/**
 * One start: time from spawn to the ready line, and VmRSS read right then (the process is
 * stopped with SIGTERM afterwards). A process that runs to its end (the CLI) is timed to its exit,
 * and its memory is the peak /usr/bin/time reports (it is gone before /proc could be read).
 */
function startOnce(
  spec: ProcessSpec,
  built: boolean,
  env: Record<string, string>,
): Promise<Sample> {
  const nodeArgs = built ? ["--conditions=built", spec.built] : ["--import", "tsx", spec.source];
  const [command, args] = spec.readyText
    ? [process.execPath, [...nodeArgs, ...spec.args]]
    : [
        "/usr/bin/time",
        ["-f", "maxrss-kb %M cpu-s %U %S", process.execPath, ...nodeArgs, ...spec.args],
      ];
  const started = process.hrtime.bigint();
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const elapsedMs = () => Number(process.hrtime.bigint() - started) / 1e6;
  let stdout = "";
  let stderr = "";
  return new Promise<Sample>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `${spec.name} was not ready within 60 s:\n${stdout.slice(0, 2000)}${stderr.slice(0, 2000)}`,
        ),
      );
    }, 60_000);
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!spec.readyText || !stdout.includes(spec.readyText)) return;
      const ms = elapsedMs();
      child.stdout.removeAllListeners("data");
      child.stdout.resume();
      const pid = child.pid ?? -1;
      void Promise.all([statusBytes(pid, "VmRSS"), cpuMsOf(pid)]).then(([rssBytes, cpuMs]) => {
        clearTimeout(timer);
        child.once("exit", () => resolve({ ms, cpuMs, rssBytes }));
        child.kill("SIGTERM");
      });
    });
    child.once("exit", (code) => {
      if (spec.readyText) {
        if (!stdout.includes(spec.readyText)) {
          clearTimeout(timer);
          reject(
            new Error(
              `${spec.name} exited (${code}) before it was ready:\n${stdout.slice(0, 2000)}${stderr.slice(0, 2000)}`,
            ),
          );
        }
        return;
      }
      clearTimeout(timer);
      const ms = elapsedMs();
      const used = /maxrss-kb (\d+) cpu-s ([\d.]+) ([\d.]+)/.exec(stderr);
      if (code !== 0 || !used)
        reject(new Error(`${spec.name} failed (${code}):\n${stderr.slice(0, 2000)}`));
      else
        resolve({
          ms,
          cpuMs: (Number(used[2]) + Number(used[3])) * 1000,
          rssBytes: Number(used[1]) * 1024,
        });
    });
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

await runBench(async (cleanup) => {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((arg) => arg !== "--"),
    options: { runs: { type: "string" }, built: { type: "boolean" } },
  });
  const runs = Number(values.runs ?? 7);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`--runs must be a positive integer, got "${values.runs}"`);
  const built = values.built === true;

  const baseUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/catalog";
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const databaseUrl = await cleanup.adopt(
    "drop the database",
    createTestDatabase(baseUrl, "start"),
    dropTestDatabase,
  );
  const prefix = newRedisPrefix();
  cleanup.add("delete the Redis prefix", () =>
    deleteRedisPrefix({ REDIS_URL: redisUrl, REDIS_CLUSTER: false }, prefix),
  );
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    HOST: "127.0.0.1",
    PORT: "0",
    HEALTH_PORT: "0",
    LOG_LEVEL: "info",
    // The publish worker refuses to start without keys to open credentials with.
    CREDENTIALS_KEYS: `k1:${randomBytes(32).toString("base64")}`,
  };

  console.log(
    `${built ? "built (node --conditions=built)" : "sources (node --import tsx)"}, ${runs} runs after one unrecorded, node ${process.version}`,
  );
  const samples = new Map<string, Sample[]>(PROCESSES.map((p) => [p.name, []]));
  for (let run = 0; run <= runs; run++) {
    // Each run starts at a different process, so drift of the machine is spread over all of them.
    const order = PROCESSES.map((_, i) => PROCESSES[(i + run) % PROCESSES.length]!);
    const line: string[] = [];
    for (const spec of order) {
      const sample = await startOnce({ ...spec }, built, env);
      if (run > 0) samples.get(spec.name)!.push(sample);
      line.push(
        `${spec.name} ${sample.ms.toFixed(0)} ms (cpu ${sample.cpuMs.toFixed(0)}) ${(sample.rssBytes / 2 ** 20).toFixed(1)} MB`,
      );
    }
    console.log(`${run === 0 ? "warm-up" : `run ${run}`}: ${line.join(", ")}`);
  }

  console.log(
    "\n| process | ready, ms (median) | min-max ms | CPU until ready, ms (median) | RSS when ready, MB (median) |",
  );
  console.log("|---|---|---|---|---|");
  for (const spec of PROCESSES) {
    const list = samples.get(spec.name)!;
    const ms = list.map((s) => s.ms);
    const cells = [
      median(ms).toFixed(0),
      `${Math.min(...ms).toFixed(0)}-${Math.max(...ms).toFixed(0)}`,
      median(list.map((s) => s.cpuMs)).toFixed(0),
      (median(list.map((s) => s.rssBytes)) / 2 ** 20).toFixed(1),
    ];
    console.log(`| ${spec.name} | ${cells.join(" | ")} |`);
  }
  console.log(
    "\nThe CLI runs `help` to its end: its figures are to its exit, its memory the peak (/usr/bin/time).",
  );
});
