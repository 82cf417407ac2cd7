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
  const gw = await gateway({
    REDIS_PREFIX: `${process.env.REDIS_PREFIX}:${randomBytes(3).toString("hex")}`,
    LOGIN_RATE_LIMIT_MAX: "3",
  });
  const t = await createTestOrg(gw.db, "ratelimit");
  const attempt = () =>
    gw.app.inject({
      method: "POST",
      url: "/api/auth/session",
      payload: { email: t.member.email, password: "wrong-password" },
    });
  for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
  const limited = await attempt();
  expect(limited.statusCode).toBe(429);
  expect(errorOf(limited)).toMatch(/this service's rate limit/);
  expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  // Other routes still have their own budget.
  expect((await gw.app.inject({ method: "GET", url: "/api/products" })).statusCode).toBe(401);
});

test("the counters live in Redis, so two gateway instances share one budget", async () => {
  const env = {
    REDIS_PREFIX: `${process.env.REDIS_PREFIX}:${randomBytes(3).toString("hex")}`,
    RATE_LIMIT_MAX: "4",
  };
  const a = await gateway(env);
  const b = await gateway(env);
  const codes: number[] = [];
  for (const gw of [a, b, a, b, a, b])
    codes.push((await gw.app.inject({ method: "GET", url: "/api/products" })).statusCode);
  expect(codes).toEqual([401, 401, 401, 401, 429, 429]);
});

test("requests arriving together share one Redis round trip but each is counted: no more than the limit get through", async () => {
  const gw = await gateway({
    REDIS_PREFIX: `${process.env.REDIS_PREFIX}:${randomBytes(3).toString("hex")}`,
    RATE_LIMIT_MAX: "5",
  });
  const answers = await Promise.all(
    Array.from({ length: 8 }, () => gw.app.inject({ method: "GET", url: "/api/products" })),
  );
  expect(answers.map((a) => a.statusCode).sort()).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  // Each request saw its own count, as if it had been alone.
  const remaining = answers
    .filter((a) => a.statusCode === 401)
    .map((a) => Number(a.headers["x-ratelimit-remaining"]))
    .sort();
  expect(remaining).toEqual([0, 1, 2, 3, 4]);
  const limited = answers.find((a) => a.statusCode === 429)!;
  expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
});

test("password spraying: failed logins from one address are limited across accounts, with this service's 429 and Retry-After", async () => {
  const gw = await gateway({
    REDIS_PREFIX: `${process.env.REDIS_PREFIX}:${randomBytes(3).toString("hex")}`,
    LOGIN_RATE_LIMIT_MAX: "10",
    LOGIN_ADDRESS_RATE_LIMIT_MAX: "40",
  });
  const t = await createTestOrg(gw.db, "spray");
  const accounts = Array.from(
    { length: 19 },
    (_, i) => `victim-${i}-${randomBytes(3).toString("hex")}@test.local`,
  );
  const codes: number[] = [];
  // 19 accounts x 9 guesses: under every account's own budget of 10, far over the address's 40.
  for (let guess = 0; guess < 9; guess++) {
    for (const email of accounts) {
      codes.push(
        (
          await gw.app.inject({
            method: "POST",
            url: "/api/auth/session",
            payload: { email, password: `guess-${guess}` },
          })
        ).statusCode,
      );
    }
  }
  expect(codes.slice(0, 40).every((c) => c === 401)).toBe(true);
  expect(codes.slice(40).every((c) => c === 429)).toBe(true);
  // The address is out of failures for every account, a real one with its right password included.
  const limited = await gw.app.inject({
    method: "POST",
    url: "/api/auth/session",
    payload: { email: t.member.email, password: t.member.password },
  });
  expect(limited.statusCode).toBe(429);
  expect(errorOf(limited)).toMatch(
    /this service's rate limit for failed logins was exceeded \(40 failed logins from this address per 900 s\)/,
  );
  expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
});

test("successful logins do not eat the failure budget", async () => {
  const gw = await gateway({
    REDIS_PREFIX: `${process.env.REDIS_PREFIX}:${randomBytes(3).toString("hex")}`,
    LOGIN_RATE_LIMIT_MAX: "3",
  });
  const t = await createTestOrg(gw.db, "goodlogins");
  const login = (password: string) =>
    gw.app.inject({
      method: "POST",
      url: "/api/auth/session",
      payload: { email: t.member.email, password },
    });
  for (let i = 0; i < 6; i++) expect((await login(t.member.password)).statusCode).toBe(200);
  for (let i = 0; i < 3; i++) expect((await login("wrong-password")).statusCode).toBe(401);
  expect((await login("wrong-password")).statusCode).toBe(429);
});

test("health probes are never limited, and do not use up a client's budget", async () => {
  const gw = await gateway({
    REDIS_PREFIX: `${process.env.REDIS_PREFIX}:${randomBytes(3).toString("hex")}`,
    RATE_LIMIT_MAX: "2",
  });
  for (let i = 0; i < 4; i++) {
    expect((await gw.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    expect((await gw.app.inject({ method: "GET", url: "/healthz?from=probe" })).statusCode).toBe(
      200,
    );
  }
  const api = () => gw.app.inject({ method: "GET", url: "/api/products" });
  expect([(await api()).statusCode, (await api()).statusCode, (await api()).statusCode]).toEqual([
    401, 401, 429,
  ]);
});
