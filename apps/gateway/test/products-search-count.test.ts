import { createTestOrg, makeProduct, type TestOrg } from "@catalog/testing";
import { listProducts, login, startGateway, type Gateway } from "./harness.js";

let gw: Gateway;
let org: TestOrg;
let cookie: string;

beforeAll(async () => {
  gw = await startGateway();
  org = await createTestOrg(gw.db, "search-count");
  cookie = await login(gw.app, org.member.email, org.member.password);
  await gw.db.$executeRaw`INSERT INTO products (id, org_id, title, sku, updated_at)
    SELECT gen_random_uuid(), ${org.org.id}::uuid, 'Cotton shirt ' || n, 'CS-' || n,
      now() - n * interval '1 second'
    FROM generate_series(1, 10050) n`;
  await makeProduct(gw.db, org.org.id, { title: "Linen towel", sku: "LT-1" });
});
afterAll(() => gw.close());

const list = (query: string) => listProducts(gw, cookie, query);

test("a search matching more than 10,000 products is counted that far: the total says it is a lower bound and the next pages are reachable", async () => {
  const first = await list("q=cotton&pageSize=100");
  expect(first).toMatchObject({ total: 10_000, totalPages: 100, totalExact: false });
  expect(first.items).toHaveLength(100);
  expect(first.nextCursor).not.toBeNull();

  // Further on, the count reaches to the end: exact again, and the last page is there.
  const late = await list("q=cotton&pageSize=100&page=100");
  expect(late).toMatchObject({ total: 10_050, totalPages: 101, totalExact: true });
  const last = await list("q=cotton&pageSize=100&page=101");
  expect(last.items.map((p) => p.title)).toEqual(
    Array.from({ length: 50 }, (_, i) => `Cotton shirt ${10_001 + i}`),
  );
  expect(last).toMatchObject({ total: 10_050, totalExact: true, nextCursor: null });
});

test("the whole catalog and a rare term are counted exactly", async () => {
  expect(await list("pageSize=10")).toMatchObject({ total: 10_051, totalExact: true });
  expect(await list("q=linen")).toMatchObject({ total: 1, totalExact: true });
});
