// The browser tests' stack, once per run: a database and a Redis prefix of the run's own, the
// generic stand-in channel and the four channel stand-ins, a mail catcher, the gateway serving the dashboard's
// build, the import worker and the publish worker, each a child process on free ports, logging to
// artifacts/logs/. What the tests need to reach it travels in E2E_* environment variables (the
// test workers are started after this). The function it returns is the teardown: every process
// is stopped, then the database dropped and the prefix's keys deleted.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FullConfig } from "@playwright/test";
import { newKeyringSpec } from "@catalog/db";
import {
  createTestDatabase,
  deleteRedisPrefix,
  dropTestDatabase,
  freePorts,
  newRedisPrefix,
} from "@catalog/testing";
import { serveMailbox, startMailCatcher } from "@catalog/test-support/mail-catcher";
import { startNodeProcess, waitForReady, type Child } from "./processes.js";
import { ARTIFACTS, LOGS, ROOT, SCREENSHOTS, DASHBOARD_DIR, type StackEnv } from "./paths.js";

const START_TIMEOUT_MS = 60_000;

export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  rmSync(SCREENSHOTS, { recursive: true, force: true });
  rmSync(LOGS, { recursive: true, force: true });
  mkdirSync(SCREENSHOTS, { recursive: true });
  mkdirSync(LOGS, { recursive: true });
  if (!existsSync(join(DASHBOARD_DIR, "index.html"))) {
    throw new Error(
      `no dashboard build in ${DASHBOARD_DIR}: run \`pnpm dashboard:build\` first (scripts/test.sh does)`,
    );
  }

  const databaseBase = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/catalog";
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const children: Child[] = [];
  let databaseUrl: string | undefined;
  const prefix = newRedisPrefix();
  // The gateway's mail (password reset links) goes to a catcher in this process; the tests read it
  // over HTTP (E2E_MAILBOX_URL).
  const catcher = await startMailCatcher();
  const mailbox = await serveMailbox(catcher);

  const teardown = async () => {
    const stopping = performance.now();
    // Every process at once; each finishes its work in flight (SIGTERM), or is killed after 10 s.
    await Promise.all(
      children.map(async (child) => {
        const t = performance.now();
        await child.stop();
        const seconds = (performance.now() - t) / 1000;
        if (seconds > 2)
          console.log(`e2e teardown: ${child.name} took ${seconds.toFixed(1)} s to stop`);
      }),
    );
    if (children.length)
      console.log(
        `e2e teardown: processes stopped in ${((performance.now() - stopping) / 1000).toFixed(1)} s`,
      );
    await mailbox.close();
    await catcher.close();
    if (databaseUrl) await dropTestDatabase(databaseUrl);
    await deleteRedisPrefix({ REDIS_URL: redisUrl, REDIS_CLUSTER: false }, prefix);
  };

  const started = performance.now();
  const since = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  try {
    databaseUrl = await createTestDatabase(databaseBase, "e2e");
    const databaseReady = since();
    // Every port the stack's processes are told to take, found at once so that none is handed out
    // twice before the process given it binds it.
    const [gatewayPort, importHealth, webhookHealth, publishHealth] = await freePorts(4);
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const common: Record<string, string> = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "info",
      CREDENTIALS_KEYS: newKeyringSpec("e2e"),
      PUBLIC_URL: gatewayUrl,
    };
    const start = (
      name: string,
      script: string,
      env: Record<string, string> = {},
      args: string[] = [],
    ) => {
      const child = startNodeProcess({
        root: ROOT,
        logDir: LOGS,
        name,
        script,
        args,
        env: { ...common, ...env },
      });
      children.push(child);
      return child;
    };

    // The import worker needs nothing else that starts here: it starts with the stand-ins.
    const importWorker = start("import-worker", "apps/import-worker/src/main.ts", {
      LOCAL_INGEST: "true",
      HEALTH_PORT: String(importHealth),
      CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    });
    // Webhooks out: the sender beside the import worker (endpoints on loopback: the tests' receivers).
    const webhookSender = start("webhook-sender", "apps/import-worker/src/webhook-sender-main.ts", {
      WEBHOOK_PRIVATE_URLS: "true",
      HEALTH_PORT: String(webhookHealth),
    });
    const standin = start("standin", "packages/channels/src/standins/generic/standin-main.ts", {}, [
      "--port",
      "0",
    ]);
    const channelsEnvFile = join(ARTIFACTS, "channel-standins.env");
    rmSync(channelsEnvFile, { force: true });
    const channels = start(
      "channel-standins",
      "packages/channels/src/standins/channel-standins-main.ts",
      {},
      ["--port", "0", "--public-url", gatewayUrl, "--write-env", channelsEnvFile],
    );
    const standinUrl = (
      await standin.waitForOutput(/stand-in channel listening on (http:\/\/\S+)/, START_TIMEOUT_MS)
    )[1]!;
    // The process writes the env file, then prints one line per stand-in of its list and a last
    // "ready" line: from then on the file is whole.
    const listening = (
      await channels.waitForOutput(
        /((?:\w+ stand-in listening on http:\/\/\S+\r?\n)+)channel stand-ins ready/,
        START_TIMEOUT_MS,
      )
    )[1]!;
    const channelUrls = Object.fromEntries(
      [...listening.matchAll(/(\w+) stand-in listening on (http:\/\/\S+)/g)].map((m) => [
        m[1]!,
        m[2]!,
      ]),
    );
    const channelsEnv = Object.fromEntries(
      readFileSync(channelsEnvFile, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => {
          const at = line.indexOf("=");
          return [line.slice(0, at), line.slice(at + 1)];
        }),
    );

    const standinsReady = since();
    const gateway = start("gateway", "apps/gateway/src/server.ts", {
      ...channelsEnv,
      HOST: "127.0.0.1",
      PORT: String(gatewayPort),
      DASHBOARD_DIR,
      // Every test's browser comes from 127.0.0.1: one client address for the whole suite, which
      // the per-address limit (600 a minute) was never meant for. The login limits stay as shipped.
      RATE_LIMIT_MAX: "1000000",
      // Likewise password reset requests per address (each test's own addresses keep their limit).
      PASSWORD_RESET_ADDRESS_RATE_LIMIT_MAX: "1000000",
      // Imports from the tests' page server on loopback; stores on loopback (WooCommerce's
      // stand-in).
      LOCAL_INGEST: "true",
      CHANNEL_PRIVATE_URLS: "true",
      WEBHOOK_PRIVATE_URLS: "true",
      LAB_MODE: "true",
      SMTP_URL: catcher.url,
      MAIL_FROM: "Catalog <catalog@e2e.test>",
      NODE_OPTIONS: "--max-old-space-size=256",
    });
    const publishWorker = start("publish-worker", "apps/publish-worker/src/main.ts", {
      ...channelsEnv,
      CHANNEL_PRIVATE_URLS: "true",
      HEALTH_PORT: String(publishHealth),
      PUBLISH_LANES: "4",
      // Retries and breakers on a scale a test can watch (the shipped back-off starts at 2 s).
      PUBLISH_ATTEMPTS: "3",
      PUBLISH_BACKOFF_MS: "200",
      BREAKER_RESET_MS: "3000",
      RECOVERY_INTERVAL_MS: "1000",
    });
    await Promise.all([
      waitForReady(gateway, `${gatewayUrl}/readyz`, START_TIMEOUT_MS),
      waitForReady(importWorker, `http://127.0.0.1:${importHealth}/readyz`, START_TIMEOUT_MS),
      waitForReady(webhookSender, `http://127.0.0.1:${webhookHealth}/readyz`, START_TIMEOUT_MS),
      waitForReady(publishWorker, `http://127.0.0.1:${publishHealth}/readyz`, START_TIMEOUT_MS),
    ]);

    console.log(
      `e2e stack ready in ${since()} (database ${databaseReady}, stand-ins ${standinsReady}); logs in ${LOGS}`,
    );

    const stack: StackEnv = {
      E2E_BASE_URL: gatewayUrl,
      E2E_DATABASE_URL: databaseUrl,
      E2E_REDIS_URL: redisUrl,
      E2E_REDIS_PREFIX: prefix,
      E2E_CREDENTIALS_KEYS: common.CREDENTIALS_KEYS!,
      E2E_STANDIN_URL: standinUrl,
      E2E_CHANNEL_URLS: JSON.stringify(channelUrls),
      E2E_MAILBOX_URL: mailbox.url,
    };
    Object.assign(process.env, stack);
    writeFileSync(
      join(ARTIFACTS, "stack.json"),
      `${JSON.stringify({ ...stack, E2E_CREDENTIALS_KEYS: "[redacted]" }, null, 2)}\n`,
    );
    return teardown;
  } catch (error) {
    await teardown().catch((cleanup: Error) =>
      console.error(`cleaning up after a failed setup: ${cleanup.message}`),
    );
    throw error;
  }
}
