// Publishes, disconnects and imports that meet on the same rows at the same moment, in the order
// that deadlocked when each took its row locks in its own order (meetOnRows makes the meeting
// certain). Every request must be answered, none with 5xx, and leave the right state.
import { createDb, importProducts, type Db } from "@catalog/db";
import {
  createTestOrg,
  makeProduct,
  meetOnRows,
  startFixtureServer,
  withApplicationName,
  type RowMeeting,
  type TestOrg,
} from "@catalog/testing";
import { errorOf, login, startGateway, startScrapeWorker, type Gateway } from "./harness.js";
import { connectStandin, privatePrefix } from "./publishing-fixtures.js";
import type { UrlImportResult } from "../src/api-types.js";

const APPLICATION = `concurrent-writes-${process.pid}`;

const productPage = (
  name: string,
  sku: string,
) => `<!doctype html><html><head><title>${name}</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"${name}","sku":"${sku}"}</script></head></html>`;

let gw: Gateway;
let holder: Db;
let site: Awaited<ReturnType<typeof startFixtureServer>>;
let worker: { close(): Promise<void> };
let t: TestOrg;
let cookie: string;
let ownerCookie: string;

beforeAll(async () => {
  site = await startFixtureServer({
    "/p/left": { body: productPage("Left lamp", "MEET-L") },
    "/p/right": { body: productPage("Right lamp", "MEET-R") },
  });
  gw = await startGateway({
    DATABASE_URL: withApplicationName(process.env.DATABASE_URL!, APPLICATION),
    REDIS_PREFIX: privatePrefix("concurrent-writes"),
    LOCAL_INGEST: "true",
  });
  worker = startScrapeWorker(gw, { fetchTimeoutMs: 4000, concurrency: 4 });
  holder = createDb(process.env.DATABASE_URL!, { poolSize: 2 });
  t = await createTestOrg(gw.db, "concurrent-writes");
  cookie = await login(gw.app, t.member.email, t.member.password);
  ownerCookie = await login(gw.app, t.owner.email, t.owner.password);
});
afterAll(async () => {
  await worker.close();
  await gw.close();
  await holder.$disconnect();
  await site.close();
});

/**
 * The test holds `table`'s rows that `where` names; the gateway's requests are seen waiting for
 * them.
 */
const rowsOf = (table: string, where: string, ...params: unknown[]): RowMeeting => ({
  holder,
  application: APPLICATION,
  table,
  lock: [`SELECT id FROM ${table} WHERE ${where} FOR UPDATE`, ...params],
});
const listingsOf = (productId: string) => rowsOf("listings", "product_id = $1::uuid", productId);

const publish = (productIds: string[], destinationAccountIds: string[]) =>
  gw.app.inject({
    method: "POST",
    url: "/api/products/publish",
    headers: { cookie },
    payload: { productIds, destinationAccountIds },
  });

test("publishes of the same products in opposite orders, meeting on their listings, are all accepted", async () => {
  const [left, right] = [
    await makeProduct(gw.db, t.org.id, { title: "Left" }),
    await makeProduct(gw.db, t.org.id, { title: "Right" }),
  ];
  const destination = await connectStandin(gw, t.org.id, "Shop");
  const ids = [left.id, right.id];
  // Their listings exist (an earlier publish), so each publish updates them in its own order.
  expect((await publish(ids, [destination.id])).statusCode).toBe(200);

  // The first publish waits on the left listing; the second takes the right one, then queues behind
  // it.
  const answers = await meetOnRows(listingsOf(left.id), [
    () => publish(ids, [destination.id]),
    () => publish([...ids].reverse(), [destination.id]),
  ]);
  for (const answer of answers)
    expect([answer.statusCode, answer.statusCode === 200 ? "" : errorOf(answer)]).toEqual([
      200,
      "",
    ]);
  expect(await gw.db.syncLog.count({ where: { productId: { in: ids } } })).toBe(6);
  const listings = await gw.db.listing.findMany({ where: { productId: { in: ids } } });
  expect(listings.map((l) => l.status)).toEqual(["queued", "queued"]);
});

