// The breaker registry on its own, two registries standing for two worker processes on one
// Redis: what opossum counts, when a breaker opens for everyone, and the one half-open probe.
// These are the opossum behaviours the worker relies on (its error filter, the open event, the
// EOPENBREAKER refusal, close/open by hand), so an opossum upgrade that changes one fails here.
import { randomUUID } from "node:crypto";
import { GiveUpChannelError, ChannelWaitError, RetryableChannelError } from "@catalog/channels";
import { readBreakers, workerConnection, writeBreaker, type RedisClient } from "@catalog/queue";
import { redisKeyPrefix } from "@catalog/config";
import { deleteRedisPrefix, eventually, newRedisPrefix } from "@catalog/testing";
import { BreakerRegistry, type BreakerOptions } from "../src/breaker-registry.js";
import { stringContaining } from "@catalog/test-support/matchers";

const endpoint = {
  REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
  REDIS_CLUSTER: process.env.REDIS_CLUSTER === "true",
};
// Each test's registries get a prefix of their own under this run's, all removed at the end.
const runPrefix = newRedisPrefix();
let redis: RedisClient;
beforeAll(() => {
  redis = workerConnection(endpoint);
});
afterAll(async () => {
  await deleteRedisPrefix(endpoint, runPrefix);
  await redis.quit();
});

const OPTIONS: BreakerOptions = {
  errorThresholdPercentage: 50,
  volumeThreshold: 3,
  rollingCountTimeout: 10_000,
  resetTimeout: 300,
  probeTtlMs: 5_000,
};
/**
 * A reset time no test outlasts, for tests that assert what an open breaker holds back: with
 * 300 ms, a loaded machine lets the reset time pass between two assertions.
 */
const LONG_RESET = 60_000;
const registries: BreakerRegistry[] = [];
afterEach(() => {
  for (const registry of registries.splice(0)) registry.shutdown();
});

/** Two processes' registries sharing one prefix, and the destinations each saw open. */
function twoProcesses(resetTimeout = OPTIONS.resetTimeout) {
  const prefix = redisKeyPrefix(`${runPrefix}:${randomUUID()}`);
  const opened: string[][] = [[], []];
  const [a, b] = [0, 1].map(
    (i) =>
      new BreakerRegistry(redis, prefix, { ...OPTIONS, resetTimeout }, (id) => opened[i]!.push(id)),
  );
  registries.push(a!, b!);
  const shared = async (id: string) => (await readBreakers(redis, prefix, [id])).get(id)!;
  /** Moves the shared breaker's reset time to the past, as if it had run out. */
  const resetTimePasses = async (id: string) =>
    writeBreaker(redis, prefix, id, { ...(await shared(id)), retryAt: Date.now() - 1 });
  return { a: a!, b: b!, opened, shared, resetTimePasses };
}

const unwell = () =>
  new RetryableChannelError("standin answered 503: down", { channel: "standin", status: 503 });
const fail = (error: Error) => () => Promise.reject(error);
const ok = () => Promise.resolve("ok");

test("channel failures open the breaker for every process; give-ups and waits never count", async () => {
  const { a, b, opened, shared } = twoProcesses(LONG_RESET);
  // A channel that refuses every product, or asks to wait every time, is not unwell.
  const refusing = randomUUID();
  for (let i = 0; i < 5; i++) {
    await expect(
      a.fire(
        refusing,
        false,
        fail(new GiveUpChannelError("refused", { channel: "standin", kind: "validation" })),
      ),
    ).rejects.toThrow("refused");
    await expect(
      a.fire(
        refusing,
        false,
        fail(new ChannelWaitError("slow down", { channel: "standin", retryAfterMs: 1_000 })),
      ),
    ).rejects.toThrow("slow down");
  }
  expect(await a.gate(refusing)).toEqual({ pass: true, probe: false });
  expect((await shared(refusing)).state).toBe("closed");
  expect(opened[0]).toEqual([]);

  const destination = randomUUID();
  for (let i = 0; i < 3; i++)
    await expect(a.fire(destination, false, fail(unwell()))).rejects.toThrow("503");
  expect(opened[0]).toEqual([destination]);
  await eventually(async () => expect((await shared(destination)).state).toBe("open"));

  // This process's breaker refuses calls by itself, without reaching the channel.
  let reached = false;
  const refusal = await a
    .fire(destination, false, () => {
      reached = true;
      return ok();
    })
    .catch((error: unknown) => error);
  expect(BreakerRegistry.isOpenRejection(refusal)).toBe(true);
  expect(reached).toBe(false);
  expect(a.states()).toEqual({ closed: 1, open: 1, halfOpen: 0 });

  // The other process never saw a failure, and is held back all the same.
  const gate = await b.gate(destination);
  expect(gate).toMatchObject({ pass: false, reason: stringContaining("is open until") });
  expect(opened[1]).toEqual([]);
});

test("after the reset time exactly one process probes, and a successful probe closes the breaker everywhere", async () => {
  const { a, b, shared } = twoProcesses();
  const destination = randomUUID();
  for (let i = 0; i < 3; i++)
    await expect(a.fire(destination, false, fail(unwell()))).rejects.toThrow("503");
  await eventually(async () => expect((await shared(destination)).state).toBe("open"));
  await new Promise((resolve) => setTimeout(resolve, OPTIONS.resetTimeout + 50));

  const gates = await Promise.all([a.gate(destination), b.gate(destination)]);
  const probes = gates.filter((g) => g.pass && g.probe);
  expect(probes).toHaveLength(1);
  expect(gates.find((g) => !g.pass)).toMatchObject({
    reason: stringContaining("another worker is probing"),
  });
  expect((await shared(destination)).state).toBe("halfOpen");

  const prober = gates[0].pass ? a : b;
  expect(await prober.fire(destination, true, ok)).toBe("ok");
  expect((await shared(destination)).state).toBe("closed");
  expect(await a.gate(destination)).toEqual({ pass: true, probe: false });
  expect(await b.gate(destination)).toEqual({ pass: true, probe: false });
  expect(await a.fire(destination, false, ok)).toBe("ok");
});

test("a failed probe opens the breaker again, for another reset time", async () => {
  const { a, b, shared, resetTimePasses } = twoProcesses(LONG_RESET);
  const destination = randomUUID();
  for (let i = 0; i < 3; i++)
    await expect(a.fire(destination, false, fail(unwell()))).rejects.toThrow("503");
  await eventually(async () => expect((await shared(destination)).state).toBe("open"));
  await resetTimePasses(destination);

  // The probe falls to the process that never opened the breaker itself.
  expect(await b.gate(destination)).toEqual({ pass: true, probe: true });
  const before = Date.now();
  await expect(b.fire(destination, true, fail(unwell()))).rejects.toThrow("503");
  const reopened = await shared(destination);
  expect(reopened.state).toBe("open");
  expect(reopened.retryAt).toBeGreaterThanOrEqual(before + LONG_RESET);
  expect(await a.gate(destination)).toMatchObject({ pass: false });
  expect(b.states()).toEqual({ closed: 0, open: 1, halfOpen: 0 });
});
