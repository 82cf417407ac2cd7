import { SEARCH_COUNT_LIMIT } from "@catalog/db";
import { createTestOrg, makeProduct, type TestOrg } from "@catalog/testing";
import { listProducts, login, startGateway, type Gateway } from "./harness.js";

let gw: Gateway;
let org: TestOrg;
let cookie: string;
/** Cotton shirts: 50 more than a search counts. */
const SHIRTS = SEARCH_COUNT_LIMIT + 50;
/**
 * Silk scarves, the newest products: an eighth of the newest 2,000 a search probes, so many that
 * even this small catalog is walked for them first (the walk then finds fewer than a count's reach).
 */
const SCARVES = 250;
const shirts = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `Cotton shirt ${from + i}`);

beforeAll(async () => {
  gw = await startGateway();
  org = await createTestOrg(gw.db, "search-count");
  cookie = await login(gw.app, org.member.email, org.member.password);
  await gw.db.$executeRaw`INSERT INTO products (id, org_id, title, sku, updated_at)
    SELECT gen_random_uuid(), ${org.org.id}::uuid, 'Cotton shirt ' || n, 'CS-' || n,
      now() - n * interval '1 second'
    FROM generate_series(1, ${SHIRTS}::int) n`;
  await makeProduct(gw.db, org.org.id, { title: "Linen towel", sku: "LT-1" });
  // The newest products: a term common among them, rare in the catalog.
  await gw.db.$executeRaw`INSERT INTO products (id, org_id, title, sku, updated_at)
    SELECT gen_random_uuid(), ${org.org.id}::uuid, 'Silk scarf ' || n, 'SS-' || n,
      now() + n * interval '1 second'
    FROM generate_series(1, ${SCARVES}::int) n`;
});
afterAll(() => gw.close());

const list = (query: string) => listProducts(gw, cookie, query);

test(`a search matching more than ${SEARCH_COUNT_LIMIT} products is counted that far: the total says it is a lower bound and the next pages are reachable`, async () => {
  const pages = SEARCH_COUNT_LIMIT / 100;
  const first = await list("q=cotton&pageSize=100");
  expect(first).toMatchObject({ total: SEARCH_COUNT_LIMIT, totalPages: pages, totalExact: false });
  expect(first.items.map((p) => p.title)).toEqual(shirts(1, 100));
  expect(first.nextCursor).not.toBeNull();
  // The next page of a term known to be common, found by walking the catalog's order.
  const second = await list("q=COTTON&pageSize=100&page=2");
  expect(second.items.map((p) => p.title)).toEqual(shirts(101, 100));

  // Further on, the count reaches to the end: exact again, and the last page is there.
  const late = await list(`q=cotton&pageSize=100&page=${pages}`);
  expect(late).toMatchObject({ total: SHIRTS, totalPages: pages + 1, totalExact: true });
  const last = await list(`q=cotton&pageSize=100&page=${pages + 1}`);
  expect(last.items.map((p) => p.title)).toEqual(shirts(SEARCH_COUNT_LIMIT + 1, 50));
  expect(last).toMatchObject({ total: SHIRTS, totalExact: true, nextCursor: null });
});

test("the whole catalog and a rare term are counted exactly", async () => {
  expect(await list("pageSize=10")).toMatchObject({
    total: SHIRTS + SCARVES + 1,
    totalExact: true,
  });
  expect(await list("q=linen")).toMatchObject({ total: 1, totalExact: true });
});

test("a term common among the newest products but rare in the catalog is counted exactly", async () => {
  const page = await list("q=silk&pageSize=25");
  expect(page).toMatchObject({ total: SCARVES, totalExact: true, totalPages: SCARVES / 25 });
  expect(page.items.map((p) => p.title)).toEqual(
    Array.from({ length: 25 }, (_, i) => `Silk scarf ${SCARVES - i}`),
  );
});

test("a term holding U+0001, which the search text puts between title and SKU, matches within a title or a SKU, never across them", async () => {
  const tabs = await createTestOrg(gw.db, "search-separator");
  const tabsCookie = await login(gw.app, tabs.member.email, tabs.member.password);
  // More titles holding U+0001 than a search counts, so the term is walked; then, newest, a
  // product whose title and SKU hold none.
  await gw.db.$executeRaw`INSERT INTO products (id, org_id, title, sku, updated_at)
    SELECT gen_random_uuid(), ${tabs.org.id}::uuid, 'Tab' || chr(1) || 'stop ' || n, 'TS-' || n,
      now() - n * interval '1 second'
    FROM generate_series(1, ${SHIRTS}::int) n`;
  await makeProduct(gw.db, tabs.org.id, { title: "Plain towel", sku: "PT-1" });
  const search = (term: string, page = 1) =>
    listProducts(gw, tabsCookie, `q=${encodeURIComponent(term)}&pageSize=100&page=${page}`);

  expect(await search("towel\u0001pt")).toMatchObject({ total: 0, items: [] });
  for (const page of [1, 2]) {
    const found = await search("\u0001", page);
    expect(found).toMatchObject({ total: SEARCH_COUNT_LIMIT, totalExact: false });
    expect(found.items.map((p) => p.title)).toEqual(
      Array.from({ length: 100 }, (_, i) => `Tab\u0001stop ${(page - 1) * 100 + i + 1}`),
    );
  }
});
