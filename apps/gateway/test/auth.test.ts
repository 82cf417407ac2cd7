import { createTestOrg, type TestOrg } from "@catalog/testing";
import { sha256 } from "@catalog/db";
import { eventually } from "./eventually.js";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import type { Session } from "../src/api-types.js";

let gw: Gateway;
let t: TestOrg;

beforeAll(async () => {
  gw = await startGateway();
  t = await createTestOrg(gw.db, "auth");
});
afterAll(() => gw.close());

test("signing in sets an HttpOnly, SameSite=Lax session cookie and answers the user and org", async () => {
  const res = await gw.app.inject({
    method: "POST",
    url: "/api/auth/session",
    payload: { email: t.member.email, password: t.member.password },
  });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({
    user: { id: t.member.id, email: t.member.email, role: "member" },
    org: { id: t.org.id, name: t.org.name },
  });
  const setCookie = String(res.headers["set-cookie"]);
  expect(setCookie).toMatch(/^sid=[\w-]{40,};/);
  expect(setCookie).toMatch(/HttpOnly/);
  expect(setCookie).toMatch(/SameSite=Lax/);
  expect(setCookie).toMatch(/Path=\//);
  expect(setCookie).not.toMatch(/Secure/);
});

test.each([
  ["https PUBLIC_URL", { PUBLIC_URL: "https://catalog.example" }, true],
  ["http PUBLIC_URL", { PUBLIC_URL: "http://127.0.0.1:3000" }, false],
  [
    "https PUBLIC_URL, COOKIE_SECURE=false",
    { PUBLIC_URL: "https://catalog.example", COOKIE_SECURE: "false" },
    false,
  ],
  [
    "http PUBLIC_URL, COOKIE_SECURE=true",
    { PUBLIC_URL: "http://127.0.0.1:3000", COOKIE_SECURE: "true" },
    true,
  ],
])("with %s every cookie set at sign-in is Secure: %s", async (_case, env, secure) => {
  const g = await startGateway(env);
  try {
    const res = await g.app.inject({
      method: "POST",
      url: "/api/auth/session",
      payload: { email: t.member.email, password: t.member.password },
    });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.map((c) => c.name)).toContain("sid");
    for (const c of res.cookies)
      expect({ name: c.name, secure: c.secure === true }).toEqual({ name: c.name, secure });
  } finally {
    await g.close();
  }
});

test.each(["member", "owner", "admin"] as const)(
  "a signed-in %s sees that role in the session",
  async (role) => {
    const cookie = await login(gw.app, t[role].email, t[role].password);
    const me = await gw.app.inject({
      method: "GET",
      url: "/api/auth/session",
      headers: { cookie },
    });
    expect(me.json()).toEqual({
      user: { id: t[role].id, email: t[role].email, role },
      org: { id: t.org.id, name: t.org.name },
    });
  },
);

test("the email is matched in any case", async () => {
  await expect(login(gw.app, t.admin.email.toUpperCase(), t.admin.password)).resolves.toMatch(
    /^sid=/,
  );
});

test.each([
  ["a wrong password", () => ({ email: t.member.email, password: "not-the-password" })],
  ["an unknown email", () => ({ email: "nobody@test.local", password: t.member.password })],
])("%s is 401 with the same message", async (_case, body) => {
  const res = await gw.app.inject({ method: "POST", url: "/api/auth/session", payload: body() });
  expect(res.statusCode).toBe(401);
  expect(errorOf(res)).toBe("wrong email or password");
  expect(res.headers["set-cookie"]).toBeUndefined();
});

test("a login body with a missing field is 422 naming it", async () => {
  const res = await gw.app.inject({
    method: "POST",
    url: "/api/auth/session",
    payload: { email: t.member.email },
  });
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toMatch(/"password" is required/);
});

test("GET /api/auth/session answers the signed-in user, and 401 without or with a bogus cookie", async () => {
  const cookie = await login(gw.app, t.admin.email, t.admin.password);
  const me = await gw.app.inject({ method: "GET", url: "/api/auth/session", headers: { cookie } });
  expect(me.statusCode).toBe(200);
  expect(me.json<Session>().user).toEqual({ id: t.admin.id, email: t.admin.email, role: "admin" });

  const none = await gw.app.inject({ method: "GET", url: "/api/auth/session" });
  expect(none.statusCode).toBe(401);
  expect(errorOf(none)).toMatch(/sign in/);
  const bogus = await gw.app.inject({
    method: "GET",
    url: "/api/auth/session",
    headers: { cookie: "sid=not-a-session" },
  });
  expect(bogus.statusCode).toBe(401);
});

test("signing out revokes the session server-side: the old cookie stops working, other sessions do not", async () => {
  const first = await login(gw.app, t.member.email, t.member.password);
  const second = await login(gw.app, t.member.email, t.member.password);
  const out = await gw.app.inject({
    method: "DELETE",
    url: "/api/auth/session",
    headers: { cookie: first },
  });
  expect(out.statusCode).toBe(204);
  expect(String(out.headers["set-cookie"])).toMatch(/^sid=;/);

  const replay = await gw.app.inject({
    method: "GET",
    url: "/api/products",
    headers: { cookie: first },
  });
  expect(replay.statusCode).toBe(401);
  const other = await gw.app.inject({
    method: "GET",
    url: "/api/products",
    headers: { cookie: second },
  });
  expect(other.statusCode).toBe(200);
});

test("a session expired or revoked in the database is refused, even after it was used", async () => {
  const cookie = await login(gw.app, t.member.email, t.member.password);
  const token = cookie.slice("sid=".length);
  const me = () => gw.app.inject({ method: "GET", url: "/api/auth/session", headers: { cookie } });
  expect((await me()).statusCode).toBe(200);
  await gw.db.session.update({
    where: { tokenHash: sha256(token) },
    data: { expiresAt: new Date(Date.now() - 1000) },
  });
  await eventually(async () => expect((await me()).statusCode).toBe(401));
});

test("a session whose user is deleted stops working", async () => {
  const other = await createTestOrg(gw.db, "auth-deleted");
  const cookie = await login(gw.app, other.member.email, other.member.password);
  const me = () => gw.app.inject({ method: "GET", url: "/api/auth/session", headers: { cookie } });
  expect((await me()).statusCode).toBe(200);
  await gw.db.user.delete({ where: { id: other.member.id } });
  await eventually(async () => expect((await me()).statusCode).toBe(401));
});

test("sessions are stored as hashes, never as the cookie token", async () => {
  const cookie = await login(gw.app, t.member.email, t.member.password);
  const token = cookie.slice("sid=".length);
  const rows = await gw.db.session.findMany({ where: { user: { id: t.member.id } } });
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.some((r) => r.tokenHash === token)).toBe(false);
});
