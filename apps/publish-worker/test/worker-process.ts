import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { FAST_WORKER_ENV } from "./pipeline-harness.js";

const root = fileURLToPath(new URL("../../..", import.meta.url));

export interface WorkerProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
}

/**
 * The real publish worker (`src/main.ts`) as a separate process, resolved once it has started.
 * `imports` are modules Node loads first (`--import`), as a deployment's NODE_OPTIONS may name.
 */
export async function spawnWorker(
  env: Record<string, string>,
  imports: string[] = [],
): Promise<WorkerProcess> {
  // Node itself with tsx as a loader (not the tsx CLI, which stands between the test and the
  // worker and answers signals on its own): the test's signals reach the worker.
  const preload = ["tsx", ...imports].flatMap((module) => ["--import", module]);
  const child = spawn(process.execPath, [...preload, "apps/publish-worker/src/main.ts"], {
    cwd: root,
    env: { ...process.env, ...FAST_WORKER_ENV, ...env, LOG_LEVEL: "info", HEALTH_PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    // Long enough for a start under tsx on a loaded machine (tracing's instrumentations add to it).
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`worker did not start:\n${output}`));
    }, 60_000);
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("publish worker started")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then((code) =>
      reject(new Error(`worker exited with ${code} before starting:\n${output}`)),
    );
  });
  return { child, exited };
}