test("a disconnect meeting a publish on the destination's listings: both are answered, neither with 5xx", async () => {
  const products = [
    await makeProduct(gw.db, t.org.id, { title: "One" }),
    await makeProduct(gw.db, t.org.id, { title: "Two" }),
  ];
  const destination = await connectStandin(gw, t.org.id, "Leaving");
  expect(
    (
      await publish(
        products.map((p) => p.id),
        [destination.id],
      )
    ).statusCode,
  ).toBe(200);
  // The order the disconnect's UPDATE reads the destination's pending listings in (the same plan
  // as this SELECT): it waits on the first, and the publish, going the other way, takes the
  // second and queues behind it.
  const scan = await gw.db.$queryRawUnsafe<{ product_id: string }[]>(
    "SELECT product_id FROM listings WHERE destination_account_id = $1::uuid AND status IN ('queued', 'publishing')",
    destination.id,
  );
  const [first, second] = scan.map((row) => row.product_id);

  const answers = await meetOnRows(listingsOf(first!), [
    () =>
      gw.app.inject({
        method: "DELETE",
        url: `/api/destinations?id=${destination.id}`,
        headers: { cookie: ownerCookie },
      }),
    () => publish([second!, first!], [destination.id]),
  ]);
  for (const answer of answers)
    expect([answer.statusCode, answer.statusCode === 200 ? "" : errorOf(answer)]).toEqual([
      200,
      "",
    ]);
  const row = await gw.db.destinationAccount.findUniqueOrThrow({ where: { id: destination.id } });
  expect(row).toMatchObject({ credentials: null, health: "down" });
});

test("URL imports storing the same products in opposite orders at the same moment are both stored", async () => {
  // A catalog of 3,000 products, analysed: PostgreSQL then updates a batch's products by looking
  // each up in the batch's order (in a small catalog it scans the org's products in SKU order,
  // the same order for every import).
  const catalog = await createTestOrg(gw.db, "large-catalog");
  const member = await login(gw.app, catalog.member.email, catalog.member.password);
  const filler = Array.from({ length: 3_000 }, (_, i) => ({
    fields: { title: `Filler ${i}`, sku: `FILL-${i}` },
    provenance: {},
  }));
  await importProducts(gw.db, catalog.org.id, filler, {
    actor: { type: "system", id: null },
    source: "document",
    persist: true,
  });
  await holder.$executeRawUnsafe("ANALYZE products");
  const left = await makeProduct(gw.db, catalog.org.id, { title: "Old left", sku: "MEET-L" });
  const right = await makeProduct(gw.db, catalog.org.id, { title: "Old right", sku: "MEET-R" });
  const urls = [site.url("/p/left"), site.url("/p/right")];
  const importing = (pages: string[]) => () =>
    gw.app.inject({
      method: "POST",
      url: "/api/import/url",
      headers: { cookie: member },
      payload: { urls: pages, persist: true },
    });

  // The first import waits on the left product; the second updates the right one, then queues
  // behind it.
  const answers = await meetOnRows(rowsOf("products", "id = $1::uuid", left.id), [
    importing(urls),
    importing([...urls].reverse()),
  ]);
  for (const answer of answers)
    expect([answer.statusCode, answer.statusCode === 200 ? "" : errorOf(answer)]).toEqual([
      200,
      "",
    ]);
  for (const answer of answers)
    expect(answer.json<UrlImportResult>().items.map((i) => i.ok)).toEqual([true, true]);
  // The one that went second found the pages' values already stored: nothing more to change.
  const rows = await gw.db.product.findMany({
    where: { id: { in: [left.id, right.id] } },
    orderBy: { sku: "asc" },
  });
  expect(rows.map((r) => [r.title, r.version])).toEqual([
    ["Left lamp", 2],
    ["Right lamp", 2],
  ]);
});
