import { createTestOrg, type TestOrg } from "@catalog/testing";
import { CURRENT_LEGAL_VERSIONS } from "@catalog/db";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import type { LegalRecord, LegalStatus } from "../src/api-types.js";

let gw: Gateway;
let t: TestOrg;
let cookie: string;

beforeAll(async () => {
  gw = await startGateway();
  t = await createTestOrg(gw.db, "legal");
  cookie = await login(gw.app, t.member.email, t.member.password);
});
afterAll(() => gw.close());

const status = () =>
  gw.app.inject({ method: "GET", url: "/api/legal/status", headers: { cookie } });
const sign = (payload: object) =>
  gw.app.inject({ method: "POST", url: "/api/legal/sign", headers: { cookie }, payload });

test("a new org has signed nothing", async () => {
  const body = (await status()).json<LegalStatus>();
  expect(body.allSigned).toBe(false);
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
    signedBy: t.member.id,
    signedByEmail: t.member.email,
  });
  const again = await sign({ document: "privacy", version: CURRENT_LEGAL_VERSIONS.privacy });
  expect(again.json<LegalRecord>().signedAt).toBe(first.json<LegalRecord>().signedAt);
  expect(await gw.db.legalAcceptance.count({ where: { orgId: t.org.id } })).toBe(1);
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
  const otherCookie = await login(gw.app, other.member.email, other.member.password);
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
