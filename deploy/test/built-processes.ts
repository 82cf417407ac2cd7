// Starts processes from the production build (scripts/build.mjs --out) with plain Node, as a
// container or an operator does: no tsx, no dev dependencies, the "built" export condition.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/** The Node the image ships: the version in the Dockerfile's NODE_IMAGE. */
export function imageNodeVersion(): string {
  const match = /^ARG NODE_IMAGE=node:(\d+\.\d+\.\d+)-/m.exec(
    readFileSync(`${repoRoot}Dockerfile`, "utf8"),
  );
  if (!match)
    throw new Error("the Dockerfile names no NODE_IMAGE of the form node:<version>-<variant>");
  return match[1]!;
}

/**
 * The Node binary that builds and runs the built processes, named rather than found on PATH:
 * BUILT_NODE when set, otherwise the one running the tests (scripts/test.sh makes that the
 * version in .node-version, the image's). `version` is what it reports itself.
 */
export const builtNode = {
  path: process.env.BUILT_NODE ?? process.execPath,
  get version(): string {
    return (builtNodeVersion ??= execFileSync(this.path, ["-p", "process.versions.node"], {
      encoding: "utf8",
    }).trim());
  },
};
let builtNodeVersion: string | undefined;

/**
 * PATH with the built Node's folder first, so that what a process starts by name (pnpm, node) runs
 * under it too.
 */
const builtPath = [dirname(builtNode.path), process.env.PATH ?? ""].join(delimiter);

/**
 * Whether the source that scripts/build.mjs compiles to `path` (`<pkg>/dist/x.js`, from
 * `<pkg>/src/x.ts`) exists.
 */
export const hasSource = (path: string): boolean =>
  existsSync(`${repoRoot}${path.replace("/dist/", "/src/").replace(/\.js$/, ".ts")}`);

/** Runs the production build into `out`; resolves with its output, rejects naming what failed. */
export function buildInto(out: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(builtNode.path, ["scripts/build.mjs", "--out", out], {
      cwd: repoRoot,
      env: { ...process.env, PATH: builtPath },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`the build failed (${code}):\n${output}`)),
    );
  });
}

export interface BuiltProcess {
  child: ChildProcess;
  output(): string;
  /** Waits for `pattern` in the output; the first capture group is returned. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Only what a deployment would set: nothing of the test runner's environment leaks in. */
export function startBuilt(
  dir: string,
  script: string,
  env: Record<string, string>,
  args: string[] = [],
): BuiltProcess {
  const child = spawn(builtNode.path, ["--conditions=built", script, ...args], {
    cwd: dir,
    env: { PATH: builtPath, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout.on("data", append);
  child.stderr.on("data", append);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      for (const listener of listeners) listener();
      resolve(code);
    }),
  );
  return {
    child,
    output: () => output,
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output);
          if (match) done(() => resolve(match[1] ?? match[0]));
          else if (child.exitCode !== null || child.signalCode !== null)
            done(() =>
              reject(
                new Error(
                  `${script} exited (${child.exitCode ?? child.signalCode}) before ${pattern}:\n${output}`,
                ),
              ),
            );
        };
        const timer = setTimeout(
          () =>
            done(() =>
              reject(new Error(`${script}: no ${pattern} within ${timeoutMs} ms:\n${output}`)),
            ),
          timeoutMs,
        );
        const done = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        check();
      });
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
