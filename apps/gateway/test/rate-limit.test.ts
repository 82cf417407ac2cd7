import { randomBytes } from "node:crypto";
import { createTestOrg } from "@catalog/testing";
import { errorOf, startGateway, type Gateway } from "./harness.js";

const gateways: Gateway[] = [];
afterAll(() => Promise.all(gateways.map((g) => g.close())));

async function gateway(env: Record<string, string>) {
  const gw = await startGateway(env);
  gateways.push(gw);
  return gw;
}

test("login has its own, stricter limit; the 429 says it is this service's limit and when to retry", async () => {
  const gw = await gateway({ REDIS_PREFIX: `${process.env.REDIS_PREFIX}:${randomBytes(3).toString("hex")}`, LOGIN_RATE_LIMIT_MAX: "3" });
  const t = await createTestOrg(gw.db, "ratelimit");
  const attempt = () => gw.app.inject({ method: "POST", url: "/api/auth/session", payload: { email: t.member.email, password: "wrong-password" } });
  for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
  const limited = await attempt();
  expect(limited.statusCode).toBe(429);
  expect(errorOf(limited)).toMatch(/this service's rate limit/);
  expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  // Other routes still have their own budget.
  expect((await gw.app.inject({ method: "GET", url: "/api/products" })).statusCode).toBe(401);
});

test("the counters live in Redis, so two gateway instances share one budget", async () => {
  const env = { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:${randomBytes(3).toString("hex")}`, RATE_LIMIT_MAX: "4" };
  const a = await gateway(env);
  const b = await gateway(env);
  const codes: number[] = [];
  for (const gw of [a, b, a, b, a, b]) codes.push((await gw.app.inject({ method: "GET", url: "/api/products" })).statusCode);
  expect(codes).toEqual([401, 401, 401, 401, 429, 429]);
});
