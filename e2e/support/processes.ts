// Child processes of the browser tests' stack: each logs to artifacts/logs/<name>.log, can be
// waited on for a line it prints or a URL that answers, and is stopped with SIGTERM, then SIGKILL.
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import { join } from "node:path";

export interface Child {
  name: string;
  process: ChildProcess;
  logFile: string;
  /** Resolves with the first match of `pattern` in the process's output (stdout or stderr). */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** Sends SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<ChildProcess>();
// Whatever ends the runner (an uncaught error, Ctrl-C past the teardown) takes its children along.
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/**
 * Runs `node --import tsx <script> ...args` from `root`, its output teed to `<logDir>/<name>.log`.
 */
export function startNodeProcess(options: {
  root: string;
  logDir: string;
  name: string;
  script: string;
  args?: string[];
  env: Record<string, string>;
}): Child {
  mkdirSync(options.logDir, { recursive: true });
  const logFile = join(options.logDir, `${options.name}.log`);
  const log = createWriteStream(logFile);
  // node with tsx as a loader, not the tsx CLI: signals reach the process itself (as in
  // scripts/run.sh).
  const child = spawn(
    process.execPath,
    ["--import", "tsx", options.script, ...(options.args ?? [])],
    {
      cwd: options.root,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  running.add(child);
  let output = "";
  const watchers = new Set<() => void>();
  const exited = new Promise<void>((resolve) => {
    child.once("exit", (code, signal) => {
      running.delete(child);
      log.end(`\n[${options.name} exited: ${signal ?? `code ${code}`}]\n`);
      for (const notify of watchers) notify();
      resolve();
    });
  });
  const onData = (chunk: Buffer) => {
    log.write(chunk);
    // Only the start of the output is searched (what a process prints when it is ready).
    if (output.length < 64 * 1024) output += chunk.toString("utf8");
    for (const notify of watchers) notify();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);

  return {
    name: options.name,
    process: child,
    logFile,
    waitForOutput(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            done(
              new Error(
                `${options.name} printed nothing matching ${pattern} within ${timeoutMs} ms (see ${logFile})`,
              ),
            ),
          timeoutMs,
        );
        const check = () => {
          const match = output.match(pattern);
          if (match) return done(null, match);
          if (child.exitCode !== null || child.signalCode !== null)
            done(new Error(`${options.name} exited before it printed ${pattern} (see ${logFile})`));
        };
        const done = (error: Error | null, match?: RegExpMatchArray) => {
          clearTimeout(timer);
          watchers.delete(check);
          if (error) reject(error);
          else resolve(match!);
        };
        watchers.add(check);
        check();
      });
    },
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `url` until it answers 200, or fails naming the process's log. */
export async function waitForReady(child: Child, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null || child.process.signalCode !== null)
      throw new Error(`${child.name} exited while starting (see ${child.logFile})`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    // Polling a process that is starting: nothing to wait on but its port.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `${child.name} was not ready at ${url} within ${timeoutMs} ms: ${last} (see ${child.logFile})`,
  );
}
