import { createTestOrg, type TestOrg } from "@catalog/testing";
import { CURRENT_LEGAL_VERSIONS, LEGAL_TITLES } from "@catalog/db";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import type { LegalRecord, LegalStatus, LegalText } from "../src/api-types.js";

let gw: Gateway;
let t: TestOrg;
let cookie: string;
let memberCookie: string;

beforeAll(async () => {
  gw = await startGateway();
  t = await createTestOrg(gw.db, "legal");
  // Owners sign for the org; members read the status.
  cookie = await login(gw.app, t.owner.email, t.owner.password);
  memberCookie = await login(gw.app, t.member.email, t.member.password);
});
afterAll(() => gw.close());

const status = () =>
  gw.app.inject({ method: "GET", url: "/api/legal/status", headers: { cookie } });
const sign = (payload: object) =>
  gw.app.inject({ method: "POST", url: "/api/legal/sign", headers: { cookie }, payload });

test("a new org has signed nothing", async () => {
  const body = (await status()).json<LegalStatus>();
  expect(body.allSigned).toBe(false);
  expect(body.owners).toEqual([t.owner.email]);
  expect(body.documents.map((d) => d.type)).toEqual(["privacy", "terms", "dpa"]);
  expect(body.documents[0]).toEqual({
    type: "privacy",
    currentVersion: CURRENT_LEGAL_VERSIONS.privacy,
    signed: false,
    signedVersion: null,
    signedAt: null,
    signedBy: null,
    signedByEmail: null,
  });
});

test("signing records who signed which version; signing again keeps the first record", async () => {
  const first = await sign({ document: "privacy" });
  expect(first.statusCode).toBe(200);
  expect(first.json()).toMatchObject({
    type: "privacy",
    signed: true,
    signedVersion: CURRENT_LEGAL_VERSIONS.privacy,
    signedBy: t.owner.id,
    signedByEmail: t.owner.email,
  });
  const again = await sign({ document: "privacy", version: CURRENT_LEGAL_VERSIONS.privacy });
  expect(again.json<LegalRecord>().signedAt).toBe(first.json<LegalRecord>().signedAt);
  expect(await gw.db.legalAcceptance.count({ where: { orgId: t.org.id } })).toBe(1);
});

test("a member cannot sign: 403 saying an owner signs, and nothing is recorded", async () => {
  const res = await gw.app.inject({
    method: "POST",
    url: "/api/legal/sign",
    headers: { cookie: memberCookie },
    payload: { document: "terms" },
  });
  expect(res.statusCode).toBe(403);
  expect(errorOf(res)).toBe(
    `only an owner of the org signs its legal documents: ask an owner of ${t.org.name} to sign (the Legal screen names them)`,
  );
  expect(await gw.db.legalAcceptance.count({ where: { orgId: t.org.id, document: "terms" } })).toBe(
    0,
  );
  // The member still reads the status, with the owners to ask.
  const read = await gw.app.inject({
    method: "GET",
    url: "/api/legal/status",
    headers: { cookie: memberCookie },
  });
  expect(read.statusCode).toBe(200);
  expect(read.json<LegalStatus>().owners).toEqual([t.owner.email]);
});

test("when all three are signed the org is allSigned", async () => {
  await sign({ document: "terms" });
  await sign({ document: "dpa" });
  const body = (await status()).json<LegalStatus>();
  expect(body.allSigned).toBe(true);
  expect(body.documents.every((d) => d.signed)).toBe(true);
});

test("signatures belong to the org: another org's status is untouched", async () => {
  const other = await createTestOrg(gw.db, "legal-other");
  const otherCookie = await login(gw.app, other.owner.email, other.owner.password);
  const body = (
    await gw.app.inject({
      method: "GET",
      url: "/api/v1/legal/status",
      headers: { cookie: otherCookie },
    })
  ).json<LegalStatus>();
  expect(body.allSigned).toBe(false);
});

test.each([
  [{ document: "eula" }, /"document"/],
  [{}, /"document" is required/],
  [{ document: "terms", version: "1999-01" }, /version: terms is at version/],
])("a bad signature %j is 422", async (payload, message) => {
  const res = await sign(payload);
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toMatch(message);
});

test("legal routes need a session", async () => {
  expect((await gw.app.inject({ method: "GET", url: "/api/legal/status" })).statusCode).toBe(401);
  expect(
    (await gw.app.inject({ method: "POST", url: "/api/legal/sign", payload: { document: "dpa" } }))
      .statusCode,
  ).toBe(401);
});

const documentAt = (url: string) => gw.app.inject({ method: "GET", url });

test.each(["privacy", "terms", "dpa"] as const)(
  "the %s document's current text is readable by anyone, as cleaned HTML",
  async (document) => {
    const res = await documentAt(`/api/legal/documents/${document}`);
    expect(res.statusCode).toBe(200);
    const body = res.json<LegalText>();
    expect(body).toMatchObject({
      type: document,
      version: CURRENT_LEGAL_VERSIONS[document],
      current: true,
      title: LEGAL_TITLES[document],
    });
    // A placeholder says so, and the text has headings and paragraphs, nothing else.
    const text = body.html.replace(/\s+/g, " ");
    expect(text).toMatch(/^<p> ?<em>Placeholder text: .+It is not legal advice\.<\/em> ?<\/p>/);
    expect(body.html).toContain("<h2>");
    expect(body.html).not.toMatch(/<(script|style|img|h1)\b/);
    // The same at /api/v1 and with the version named.
    const named = await documentAt(
      `/api/v1/legal/documents/${document}?version=${CURRENT_LEGAL_VERSIONS[document]}`,
    );
    expect(named.json()).toEqual(body);
  },
);

test.each([
  [
    "/api/legal/documents/eula",
    404,
    /there is no legal document "eula": the documents are privacy, terms, dpa/,
  ],
  [
    "/api/legal/documents/terms?version=1999-01",
    404,
    /the terms of service has no version "1999-01": the current one is/,
  ],
  ["/api/legal/documents/terms?version=..%2F..%2Fpackage", 422, /version/],
  ["/api/legal/documents/Terms%2Fx", 422, /document/],
  ["/api/legal/documents/terms?lang=fr", 422, /lang/],
])("GET %s is %i with a message", async (url, status, message) => {
  const res = await documentAt(url);
  expect(res.statusCode).toBe(status);
  expect(errorOf(res)).toMatch(message);
});
