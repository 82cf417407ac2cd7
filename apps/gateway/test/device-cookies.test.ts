// Password spraying from one address (a company NAT, or every user behind an ingress) must not
// lock out the users who signed in from their browsers before: each such browser holds a device
// cookie for its account, signed by the server, with a failure budget of its own.
import { randomBytes } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import { newKeyringSpec } from "@catalog/db";
import { createTestOrg, type TestOrg, type TestUser } from "@catalog/testing";
import { errorOf, startGateway, type Gateway } from "./harness.js";
import { privatePrefix } from "./publishing-fixtures.js";
import type { Session } from "../src/api-types.js";

const SPRAY_BUDGET = 50;
const DEVICE_BUDGET = 3;
const keys = newKeyringSpec("k1");
const gateways: Gateway[] = [];
afterAll(() => Promise.all(gateways.map((g) => g.close())));

/** A gateway with budgets of its own (its own Redis prefix, unless given one to share). */
async function gateway(env: Record<string, string> = {}): Promise<Gateway> {
  const g = await startGateway({
    REDIS_PREFIX: privatePrefix("device"),
    CREDENTIALS_KEYS: keys,
    LOGIN_DEVICE_RATE_LIMIT_MAX: String(DEVICE_BUDGET),
    ...env,
  });
  gateways.push(g);
  return g;
}

/** The cookies an answer set, as a browser sends them back: `name=value; ...`. */
const cookiesOf = (res: LightMyRequestResponse): string =>
  ([] as string[])
    .concat(res.headers["set-cookie"] ?? [])
    .map((c) => c.split(";")[0]!)
    .join("; ");

/** The `name=value` of the device cookie among a browser's cookies. */
function deviceCookieIn(cookies: string): string {
  const pair = cookies.split("; ").find((c) => c.startsWith("device_"));
  if (!pair) throw new Error(`no device cookie in ${cookies}`);
  return pair;
}

const signIn = (g: Gateway, user: TestUser, password = user.password, cookie?: string) =>
  g.app.inject({
    method: "POST",
    url: "/api/auth/session",
    payload: { email: user.email, password },
    headers: cookie ? { cookie } : {},
  });

/** A browser that signed in to `user`'s account once: the cookies it holds. */
async function knownBrowser(g: Gateway, user: TestUser): Promise<string> {
  const res = await signIn(g, user);
  expect(res.statusCode).toBe(200);
  return cookiesOf(res);
}

async function sprayUntilRefused(g: Gateway) {
  for (let i = 0; i < SPRAY_BUDGET; i++) {
    const email = `victim-${i}-${randomBytes(3).toString("hex")}@test.local`;
    const res = await g.app.inject({
      method: "POST",
      url: "/api/auth/session",
      payload: { email, password: "Spring2026!" },
    });
    expect(res.statusCode).toBe(401);
  }
  const refused = await g.app.inject({
    method: "POST",
    url: "/api/auth/session",
    payload: { email: "one-more@test.local", password: "Spring2026!" },
  });
  expect(refused.statusCode).toBe(429);
}

