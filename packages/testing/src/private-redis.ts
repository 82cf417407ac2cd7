import { spawn } from "node:child_process";
import { freePort } from "./free-port.js";

/**
 * A redis-server of a test's own on a free loopback port, with no persistence and the extra
 * arguments given (`--maxmemory-policy allkeys-lru`), for what the shared Redis must not be
 * changed to. `url` reaches it; `close()` stops it.
 */
export async function startPrivateRedis(
  args: string[] = [],
): Promise<{ url: string; close(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", ...args],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const killOnExit = () => child.kill("SIGKILL");
  process.on("exit", killOnExit);
  await new Promise<void>((resolve, reject) => {
    let log = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      log = (log + chunk).slice(-4000);
      if (/Ready to accept connections/.test(log)) resolve();
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}):\n${log}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    close: async () => {
      process.off("exit", killOnExit);
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
