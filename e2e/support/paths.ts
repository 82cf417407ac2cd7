import { fileURLToPath } from "node:url";
import { join } from "node:path";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const ARTIFACTS = join(ROOT, "artifacts");
export const SCREENSHOTS = join(ARTIFACTS, "screenshots");
export const LOGS = join(ARTIFACTS, "logs");
export const DASHBOARD_DIR = process.env.DASHBOARD_DIR ?? join(ROOT, "apps/dashboard/dist");
export const EXTENSION_DIR = process.env.EXTENSION_DIR ?? join(ROOT, "apps/extension/dist/chrome");

/** Debian's Chromium: Playwright cannot download its own browsers here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** As root Chromium needs --no-sandbox; the rest keep it from reaching for the internet. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** What the global setup hands the tests, through the environment. */
export interface StackEnv {
  E2E_BASE_URL: string;
  E2E_DATABASE_URL: string;
  E2E_REDIS_URL: string;
  E2E_REDIS_PREFIX: string;
  E2E_CREDENTIALS_KEYS: string;
  /** The generic stand-in channel (destinations of channel "standin"; faults over /_control). */
  E2E_STANDIN_URL: string;
  /** JSON: the four channel stand-ins' URLs by channel name. */
  E2E_CHANNEL_URLS: string;
  /** The mail catcher's messages: GET <url>/messages?to=<address> (JSON, oldest first). */
  E2E_MAILBOX_URL: string;
}

export function stackEnv(): StackEnv {
  const read = (name: keyof StackEnv) => {
    const value = process.env[name];
    if (!value)
      throw new Error(
        `${name} is not set: the browser tests run through e2e/playwright.config.ts, whose global setup starts the stack`,
      );
    return value;
  };
  return {
    E2E_BASE_URL: read("E2E_BASE_URL"),
    E2E_DATABASE_URL: read("E2E_DATABASE_URL"),
    E2E_REDIS_URL: read("E2E_REDIS_URL"),
    E2E_REDIS_PREFIX: read("E2E_REDIS_PREFIX"),
    E2E_CREDENTIALS_KEYS: read("E2E_CREDENTIALS_KEYS"),
    E2E_STANDIN_URL: read("E2E_STANDIN_URL"),
    E2E_CHANNEL_URLS: read("E2E_CHANNEL_URLS"),
    E2E_MAILBOX_URL: read("E2E_MAILBOX_URL"),
  };
}
