import { spawn, type ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "@catalog/testing";
import type { CleanupStack } from "./cleanup-stack.js";

export interface ChildServer {
  name: string;
  url: string;
  /** The tsx launcher's pid; the server itself is its child process. */
  pid: number;
  stop(): Promise<void>;
}

// tsx runs the script in a grandchild process: signal the whole group so nothing is orphaned.
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  signalGroup(child, "SIGTERM");
  const timedOut = await Promise.race([exited.then(() => false), sleep(5000).then(() => true)]);
  if (timedOut) {
    signalGroup(child, "SIGKILL");
    await exited;
  }
}

/**
 * Starts `script` under tsx (a built `.js` file: with node and `--conditions=built`, as the image
 * starts it) in its own process group (so a Ctrl-C reaches the bench, which then
 * stops it) and waits until `readyPath` answers 200. Output is passed through, so a crash or a
 * warning shows up in the bench log. The server gets its port as `PORT`; a server that reads it
 * from another variable gets `env` as a function of the port.
 */
export async function startChildServer(
  cleanup: CleanupStack,
  name: string,
  script: string,
  env: Record<string, string> | ((port: number) => Record<string, string>),
  readyPath: string,
  timeoutMs = 60_000,
): Promise<ChildServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const [command, args] = script.endsWith(".js")
    ? [process.execPath, ["--conditions=built", script]]
    : ["node_modules/.bin/tsx", [script]];
  const child = spawn(command, args, {
    cwd: new URL("..", import.meta.url),
    env: {
      ...process.env,
      ...(typeof env === "function" ? env(port) : env),
      HOST: "127.0.0.1",
      PORT: String(port),
    },
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  const server: ChildServer = { name, url, pid: child.pid ?? -1, stop: () => stopChild(child) };
  cleanup.add(`stop ${name}`, () => server.stop());

  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before it was ready`);
    }
    try {
      const response = await fetch(url + readyPath);
      if (response.ok) return server;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(200);
  }
  throw new Error(`${name} not ready within ${timeoutMs} ms: ${last}`);
}
