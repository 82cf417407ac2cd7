// Runs the operator CLI as a real process, as an operator would. Asynchronously: a test's own
// servers (channel stand-ins) must keep answering while the CLI talks to them.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));
/** Each case starts real CLI processes (a few seconds each on a busy 2-core machine). */
export const SLOW = 120_000;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function cli(
  args: string[],
  input?: string,
  env: Record<string, string> = {},
): Promise<CliResult> {
  const child = spawn(`${root}node_modules/.bin/tsx`, [main, ...args], {
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end(input ?? "");
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
