import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const tsx = fileURLToPath(new URL("../../../node_modules/.bin/tsx", import.meta.url));
const script = fileURLToPath(new URL("./test-run.ts", import.meta.url));

/** Runs test-run.ts with tsx and returns what it printed. */
export function runTestRun(command) {
  return execFileSync(tsx, [script, command], {
    encoding: "utf8",
    env: process.env,
    stdio: ["ignore", "pipe", "inherit"],
  });
}
