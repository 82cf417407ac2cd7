import { createTestOrg, makeProduct, type TestOrg } from "@catalog/testing";
import { connectStandin } from "./publishing-fixtures.js";
import { errorOf, listProducts, login, startGateway, type Gateway } from "./harness.js";

let gw: Gateway;
let org: TestOrg;
let cookie: string;
let ebay: string;
let shop: string;

// Products with listings in known states on two stores, and known availability and stock.
beforeAll(async () => {
  gw = await startGateway();
  org = await createTestOrg(gw.db, "filters");
  cookie = await login(gw.app, org.member.email, org.member.password);
  ebay = (await connectStandin(gw, org.org.id, "eBay store")).id;
  shop = (await connectStandin(gw, org.org.id, "Web shop")).id;
  const products: [string, number | null, string | null, [string, string][]][] = [
    ["Apron", 0, "OutOfStock", [[ebay, "failed"]]],
    [
      "Bowl",
      3,
      "InStock",
      [
        [ebay, "failed"],
        [shop, "published"],
      ],
    ],
    ["Cup", 40, "InStock", [[ebay, "published"]]],
    ["Dish", null, "PreOrder", [[shop, "failed"]]],
    ["Easel", 12, "InStock", [[ebay, "ended"]]],
    ["Fork", 5, null, []],
  ];
  for (const [title, quantity, availability, listings] of products) {
    const product = await makeProduct(gw.db, org.org.id, {
      title,
      sku: title,
      quantity,
      availability,
    });
    for (const [destinationAccountId, status] of listings)
      await gw.db.listing.create({
        data: {
          orgId: org.org.id,
          productId: product.id,
          destinationAccountId,
          status: status as never,
        },
      });
  }
});
afterAll(() => gw.close());

const list = (query: string) => listProducts(gw, cookie, query);
const titles = async (query: string) => (await list(query)).items.map((p) => p.title).sort();

test("listing state on one store: what failed on eBay, and nothing else", async () => {
  expect(await titles(`listing=failed&destinationAccountId=${ebay}`)).toEqual(["Apron", "Bowl"]);
  expect((await list(`listing=failed&destinationAccountId=${ebay}`)).total).toBe(2);
  expect(await titles("listing=failed")).toEqual(["Apron", "Bowl", "Dish"]);
  expect(await titles(`destinationAccountId=${shop}`)).toEqual(["Bowl", "Dish"]);
  expect(await titles(`listing=published&destinationAccountId=${ebay}`)).toEqual(["Cup"]);
});

test("not listed: no listing live or on its way there", async () => {
  expect(await titles(`listing=notListed&destinationAccountId=${ebay}`)).toEqual([
    "Apron",
    "Bowl",
    "Dish",
    "Easel",
    "Fork",
  ]);
  expect(await titles("listing=notListed")).toEqual(["Apron", "Dish", "Easel", "Fork"]);
});

test("availability and stock, alone and together with a listing state", async () => {
  // Fork's availability follows from its stock (5 units: in stock).
  expect(await titles("availability=InStock")).toEqual(["Bowl", "Cup", "Easel", "Fork"]);
  expect(await titles("availability=PreOrder")).toEqual(["Dish"]);
  expect(await titles("stock=out")).toEqual(["Apron"]);
  expect(await titles("stock=low")).toEqual(["Bowl", "Fork"]);
  expect(await titles("stock=in")).toEqual(["Bowl", "Cup", "Easel", "Fork"]);
  expect(await titles("stock=unknown")).toEqual(["Dish"]);
  expect(await titles("stock=low&listing=failed")).toEqual(["Bowl"]);
  expect(await titles("availability=InStock&q=bo")).toEqual(["Bowl"]);
});

test("sorted by title or by stock (fewest first, unknown last), paged by page and without cursors", async () => {
  const byTitle = await list("sort=title&pageSize=4");
  expect(byTitle.items.map((p) => p.title)).toEqual(["Apron", "Bowl", "Cup", "Dish"]);
  expect(byTitle.nextCursor).toBeNull();
  expect((await list("sort=title&pageSize=4&page=2")).items.map((p) => p.title)).toEqual([
    "Easel",
    "Fork",
  ]);
  expect((await list("sort=stock")).items.map((p) => p.title)).toEqual([
    "Apron",
    "Bowl",
    "Fork",
    "Easel",
    "Cup",
    "Dish",
  ]);
});

test("a search keeps the order asked for: by title, by stock, or newest edit first", async () => {
  const order = async (query: string) => (await list(query)).items.map((p) => p.title);
  expect(await order("q=s")).toEqual(["Easel", "Dish"]);
  expect(await order("q=s&sort=title")).toEqual(["Dish", "Easel"]);
  expect(await order("q=o&sort=stock")).toEqual(["Apron", "Bowl", "Fork"]);
  expect(await order("q=o&sort=title&listing=failed")).toEqual(["Apron", "Bowl"]);
});

test("cursors keep working under a filter: the pages of failed listings, each once", async () => {
  const first = await list("listing=failed&pageSize=2");
  expect(first.total).toBe(3);
  const second = await list(
    `listing=failed&pageSize=2&cursor=${encodeURIComponent(first.nextCursor!)}`,
  );
  expect([...first.items, ...second.items].map((p) => p.title).sort()).toEqual([
    "Apron",
    "Bowl",
    "Dish",
  ]);
  expect(second.nextCursor).toBeNull();
});

test.each([
  ["listing=broken", "listing"],
  ["destinationAccountId=ebay", "destinationAccountId"],
  ["stock=many", "stock"],
  ["sort=price", "sort"],
  ["availability=In%20Stock", "availability"],
])("a bad filter (%s) is a 422 naming it", async (query, name) => {
  const res = await gw.app.inject({
    method: "GET",
    url: `/api/products?${query}`,
    headers: { cookie },
  });
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toContain(name);
});

test("a cursor with another order is a 422 saying to page by number", async () => {
  const first = await list("pageSize=2");
  const res = await gw.app.inject({
    method: "GET",
    url: `/api/products?sort=title&cursor=${encodeURIComponent(first.nextCursor!)}`,
    headers: { cookie },
  });
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toMatch(/default order/);
});
