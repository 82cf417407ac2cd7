// The renderer process (issue 33): Chromium alone, served on RENDERER_HOST:RENDERER_PORT for the
// import worker (RENDERER_URL), in a container of its own that gets no credentials. It refuses to
// start with any in its environment. The worker keeps the filtering proxy; every page's traffic
// goes through it (packages/fetch/README.md).
import { loadRendererConfig } from "@catalog/config/renderer";
import { startRendererServer } from "@catalog/fetch";
import { pino } from "pino";

const log = pino({ base: { process: "renderer" } });
let config;
try {
  config = loadRendererConfig();
} catch (error) {
  log.fatal((error as Error).message);
  process.exit(1);
}
log.level = config.LOG_LEVEL;
const server = await startRendererServer({
  host: config.RENDERER_HOST,
  port: config.RENDERER_PORT,
  executablePath: config.CHROMIUM_PATH,
}).catch((error: Error) => {
  log.fatal({ err: error }, "Chromium could not start");
  process.exit(1);
});
// A browser that dies takes the process with it: the container restarts, and the worker connects
// to the new one on its next render.
let closing = false;
server.on("close", () => {
  if (closing) return;
  log.error("Chromium stopped");
  process.exit(1);
});
log.info({ wsEndpoint: server.wsEndpoint() }, "renderer started");

async function shutdown(signal: string) {
  log.info({ signal }, "shutting down");
  closing = true;
  await server.close();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
