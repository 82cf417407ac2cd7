// The production build, run as it is deployed: compiled JavaScript and production dependencies
// only, built and started with plain Node of the image's version line (builtNode: named, not
// whatever node is first on PATH). Migrates a database of its own, seeds the demo org through the
// built CLI, then a product is published end to end through the built gateway and two built
// publish workers sharing one host (neither given a health port).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startStandinChannel, type StandinChannel } from "@catalog/channels/standins";
import { newKeyringSpec } from "@catalog/db";
import { withDatabaseName } from "@catalog/db/migrations";
import { deleteRedisPrefix, dropTestDatabase, eventually } from "@catalog/testing";
import {
  buildInto,
  builtNode,
  imageNodeVersion,
  startBuilt,
  type BuiltProcess,
} from "./built-processes.js";

const out = mkdtempSync(join(tmpdir(), "catalog-built-"));
const databaseUrl = withDatabaseName(
  process.env.DATABASE_URL!,
  `catalog_built_${randomBytes(4).toString("hex")}`,
);
const redisUrl = process.env.REDIS_URL!;
const prefix = `${process.env.REDIS_PREFIX}-built`;
const env = {
  DATABASE_URL: databaseUrl,
  REDIS_URL: redisUrl,
  REDIS_PREFIX: prefix,
  CREDENTIALS_KEYS: newKeyringSpec(),
  LOG_LEVEL: "info",
};
const processes: BuiltProcess[] = [];
let standin: StandinChannel;
let gatewayUrl: string;
let cookie: string;

async function runToEnd(script: string, args: string[]): Promise<string> {
  const child = startBuilt(out, script, env, args);
  const code = await new Promise<number | null>((resolve) => child.child.once("exit", resolve));
  if (code !== 0)
    throw new Error(`${script} ${args.join(" ")} exited with ${code}:\n${child.output()}`);
  return child.output();
}

/** A process's health address (metrics and probes), from its log. */
const healthOf = (p: BuiltProcess) => /"health":"(http:\/\/[^"]+)"/.exec(p.output())![1]!;

async function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${gatewayUrl}${path}`, {
    ...init,
    headers: { "content-type": "application/json", cookie, ...init.headers },
  });
}

async function items<T>(path: string): Promise<T[]> {
  return ((await (await api(path)).json()) as { items: T[] }).items;
}

const major = (version: string) => version.split(".")[0];

beforeAll(async () => {
  // Refused before building: a pass on another Node would say nothing about the image.
  if (major(builtNode.version) !== major(imageNodeVersion())) {
    throw new Error(
      `the built stack runs on the image's Node ${imageNodeVersion()} (Dockerfile), but ${builtNode.path} is ${builtNode.version}: ` +
        "run the tests through ./scripts/test.sh, which provides it, or set BUILT_NODE to a Node of that version",
    );
  }
  await buildInto(out);
  standin = await startStandinChannel();
  expect(await runToEnd("packages/db/dist/migrations/cli.js", ["deploy"])).toMatch(
    /Applied \d+ migrations/,
  );
  expect(
    await runToEnd("apps/cli/dist/main.js", ["seed-demo", "--standin-url", standin.url]),
  ).toContain("member@demo.local");

  const gateway = startBuilt(out, "apps/gateway/dist/server.js", {
    ...env,
    PORT: "0",
    LAB_MODE: "true",
  });
  processes.push(gateway);
  gatewayUrl = await gateway.waitFor(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
  for (let i = 0; i < 2; i++)
    processes.push(startBuilt(out, "apps/publish-worker/dist/main.js", env));
  processes.push(
    startBuilt(out, "apps/import-worker/dist/main.js", { ...env, BROWSER_FALLBACK: "false" }),
  );
  await Promise.all(processes.slice(1).map((p) => p.waitFor(/worker started/)));

  const session = await fetch(`${gatewayUrl}/api/auth/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "member@demo.local", password: "demo-member-password" }),
  });
  expect(session.status).toBe(200);
  cookie = session.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}, 300_000);

afterAll(async () => {
  // Every process stops on SIGTERM by itself, finishing its work, with exit code 0.
  const codes = await Promise.all(processes.map((p) => p.stop()));
  await standin?.close();
  await dropTestDatabase(databaseUrl).catch(() => {});
  await deleteRedisPrefix({ REDIS_URL: redisUrl, REDIS_CLUSTER: false }, prefix);
  rmSync(out, { recursive: true, force: true });
  expect(codes).toEqual(processes.map(() => 0));
}, 60_000);

it(`runs every process on the image's Node version line (here ${builtNode.version}, the image ${imageNodeVersion()})`, async () => {
  // Each process's own default metrics name the Node running it.
  const urls = processes.map(healthOf);
  for (const url of urls) {
    const text = await (await fetch(`${url}/metrics`)).text();
    const version = /^catalog_\w+_nodejs_version_info\{version="v([^"]+)"/m.exec(text)?.[1];
    expect({ url, version }).toEqual({ url, version: builtNode.version });
  }
  expect(major(builtNode.version)).toBe(major(imageNodeVersion()));
});

