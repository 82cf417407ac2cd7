import type { BrowserServer } from "playwright-core";
import { chromiumLaunchOptions } from "./chromium-launch.js";

export interface RendererServerOptions {
  host: string;
  port: number;
  executablePath: string;
}

/** The websocket path the renderer serves; RENDERER_URL is ws://host:port + this. */
export const RENDERER_WS_PATH = "/chromium";

/**
 * Chromium alone, served over Playwright's websocket protocol, for `createRenderer({ rendererUrl })`
 * in another process: the renderer container holds no credentials. Each client's contexts close
 * when it disconnects; the browser stays.
 */
export async function startRendererServer(options: RendererServerOptions): Promise<BrowserServer> {
  const { chromium } = await import("playwright-core");
  return chromium.launchServer({
    ...chromiumLaunchOptions(options.executablePath),
    host: options.host,
    port: options.port,
    wsPath: RENDERER_WS_PATH,
  });
}
