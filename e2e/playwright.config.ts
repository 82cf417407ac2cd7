// The dashboard's browser tests: Debian's Chromium (Playwright cannot download its own browsers
// here) against the real gateway, workers, PostgreSQL, Redis and the channel stand-ins, which
// support/global-setup.ts starts once per run. `pnpm test:e2e`; scripts/test.sh runs them after
// jest.
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./support/paths.js";

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  globalSetup: "./support/global-setup.ts",
  outputDir: "../artifacts/test-results",
  // Two cores: two browsers at once, beside the gateway and the workers.
  workers: 2,
  fullyParallel: true,
  // A test that fails once is a defect to find, never one to run again until it passes.
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.E2E_JSON_REPORT
    ? [["list"], ["json", { outputFile: process.env.E2E_JSON_REPORT }]]
    : [["list"]],
  use: {
    browserName: "chromium",
    viewport: { width: 1280, height: 800 },
    trace: "retain-on-failure",
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
});