it("publishes a product through the built gateway and workers", async () => {
  const products = await items<{ id: string; sku: string }>("/api/products");
  const destinations = await items<{ id: string; channel: string }>("/api/destinations");
  const product = products[0]!;
  const destination = destinations.find((d) => d.channel === "standin")!;
  const publish = await api("/api/products/publish", {
    method: "POST",
    body: JSON.stringify({ productIds: [product.id], destinationAccountIds: [destination.id] }),
  });
  expect(publish.status).toBe(200);
  await eventually(async () => {
    const logs = await items<{ status: string }>(`/api/sync-logs?productId=${product.id}`);
    expect(logs.map((l) => l.status)).toEqual(["succeeded"]);
  }, 30_000);
  expect(standin.store("demo-store").listings.map((l) => l.sku)).toEqual([product.sku]);
}, 60_000);

it("serves the dashboard and answers readiness on every process, each worker on a port of its own", async () => {
  expect((await fetch(`${gatewayUrl}/`)).headers.get("content-type")).toContain("text/html");
  expect((await fetch(`${gatewayUrl}/readyz`)).status).toBe(200);
  const healthUrls = processes.slice(1).map(healthOf);
  expect(new Set(healthUrls).size).toBe(3);
  for (const url of healthUrls) expect((await fetch(`${url}/readyz`)).status).toBe(200);
});

it("serves the legal documents' texts, which the build lays out beside the gateway", async () => {
  const res = await fetch(`${gatewayUrl}/api/legal/documents/terms`);
  expect(res.status).toBe(200);
  expect(((await res.json()) as { html: string }).html).toContain("<h2>");
});

it("exposes Prometheus metrics on every process's health port, the gateway's apart from its public port", async () => {
  const scrape = async (url: string) => {
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    return res.text();
  };
  const total = (texts: string[], series: string) =>
    texts
      .flatMap((t) => t.split("\n"))
      .filter((l) => l.startsWith(`${series} `))
      .reduce((sum, l) => sum + Number(l.slice(series.length + 1)), 0);
  const [, publishA, publishB, importer] = processes;
  const publishers = await Promise.all([publishA!, publishB!].map((p) => scrape(healthOf(p))));
  // One product was published above, by one of the two workers.
  expect(
    total(publishers, 'catalog_publish_jobs_total{channel="standin",outcome="succeeded"}'),
  ).toBe(1);
  expect(
    total(publishers, 'catalog_channel_call_duration_seconds_count{channel="standin",result="ok"}'),
  ).toBe(1);
  for (const text of publishers) {
    expect(text).toContain('catalog_publish_queue_jobs{state="waiting"} 0');
    expect(text).toContain('catalog_breakers{state="open"} 0');
  }
  expect(await scrape(healthOf(importer!))).toContain(
    'catalog_import_queue_jobs{state="waiting"} 0',
  );
  expect((await fetch(`${gatewayUrl}/metrics`)).status).toBe(404);
  expect(await scrape(healthOf(processes[0]!))).toMatch(
    /catalog_http_requests_total\{method="POST",route="\/api\/products\/publish",status="200"\} 1/,
  );
});
