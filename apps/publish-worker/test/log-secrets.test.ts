// Connect a store through its OAuth flow, ingest from the extension and publish, with the gateway
// and a worker logging as deployed: the logs keep request ids and paths, and none of the secrets
// that passed through (session token, API key, OAuth code/state/hmac, the store's access token).
import { randomBytes } from "node:crypto";
import { startShopifyStandin, type ChannelStandin } from "@catalog/channels/standins";
import { loadDestinationTarget } from "@catalog/db";
import { eventually, makeProduct } from "@catalog/testing";
import { startServedPipeline, syncLogsOf, type Pipeline } from "./pipeline-harness.js";

const lines: string[] = [];
const logStream = { write: (line: string) => void lines.push(line) };
let p: Pipeline;
let standin: ChannelStandin;
let gateway: string;

beforeAll(async () => {
  ({ p, standin, gateway } = await startServedPipeline(
    (at) => startShopifyStandin({ callbackUrl: `${at}/api/integrations/shopify/callback` }),
    {},
    { logStream },
  ));
}, 30_000);
afterAll(async () => {
  await p.close();
  await standin.close();
});

test("a full connect and publish leaves no secret in the gateway's or the worker's log", async () => {
  // An owner connects the store; a member publishes to it.
  const { cookie, ownerCookie } = p;
  const start = await fetch(
    `${gateway}/api/integrations/shopify/connect?shop=logs-${randomBytes(3).toString("hex")}.myshopify.com`,
    { headers: { cookie: ownerCookie }, redirect: "manual" },
  );
  expect(start.status).toBe(302);
  const approved = await fetch(start.headers.get("location")!, { redirect: "manual" });
  const back = new URL(approved.headers.get("location")!);
  const oauth = ["code", "state", "hmac"].map((name) => back.searchParams.get(name));
  expect(oauth.every((v) => v && v.length >= 8)).toBe(true);
  const callback = await fetch(back, { headers: { cookie: ownerCookie } });
  expect(callback.status).toBe(200);
  const callbackRequestId = callback.headers.get("x-request-id")!;
  const destinationId = ((await callback.json()) as { destination: { id: string } }).destination.id;

  const ingest = await fetch(`${gateway}/api/extension/ingest`, {
    method: "POST",
    headers: { "x-service-api-key": p.org.apiKey, "content-type": "application/json" },
    body: JSON.stringify({ url: "https://shop.example/log-mug", product: { title: "Log mug" } }),
  });
  expect(ingest.status).toBe(200);

  const product = await makeProduct(p.db, p.org.org.id, {
    title: "Logged mug",
    sku: `LOG-${randomBytes(3).toString("hex")}`,
    price: { amount: "12.00", currency: "USD" },
    availability: "InStock",
  });
  // A made-up bearer token is refused (it overrides the cookie), and must not be logged either.
  const refused = await fetch(`${gateway}/api/products`, {
    headers: { cookie, authorization: "Bearer not-a-real-token-but-a-secret" },
  });
  expect(refused.status).toBe(401);
  const publish = await fetch(`${gateway}/api/products/publish`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ productIds: [product.id], destinationAccountIds: [destinationId] }),
  });
  expect(publish.status).toBe(200);
  const [syncLogId] = ((await publish.json()) as { jobs: { syncLogId: string }[] }).jobs.map(
    (j) => j.syncLogId,
  );
  await eventually(
    async () => expect((await syncLogsOf(p.db, [syncLogId!]))[0]!.status).toBe("succeeded"),
    15_000,
  );
  await eventually(async () =>
    expect(
      lines.some((l) => l.includes('"process":"publish-worker"') && l.includes(syncLogId!)),
    ).toBe(true),
  );

  const accessToken = (await loadDestinationTarget(p.db, p.keyring, destinationId))!.credentials
    .accessToken as string;
  const secrets = {
    sessionToken: cookie.replace(/^sid=/, ""),
    ownerSessionToken: ownerCookie.replace(/^sid=/, ""),
    apiKey: p.org.apiKey,
    code: oauth[0]!,
    state: oauth[1]!,
    hmac: oauth[2]!,
    accessToken,
    authorization: "not-a-real-token-but-a-secret",
  };
  const log = lines.join("");
  for (const [name, value] of Object.entries(secrets)) {
    expect(typeof value === "string" && value.length >= 8).toBe(true);
    if (log.includes(value)) throw new Error(`the log holds the ${name}`);
  }
  // Still useful: which request, which path.
  expect(log).toContain(callbackRequestId);
  expect(log).toContain("/api/integrations/shopify/callback?");
  expect(log).toContain("/api/products/publish");
}, 40_000);
