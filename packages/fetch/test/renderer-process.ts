import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../..", import.meta.url));

export interface RendererProcess {
  child: ChildProcess;
  wsEndpoint: string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** A free loopback port: the renderer serves a fixed one, so a restarted renderer is found again. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/**
 * The import worker's renderer process (`apps/import-worker/src/renderer-main.ts`, through tsx),
 * with nothing in its environment but where Chromium is and the port: as deployed, no credentials.
 */
export async function startRendererProcess(
  port: number,
  chromiumPath: string,
): Promise<RendererProcess> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "apps/import-worker/src/renderer-main.ts"],
    {
      cwd: root,
      env: { PATH: process.env.PATH, RENDERER_PORT: String(port), CHROMIUM_PATH: chromiumPath },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const exited = once(child, "exit");
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => (output += String(chunk)));
  const wsEndpoint = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`renderer did not start:\n${output}`)), 60_000);
    child.stdout.on("data", (chunk: Buffer) => {
      output += String(chunk);
      const started = /"wsEndpoint":"([^"]+)"/.exec(output);
      if (started) {
        clearTimeout(timer);
        resolve(started[1]!);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`renderer exited before starting:\n${output}`));
    });
  });
  return {
    child,
    wsEndpoint,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
