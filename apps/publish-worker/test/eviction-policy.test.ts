// BullMQ's jobs and the pipeline's locks are Redis keys: a Redis that evicts when full loses them
// without a word. Every process refuses to start on such a Redis (issue 33, item 6).
import { spawn } from "node:child_process";
import { EvictionPolicyError, requireNoEviction, workerConnection } from "@catalog/queue";
import { startPrivateRedis } from "@catalog/testing";

const connect = (url: string) => workerConnection({ REDIS_URL: url, REDIS_CLUSTER: false });
const quiet = { info: () => {}, warn: () => {} };

let lru: Awaited<ReturnType<typeof startPrivateRedis>>;
beforeAll(async () => {
  lru = await startPrivateRedis(["--maxmemory-policy", "allkeys-lru"]);
});
afterAll(() => lru.close());

test("a Redis that evicts keys is refused, with a message that says what to set", async () => {
  const redis = connect(lru.url);
  try {
    const refusal = requireNoEviction(redis, quiet);
    await expect(refusal).rejects.toThrow(EvictionPolicyError);
    await expect(refusal).rejects.toThrow(
      /maxmemory-policy allkeys-lru: it must be noeviction.*Set maxmemory-policy noeviction/,
    );
  } finally {
    redis.disconnect();
  }
});

test("the run's Redis (noeviction) passes", async () => {
  const redis = connect(process.env.REDIS_URL!);
  try {
    await expect(requireNoEviction(redis, quiet)).resolves.toBeUndefined();
  } finally {
    redis.disconnect();
  }
});

test("a managed Redis that forbids CONFIG is read through INFO; one that answers neither gets a warning and is used", async () => {
  const managed = await startPrivateRedis(["--maxmemory-policy", "noeviction"]);
  const admin = connect(managed.url);
  await admin.call("ACL", "SETUSER", "noconfig", "on", ">pw", "~*", "&*", "+@all", "-config");
  await admin.call(
    "ACL",
    "SETUSER",
    "silent",
    "on",
    ">pw",
    "~*",
    "&*",
    "+@all",
    "-config",
    "-info",
  );
  const url = (user: string) => managed.url.replace("redis://", `redis://${user}:pw@`);
  const noConfig = connect(url("noconfig"));
  const silent = connect(url("silent"));
  try {
    await expect(noConfig.call("CONFIG", "GET", "maxmemory-policy")).rejects.toThrow(/NOPERM/);
    await expect(requireNoEviction(noConfig, quiet)).resolves.toBeUndefined();
    const warnings: string[] = [];
    await requireNoEviction(silent, { info: () => {}, warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([expect.stringMatching(/does not say its maxmemory-policy/)]);
  } finally {
    noConfig.disconnect();
    silent.disconnect();
    admin.disconnect();
    await managed.close();
  }
});

test("the publish worker exits at start on an evicting Redis, saying why", async () => {
  // The evicting Redis is a single server, also when the suite runs on the Redis Cluster.
  const { REDIS_CLUSTER: _cluster, ...env } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", "apps/publish-worker/src/main.ts"], {
    env: { ...env, REDIS_URL: lru.url, LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  expect(code).toBe(1);
  expect(output).toMatch(/"level":60.*maxmemory-policy allkeys-lru: it must be noeviction/);
  expect(output).not.toContain("publish worker started");
}, 30_000);
