import { createTestOrg, type TestOrg } from "@catalog/testing";
import { sha256 } from "@catalog/db";
import { startMailCatcher, type MailCatcher } from "@catalog/test-support/mail-catcher";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { eventually } from "./eventually.js";
import { privatePrefix } from "./publishing-fixtures.js";

const PUBLIC_URL = "http://catalog.test:8080";

let catcher: MailCatcher;
let gw: Gateway;
let t: TestOrg;

beforeAll(async () => {
  catcher = await startMailCatcher();
  gw = await startGateway({
    SMTP_URL: catcher.url,
    MAIL_FROM: "Catalog <catalog@catalog.test>",
    PUBLIC_URL,
    REDIS_PREFIX: privatePrefix("password-reset"),
    PASSWORD_RESET_ADDRESS_RATE_LIMIT_MAX: "1000",
  });
  t = await createTestOrg(gw.db, "password-reset");
});
afterAll(async () => {
  await gw.close();
  await catcher.close();
});

const ask = (g: Gateway, email: string) =>
  g.app.inject({ method: "POST", url: "/api/auth/password-reset", payload: { email } });
const check = (token: string) =>
  gw.app.inject({ method: "POST", url: "/api/auth/password-reset/check", payload: { token } });
const confirm = (token: string, password: string) =>
  gw.app.inject({
    method: "POST",
    url: "/api/auth/password-reset/confirm",
    payload: { token, password },
  });

/** Asks for a link for `email` and reads its token from the mail the catcher received. */
async function linkToken(email: string, seen = catcher.messages.length): Promise<string> {
  expect((await ask(gw, email)).statusCode).toBe(202);
  await eventually(async () => {
    expect(catcher.messages.slice(seen).some((m) => m.to.includes(email))).toBe(true);
  }, 10_000);
  const mail = catcher.messages.slice(seen).find((m) => m.to.includes(email))!;
  const link = /(http\S+\/reset-password\?token=\S+)/.exec(mail.text)?.[1];
  expect(link).toBeDefined();
  return new URL(link!).searchParams.get("token")!;
}

test("a known address gets an email with a link to the dashboard's reset page; only the token's hash is stored", async () => {
  const res = await ask(gw, t.member.email.toUpperCase());
  expect(res.statusCode).toBe(202);
  expect(res.json()).toEqual({
    message:
      "If an account uses this email address, a link to choose a new password is on its way.",
    linkValidMinutes: 30,
  });
  const mail = await catcher.next(t.member.email);
  expect(mail.from).toBe("catalog@catalog.test");
  expect(mail.headers.subject).toBe("Choose a new password for Catalog");
  expect(mail.headers.from).toBe("Catalog <catalog@catalog.test>");
  const link = /(\S+\/reset-password\?token=\S+)/.exec(mail.text)![1]!;
  expect(link.startsWith(`${PUBLIC_URL}/reset-password?token=`)).toBe(true);
  const token = new URL(link).searchParams.get("token")!;
  expect(token).toMatch(/^[\w-]{43}$/);
  const rows = await gw.db.passwordReset.findMany({ where: { userId: t.member.id } });
  expect(rows.map((r) => r.tokenHash)).toContain(sha256(token));
  expect(JSON.stringify(rows)).not.toContain(token);
});

test("an unknown address gets the same answer and no email is sent", async () => {
  const org = await createTestOrg(gw.db, "reset-unknown");
  const before = catcher.connections;
  const unknown = await ask(gw, `nobody-${org.org.id}@example.test`);
  const known = await ask(gw, org.owner.email);
  expect({ status: unknown.statusCode, body: unknown.json<unknown>() }).toEqual({
    status: known.statusCode,
    body: known.json<unknown>(),
  });
  // The known address's mail arrives; the unknown one's request had already answered, and sent
  // nothing: one connection, one message since.
  await catcher.next(org.owner.email);
  expect(catcher.connections - before).toBe(1);
  expect(catcher.messages.filter((m) => m.to.some((to) => to.startsWith("nobody-")))).toEqual([]);
});

test("the answer does not wait for the mail: a known address answers while the mail server is still silent", async () => {
  const held = await startMailCatcher({ hold: true });
  const g = await startGateway({
    SMTP_URL: held.url,
    PUBLIC_URL,
    REDIS_PREFIX: privatePrefix("password-reset-held"),
  });
  try {
    const res = await ask(g, t.owner.email);
    expect(res.statusCode).toBe(202);
    expect(held.messages).toEqual([]);
    held.release();
    await held.next(t.owner.email);
  } finally {
    await g.close();
    await held.close();
  }
});

test("the link sets the password once, ends every session of the user and clears this browser's cookie", async () => {
  const org = await createTestOrg(gw.db, "reset-confirm");
  const user = org.member;
  const cookie = await login(gw.app, user.email, user.password);
  const token = await linkToken(user.email);

  const res = await confirm(token, "a brand new password");
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({
    message: "Your password was changed and every session of yours has ended.",
  });
  expect(String(res.headers["set-cookie"])).toMatch(/^sid=;/);
  const me = await gw.app.inject({ method: "GET", url: "/api/auth/session", headers: { cookie } });
  expect(me.statusCode).toBe(401);
  await expect(login(gw.app, user.email, user.password)).rejects.toThrow(/401/);
  await login(gw.app, user.email, "a brand new password");

  const again = await confirm(token, "another new password");
  expect(again.statusCode).toBe(410);
  expect(errorOf(again)).toBe(
    "This password reset link was already used. Ask for a new one if you need to.",
  );
  await login(gw.app, user.email, "a brand new password");
});