describe("after 50 failed logins from one address across accounts", () => {
  let gw: Gateway;
  let t: TestOrg;
  let memberBrowser: string;
  let ownerBrowser: string;

  beforeAll(async () => {
    gw = await gateway();
    t = await createTestOrg(gw.db, "device");
    memberBrowser = await knownBrowser(gw, t.member);
    ownerBrowser = await knownBrowser(gw, t.owner);
    await sprayUntilRefused(gw);
  });

  test("a browser that signed in to the account before signs in with the right password, and gets a new device cookie", async () => {
    const res = await signIn(gw, t.member, t.member.password, memberBrowser);
    expect(res.statusCode).toBe(200);
    expect(res.json<Session>().user.email).toBe(t.member.email);
    expect(deviceCookieIn(cookiesOf(res))).not.toBe(deviceCookieIn(memberBrowser));
    // A wrong password from it is an ordinary 401: the address's budget is not its budget.
    expect((await signIn(gw, t.member, "wrong-password", memberBrowser)).statusCode).toBe(401);
  });

  test("a browser without a device cookie from that address is refused while the budget is spent, even with the right password, and told why", async () => {
    const res = await signIn(gw, t.member);
    expect(res.statusCode).toBe(429);
    expect(errorOf(res)).toMatch(
      /50 failed logins from this address per 900 s\); retry in \d+ s, or sign in from a browser that has signed in to this account before/,
    );
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
  });

  test("a device cookie exempts only for the account it was issued for, under any name", async () => {
    // The member's browser is not the owner's.
    expect((await signIn(gw, t.owner, t.owner.password, memberBrowser)).statusCode).toBe(429);
    // The member's cookie renamed to the owner's cookie name: its signature binds it to the member
    // still.
    const [memberCookie, ownerCookie] = [
      deviceCookieIn(memberBrowser),
      deviceCookieIn(ownerBrowser),
    ];
    const renamed = `${ownerCookie.split("=")[0]}=${memberCookie.slice(memberCookie.indexOf("=") + 1)}`;
    expect((await signIn(gw, t.owner, t.owner.password, renamed)).statusCode).toBe(429);
    // The owner's own browser is exempt.
    expect((await signIn(gw, t.owner, t.owner.password, ownerBrowser)).statusCode).toBe(200);
  });

  test("a forged or tampered device cookie does not exempt", async () => {
    const cookie = deviceCookieIn(memberBrowser);
    const [name, value] = [
      cookie.split("=")[0]!,
      decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1)),
    ];
    const [account, id, expiry, signature] = value.split(".");
    const attempts = {
      unsigned: `${account}.${id}.${expiry}`,
      "another id": `${account}.${randomBytes(16).toString("base64url")}.${expiry}.${signature}`,
      "a later expiry": `${account}.${id}.${Number(expiry) + 1}.${signature}`,
      "a made-up signature": `${account}.${id}.${expiry}.${randomBytes(32).toString("base64").replace(/=+$/, "")}`,
    };
    for (const [what, forged] of Object.entries(attempts)) {
      const res = await signIn(
        gw,
        t.member,
        t.member.password,
        `${name}=${encodeURIComponent(forged)}`,
      );
      expect({ what, status: res.statusCode }).toEqual({ what, status: 429 });
    }
  });

  test("a device cookie signed by another deployment does not exempt", async () => {
    const other = await gateway({ CREDENTIALS_KEYS: newKeyringSpec("k1") });
    const foreign = await knownBrowser(other, t.member);
    expect((await signIn(gw, t.member, t.member.password, foreign)).statusCode).toBe(429);
  });
});

test("a device cookie that fails too often is locked out, not the account: the user's other browsers still sign in", async () => {
  const gw = await gateway();
  const u = await createTestOrg(gw.db, "device-stolen");
  const stolen = await knownBrowser(gw, u.member);
  const usersOwn = await knownBrowser(gw, u.member);
  for (let i = 0; i < DEVICE_BUDGET; i++)
    expect((await signIn(gw, u.member, `guess-${i}`, stolen)).statusCode).toBe(401);
  const locked = await signIn(gw, u.member, u.member.password, stolen);
  expect(locked.statusCode).toBe(429);
  expect(errorOf(locked)).toMatch(
    new RegExp(`${DEVICE_BUDGET} failed logins from this browser for this account per 900 s`),
  );
  expect((await signIn(gw, u.member, u.member.password, usersOwn)).statusCode).toBe(200);
});

test("every instance with the same CREDENTIALS_KEYS honours a device cookie, also after a new key is put in front", async () => {
  const prefix = privatePrefix("device-shared");
  const first = await gateway({ REDIS_PREFIX: prefix });
  const rotated = await gateway({
    REDIS_PREFIX: prefix,
    CREDENTIALS_KEYS: `${newKeyringSpec("k2")},${keys}`,
  });
  const u = await createTestOrg(first.db, "device-shared");
  const browser = await knownBrowser(first, u.member);
  await sprayUntilRefused(first);
  expect((await signIn(rotated, u.member)).statusCode).toBe(429);
  expect((await signIn(rotated, u.member, u.member.password, browser)).statusCode).toBe(200);
});
