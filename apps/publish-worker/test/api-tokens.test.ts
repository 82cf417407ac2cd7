// An integration drives the service with an organisation API token only: it reads and edits the
// catalog, imports a document (preview, then store) and publishes to the stand-in channel, and is
// refused with 403 outside its scopes. The gateway and worker log as deployed, and the token
// appears in no log line and in no answer but the one that created it.
import { eventually } from "@catalog/testing";
import { stringMatching } from "@catalog/test-support/matchers";
import type { InjectResponse } from "./pipeline-harness.js";
import { startPipeline, type Pipeline } from "./pipeline-harness.js";

const lines: string[] = [];
const logStream = { write: (line: string) => void lines.push(line) };
let p: Pipeline;
const answers: InjectResponse[] = [];

beforeAll(async () => {
  p = await startPipeline({}, { logStream });
  p.startWorker();
}, 30_000);
afterAll(() => p.close());

async function call(
  secret: string,
  method: "GET" | "POST" | "PATCH",
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<InjectResponse> {
  const res = await p.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${secret}`, ...headers },
    ...(payload === undefined ? {} : { payload: payload as string }),
  });
  answers.push(res);
  return res;
}

function documentBody(csv: string, persist: boolean) {
  const boundary = "----tokentest";
  const body =
    `--${boundary}\r\nContent-Disposition: form-data; name="persist"\r\n\r\n${persist}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="feed.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n` +
    `--${boundary}--\r\n`;
  return { body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

test("a scoped token reads, edits, imports and publishes; outside its scopes it is 403; it never shows again", async () => {
  const created = await p.app.inject({
    method: "POST",
    url: "/api/api-tokens",
    headers: { cookie: p.ownerCookie },
    payload: { name: "ERP", scopes: ["catalog:read", "catalog:write", "publish"] },
  });
  expect(created.statusCode).toBe(201);
  const secret = created.json<{ secret: string }>().secret;
  const destination = await p.addDestination("erp");

  // Import a document: a preview stores nothing, then the same document is stored.
  const csv = "Title,SKU,Price,Currency\nToken Mug,TOK-MUG,12.00,EUR\n";
  const preview = documentBody(csv, false);
  const previewed = await call(
    secret,
    "POST",
    "/api/import/document",
    preview.body,
    preview.headers,
  );
  expect(previewed.statusCode).toBe(200);
  expect(previewed.json<{ persisted: boolean }>().persisted).toBe(false);
  expect(await p.db.product.count({ where: { orgId: p.org.org.id, sku: "TOK-MUG" } })).toBe(0);
  const store = documentBody(csv, true);
  const stored = await call(secret, "POST", "/api/v1/import/document", store.body, store.headers);
  expect(stored.statusCode).toBe(200);

  // Read the catalog and edit the imported product.
  const list = await call(secret, "GET", "/api/products?q=TOK-MUG");
  expect(list.statusCode).toBe(200);
  const [product] = list.json<{ items: { id: string; title: string }[] }>().items;
  expect(product?.title).toBe("Token Mug");
  const edit = await call(secret, "PATCH", `/api/products/${product!.id}`, {
    title: "Token Mug, renamed",
  });
  expect(edit.statusCode).toBe(200);

  // Publish to the stand-in and follow it to the store.
  const destinations = await call(secret, "GET", "/api/destinations");
  expect(destinations.json<{ items: { id: string }[] }>().items.map((d) => d.id)).toContain(
    destination,
  );
  const publish = await call(secret, "POST", "/api/products/publish", {
    productIds: [product!.id],
    destinationAccountIds: [destination],
  });
  expect(publish.statusCode).toBe(200);
  await eventually(async () => {
    const detail = await call(secret, "GET", `/api/products/${product!.id}`);
    expect(detail.json<{ listings: { status: string }[] }>().listings[0]?.status).toBe("published");
  }, 10_000);
  expect(p.standin.store("erp").listings.map((l) => l.title)).toEqual(["Token Mug, renamed"]);
  // The sync log names the owner and the token that made the change.
  const run = await p.db.publishRun.findFirstOrThrow({ where: { orgId: p.org.org.id } });
  expect(run.actorId).toBe(p.org.owner.id);

  // Outside its scopes: managing destinations, and the session-only routes.
  const rename = await call(secret, "PATCH", `/api/destinations?id=${destination}`, {
    name: "renamed by token",
  });
  expect(rename.statusCode).toBe(403);
  expect(rename.json()).toEqual({
    error: stringMatching(/lacks the scope destinations:manage/),
  });
  const sign = await call(secret, "POST", "/api/legal/sign", { document: "terms" });
  expect(sign.statusCode).toBe(403);
  expect(sign.json()).toEqual({ error: stringMatching(/needs a signed-in session/) });

  // The token is in no answer after its creation, and in no log line of the gateway or worker.
  expect(answers.length).toBeGreaterThan(8);
  for (const answer of answers) expect(answer.body).not.toContain(secret);
  const listed = await p.app.inject({
    method: "GET",
    url: "/api/api-tokens",
    headers: { cookie: p.ownerCookie },
  });
  expect(listed.body).not.toContain(secret);
  const log = lines.join("");
  expect(log).toContain("/api/products/publish");
  expect(log).not.toContain(secret);
  // Nor its random part alone (base64url: it may hold "_" itself, so not split("_")[2]).
  const [kind, prefix] = secret.split("_");
  expect(log).not.toContain(secret.slice(`${kind}_${prefix}_`.length));
}, 30_000);
