// The rate gate's decisions, read from a fake clock rather than timed: a destination whose
// channel declares a limit (Amazon) is held to it per destination account, the others keep
// DESTINATION_RATE_PER_SECOND exactly as before.
import { randomUUID } from "node:crypto";
import { createChannelRegistry, type ChannelRateLimit } from "@catalog/channels";
import { loadPublishWorkerConfig } from "@catalog/config/publish-worker";
import { newKeyringSpec } from "@catalog/db";
import { workerConnection, type RedisClient } from "@catalog/queue";
import { RateGate, windowLimit } from "../src/rate-gate.js";

let redis: RedisClient;
beforeAll(() => {
  redis = workerConnection({
    REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    REDIS_CLUSTER: process.env.REDIS_CLUSTER === "true",
  });
});
afterAll(() => redis.quit());

const START = 1_800_000_000_000;
const channelOfDestination: Record<string, string> = {
  "amazon-1": "amazon",
  "amazon-2": "amazon",
  "shopify-1": "shopify",
};

function gate(perSecond: number, channelLimits: Map<string, ChannelRateLimit>) {
  const clock = { now: START };
  const lookups: string[] = [];
  const rate = new RateGate(redis, `test-rate-${randomUUID()}`, {
    perSecond,
    channelLimits,
    now: () => clock.now,
    channelOf: async (id) => {
      lookups.push(id);
      return channelOfDestination[id] ?? null;
    },
  });
  /** How many of `n` takes in a row the gate lets through, and when it says to come back. */
  const takes = async (destinationId: string, n: number) => {
    const answers: (number | null)[] = [];
    for (let i = 0; i < n; i++) answers.push(await rate.take(destinationId));
    return {
      allowed: answers.filter((a) => a === null).length,
      until: answers.find((a) => a !== null) ?? null,
    };
  };
  return { clock, lookups, takes };
}

const amazonOnly = new Map([["amazon", { perSecond: 1, burst: 2 }]]);

test("Amazon's definition declares its limit, which the registry hands the worker; the other channels declare none", () => {
  const channels = createChannelRegistry(
    loadPublishWorkerConfig({ CREDENTIALS_KEYS: newKeyringSpec() }).channels,
  ).channels();
  const limits = Object.fromEntries(channels.map((c) => [c.channel, c.rateLimit]));
  expect(limits.amazon).toEqual({ perSecond: 1, burst: 2 });
  for (const [name, limit] of Object.entries(limits))
    if (name !== "amazon") expect(limit).toBeNull();
});

test("a channel's declared limit holds its destination to it per second, and the next window lets it go again", async () => {
  // The worker's setting would allow 50 a second; Amazon's own limit wins for its destinations.
  const { clock, takes } = gate(50, amazonOnly);
  expect(await takes("amazon-1", 5)).toEqual({ allowed: 1, until: START + 1_000 });
  clock.now = START + 999;
  expect(await takes("amazon-1", 3)).toEqual({ allowed: 0, until: START + 1_000 });
  clock.now = START + 1_000;
  expect(await takes("amazon-1", 3)).toEqual({ allowed: 1, until: START + 2_000 });
});

test("the limit is per destination account: each Amazon destination has its own", async () => {
  const { takes } = gate(0, amazonOnly);
  expect(await takes("amazon-1", 3)).toMatchObject({ allowed: 1 });
  expect(await takes("amazon-2", 3)).toMatchObject({ allowed: 1 });
});

test("other channels keep the worker's setting, and none at all when it is 0", async () => {
  const { takes } = gate(3, amazonOnly);
  expect(await takes("shopify-1", 10)).toEqual({ allowed: 3, until: START + 1_000 });
  // A destination whose channel could not be found (deleted meanwhile) keeps the setting too.
  expect(await takes("unknown-1", 10)).toEqual({ allowed: 3, until: START + 1_000 });
  const unlimited = gate(0, amazonOnly);
  expect(await unlimited.takes("shopify-1", 50)).toEqual({ allowed: 50, until: null });
});

test("without declared limits the gate asks for no channel and counts as before", async () => {
  const { takes, lookups } = gate(2, new Map());
  expect(await takes("amazon-1", 5)).toEqual({ allowed: 2, until: START + 1_000 });
  expect(lookups).toEqual([]);
});

test("a destination's channel is looked up once", async () => {
  const { takes, lookups } = gate(0, amazonOnly);
  await takes("amazon-1", 4);
  expect(lookups).toEqual(["amazon-1"]);
});

test("a window allows the per-second limit, at most half the burst, and at least one", () => {
  expect(windowLimit({ perSecond: 1, burst: 2 })).toBe(1);
  expect(windowLimit({ perSecond: 5, burst: 10 })).toBe(5);
  expect(windowLimit({ perSecond: 5, burst: 4 })).toBe(2);
  expect(windowLimit({ perSecond: 3, burst: 1 })).toBe(1);
});

test("a smaller burst holds each window to half of it", async () => {
  const { takes } = gate(0, new Map([["amazon", { perSecond: 5, burst: 4 }]]));
  expect(await takes("amazon-1", 6)).toEqual({ allowed: 2, until: START + 1_000 });
});

test("the window slides: takes late in one second still count early in the next", async () => {
  const { clock, takes } = gate(3, new Map());
  clock.now = START + 900;
  expect(await takes("shopify-1", 3)).toEqual({ allowed: 3, until: null });
  // A fixed window would let three more through here: six within 100 ms.
  clock.now = START + 1_000;
  expect(await takes("shopify-1", 2)).toEqual({ allowed: 0, until: START + 1_900 });
  clock.now = START + 1_900;
  expect(await takes("shopify-1", 4)).toEqual({ allowed: 3, until: START + 2_900 });
});