test("an expired link answers 410 in words and changes nothing", async () => {
  const org = await createTestOrg(gw.db, "reset-expired");
  const token = await linkToken(org.member.email);
  const usable = await check(token);
  expect(usable.statusCode).toBe(200);
  const until = Date.parse(usable.json<{ expiresAt: string }>().expiresAt);
  expect(until - Date.now()).toBeGreaterThan(29 * 60_000);
  expect(until - Date.now()).toBeLessThanOrEqual(30 * 60_000);
  await gw.db.passwordReset.update({
    where: { tokenHash: sha256(token) },
    data: { expiresAt: new Date(Date.now() - 1000) },
  });
  const checked = await check(token);
  expect(checked.statusCode).toBe(410);
  expect(errorOf(checked)).toBe(
    "This password reset link has expired or a newer one was sent. Ask for a new one.",
  );
  const res = await confirm(token, "a brand new password");
  expect(res.statusCode).toBe(410);
  expect(errorOf(res)).toBe(
    "This password reset link has expired or a newer one was sent. Ask for a new one.",
  );
  await login(gw.app, org.member.email, org.member.password);
});

test("asking again ends the earlier link", async () => {
  const org = await createTestOrg(gw.db, "reset-twice");
  const first = await linkToken(org.member.email);
  const second = await linkToken(org.member.email);
  expect(second).not.toBe(first);
  expect((await confirm(first, "a brand new password")).statusCode).toBe(410);
  expect((await confirm(second, "a brand new password")).statusCode).toBe(200);
});

test("an unknown token answers 400, a short password 422 without using the link up", async () => {
  const unknown = await confirm("not-a-token-we-sent", "a brand new password");
  expect(unknown.statusCode).toBe(400);
  expect(errorOf(unknown)).toBe("This password reset link is not valid. Ask for a new one.");
  expect((await check("not-a-token-we-sent")).statusCode).toBe(400);

  const org = await createTestOrg(gw.db, "reset-short");
  const token = await linkToken(org.member.email);
  const short = await confirm(token, "short");
  expect(short.statusCode).toBe(422);
  expect(errorOf(short)).toBe("password must be at least 10 characters");
  expect((await confirm(token, "long enough password")).statusCode).toBe(200);
});

describe("limits", () => {
  let limited: Gateway;
  beforeAll(async () => {
    limited = await startGateway({
      SMTP_URL: catcher.url,
      PUBLIC_URL,
      REDIS_PREFIX: privatePrefix("password-reset-limits"),
      PASSWORD_RESET_RATE_LIMIT_MAX: "2",
      PASSWORD_RESET_ADDRESS_RATE_LIMIT_MAX: "5",
    });
  });
  afterAll(() => limited.close());

  test("per email address, alike for a known and an unknown one, then per client address", async () => {
    const org = await createTestOrg(limited.db, "reset-limits");
    const unknown = `nobody-${org.org.id}@example.test`;
    const statuses = async (email: string) => [
      (await ask(limited, email)).statusCode,
      (await ask(limited, email)).statusCode,
      (await ask(limited, email)).statusCode,
    ];
    expect(await statuses(org.member.email)).toEqual([202, 202, 429]);
    expect(await statuses(unknown)).toEqual([202, 202, 429]);
    const refused = await ask(limited, unknown);
    expect(refused.headers["retry-after"]).toMatch(/^\d+$/);
    expect(errorOf(refused)).toMatch(
      /^this service's rate limit for password reset requests was exceeded \(2 password reset requests for this email address per 900 s\); retry in \d+ s$/,
    );
    // Four accepted so far from this address; the fifth is the last.
    expect((await ask(limited, org.owner.email)).statusCode).toBe(202);
    const spent = await ask(limited, org.admin.email);
    expect(spent.statusCode).toBe(429);
    expect(errorOf(spent)).toMatch(/5 password reset requests from this address per 900 s/);
  });
});

test("the SMTP client signs in with the URL's user and password", async () => {
  const guarded = await startMailCatcher({ credentials: { user: "relay", password: "s3cr:et" } });
  const g = await startGateway({
    SMTP_URL: guarded.url,
    PUBLIC_URL,
    REDIS_PREFIX: privatePrefix("password-reset-auth"),
  });
  try {
    expect(guarded.url).toMatch(/^smtp:\/\/relay:s3cr%3Aet@127\.0\.0\.1:\d+$/);
    expect((await ask(g, t.admin.email)).statusCode).toBe(202);
    const mail = await guarded.next(t.admin.email);
    expect(mail.user).toBe("relay");
  } finally {
    await g.close();
    await guarded.close();
  }
});

test("without SMTP_URL a request answers the same and the log says mail is off, without the token", async () => {
  const lines: string[] = [];
  const g = await startGateway(
    { REDIS_PREFIX: privatePrefix("password-reset-off"), SMTP_URL: "" },
    { logger: { level: "info", stream: { write: (line: string) => void lines.push(line) } } },
  );
  try {
    const res = await ask(g, t.member.email);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({
      message:
        "If an account uses this email address, a link to choose a new password is on its way.",
      linkValidMinutes: 30,
    });
    const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages).toContain(
      "mail is off (SMTP_URL is unset): password reset links are not sent",
    );
    expect(messages).toContain("mail is off (SMTP_URL is unset): no password reset email was sent");
    const rows = await g.db.passwordReset.findMany({ where: { userId: t.member.id } });
    expect(rows.length).toBeGreaterThan(0);
    // The link's page as a browser asks for it: its request line is logged without the token.
    await g.app.inject({ method: "GET", url: "/reset-password?token=a-token-of-a-mailed-link" });
    const log = lines.join("\n");
    expect(log).toMatch(/reset-password\?token=\[redacted\]/);
    expect(log).not.toContain("a-token-of-a-mailed-link");
  } finally {
    await g.close();
  }
});
