import { randomBytes } from "node:crypto";
import { escapeGlob, unlinkMatching, type RedisClient } from "@catalog/queue";
import { RedisTurn } from "../src/redis-turn.js";
import { startGateway, unreachableRedis, type Gateway } from "./harness.js";

let gw: Gateway;
let prefix: string;
beforeAll(async () => {
  gw = await startGateway();
  prefix = `${gw.config.redisKeyPrefix}:turn-${randomBytes(3).toString("hex")}`;
});
afterAll(async () => {
  await unlinkMatching(gw.redis, `${escapeGlob(prefix)}:*`);
  await gw.close();
});

/** The client, with the commands it sends counted. */
function counted(redis: RedisClient) {
  const sent: string[] = [];
  const client = new Proxy(redis, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        sent.push(String(name));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { client, sent };
}

const count = (turn: RedisTurn, key: string) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    turn.count(key, 60_000, (error, result) => (error ? reject(error) : resolve(result!))),
  );

test("the counters and reads of one turn go to Redis as one command, each count its own", async () => {
  const { client, sent } = counted(gw.redis);
  const turn = new RedisTurn(client);
  await gw.redis.set(`${prefix}:version`, "v1");
  // A first turn loads the script, so the one measured below is as every later one.
  await count(turn, `${prefix}:warm`);
  sent.length = 0;

  const [a1, a2, b1, read, a3] = await Promise.all([
    count(turn, `${prefix}:a`),
    count(turn, `${prefix}:a`),
    count(turn, `${prefix}:b`),
    turn.read([`${prefix}:version`, `${prefix}:missing`]),
    count(turn, `${prefix}:a`),
  ]);
  expect(sent).toEqual(["evalsha"]);
  expect([a1.current, a2.current, a3.current, b1.current]).toEqual([1, 2, 3, 1]);
  expect(a3.ttl).toBeGreaterThan(59_000);
  expect(read).toEqual(["v1", null]);

  // A later turn counts on from there; reads alone are one MGET.
  sent.length = 0;
  expect((await count(turn, `${prefix}:a`)).current).toBe(4);
  expect(await turn.read([`${prefix}:version`])).toEqual(["v1"]);
  expect(sent).toEqual(["evalsha", "mget"]);
});

test("with Redis unreachable, counts fail (the limiter steps aside) and reads say unknown", async () => {
  const unreachable = unreachableRedis();
  const turn = new RedisTurn(unreachable);
  const [counted, read] = await Promise.all([
    count(turn, `${prefix}:c`).then(
      () => "counted",
      (error: Error) => error.message,
    ),
    turn.read([`${prefix}:version`]),
  ]);
  expect(counted).not.toBe("counted");
  expect(read).toBeNull();
  expect(await turn.read([`${prefix}:version`])).toBeNull();
  unreachable.disconnect();
});
