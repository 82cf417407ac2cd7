import { spawn, type ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import type { CleanupStack } from "./cleanup-stack.js";

export interface NodeProcess {
  name: string;
  /** The process running the script itself (node with tsx as a loader, no launcher in between). */
  pid: number;
  /** Output lines logged at pino's warn level or above (40+), the first few kept. */
  problems: { count: number; first: string[] };
  alive(): boolean;
  stop(): Promise<void>;
}

const root = new URL("..", import.meta.url);

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Runs `node --import tsx <script>` (how the tests start the publish worker: no tsx CLI between the
 * bench and the process, so its pid is the script's own), in its own process group, and resolves
 * once a stdout line contains `readyText`. stdout is read and dropped (a worker logging at info
 * must never block on a full pipe); warnings and errors are counted, stderr is passed through.
 * Stopping sends SIGTERM (the worker finishes its jobs in flight) and SIGKILL after `graceMs`.
 */
export async function startNodeProcess(
  cleanup: CleanupStack,
  name: string,
  script: string,
  env: Record<string, string>,
  readyText: string,
  options: { timeoutMs?: number; graceMs?: number; nodeArgs?: string[] } = {},
): Promise<NodeProcess> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), "--import", "tsx", script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const problems = { count: 0, first: [] as string[] };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    signalGroup(child, "SIGTERM");
    const timedOut = await Promise.race([
      exited.then(() => false),
      sleep(options.graceMs ?? 30_000).then(() => true),
    ]);
    if (timedOut) {
      signalGroup(child, "SIGKILL");
      await exited;
    }
  };
  cleanup.add(`stop ${name}`, stop);

  let ready = false;
  let head = "";
  let partial = "";
  child.stderr.on("data", (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk.toString()}`));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new Error(`${name} did not start within ${options.timeoutMs ?? 60_000} ms:\n${head}`),
        ),
      options.timeoutMs ?? 60_000,
    );
    void exited.then(() => {
      clearTimeout(timer);
      if (!ready)
        reject(
          new Error(
            `${name} exited (${child.exitCode ?? child.signalCode}) before it started:\n${head}`,
          ),
        );
    });
    child.stdout.on("data", (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        if (!ready) {
          if (head.length < 4000) head += line + "\n";
          if (line.includes(readyText)) {
            ready = true;
            clearTimeout(timer);
            resolve();
          }
        }
        const level = /"level":(\d+)/.exec(line);
        if (level && Number(level[1]) >= 40) {
          problems.count += 1;
          if (problems.first.length < 5) problems.first.push(line.slice(0, 400));
        }
      }
    });
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  return { name, pid: child.pid ?? -1, problems, alive, stop };
}
