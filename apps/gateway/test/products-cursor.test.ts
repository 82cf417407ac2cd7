import { createTestOrg, makeProduct, type TestOrg } from "@catalog/testing";
import type { ProductList } from "../src/api-types.js";
import { errorOf, listProducts, login, startGateway, type Gateway } from "./harness.js";

let gw: Gateway;
let org: TestOrg;
let cookie: string;

beforeAll(async () => {
  gw = await startGateway();
  org = await createTestOrg(gw.db, "cursor");
  cookie = await login(gw.app, org.member.email, org.member.password);
  for (let i = 1; i <= 23; i++)
    await makeProduct(gw.db, org.org.id, { title: `Cursor ${i}`, sku: `CUR-${i}` });
  // Ten of them edited in the same millisecond: the order must still be total and stable.
  await gw.db.$executeRawUnsafe(
    `UPDATE products SET updated_at = '2026-01-01 12:00:00.000' WHERE org_id = $1::uuid AND sku IN (${Array.from(
      { length: 10 },
      (_, i) => `'CUR-${i + 5}'`,
    ).join(",")})`,
    org.org.id,
  );
});
afterAll(() => gw.close());

const list = (query: string) => listProducts(gw, cookie, query);

const skus = (page: ProductList) => page.items.map((p) => p.sku);

test("following nextCursor gives the same pages as page numbers, each product once, ties in updatedAt included; prevCursor goes back", async () => {
  const byNumber = [await list("pageSize=5"), await list("page=2&pageSize=5")];
  for (let page = 3; page <= 5; page++) byNumber.push(await list(`page=${page}&pageSize=5`));

  const byCursor = [await list("pageSize=5")];
  while (byCursor.at(-1)!.nextCursor)
    byCursor.push(
      await list(`pageSize=5&cursor=${encodeURIComponent(byCursor.at(-1)!.nextCursor!)}`),
    );

  expect(byCursor.map(skus)).toEqual(byNumber.map(skus));
  expect(byCursor.map((p) => p.page)).toEqual([1, 2, 3, 4, 5]);
  expect(byCursor.every((p) => p.total === 23 && p.totalPages === 5)).toBe(true);
  expect(new Set(byCursor.flatMap(skus)).size).toBe(23);
  expect(byCursor.at(-1)!.nextCursor).toBeNull();
  expect(byCursor[0]!.prevCursor).toBeNull();

  // Back from the last page, one page at a time, to the first.
  const back = [byCursor.at(-1)!];
  while (back.at(-1)!.prevCursor)
    back.push(await list(`pageSize=5&cursor=${encodeURIComponent(back.at(-1)!.prevCursor!)}`));
  expect(back.map(skus).reverse()).toEqual(byNumber.map(skus));
});

test("a search's pages, by number, by nextCursor and by prevCursor, hold its matches in the catalog's order, ties included; past its end a page is empty and still counted", async () => {
  const all = [];
  for (let page = 1; page <= 5; page++) all.push(...skus(await list(`page=${page}&pageSize=5`)));
  // "Cursor 1" and "Cursor 10" to "Cursor 19", found as the whole catalog orders them.
  const matching = all.filter((sku) => /^CUR-1\d?$/.test(sku!));
  expect(matching).toHaveLength(11);

  const byNumber = [];
  for (let page = 1; page <= 3; page++)
    byNumber.push(await list(`q=cursor+1&page=${page}&pageSize=4`));
  expect(byNumber.flatMap(skus)).toEqual(matching);
  expect(byNumber.map((p) => [p.total, p.totalExact, p.totalPages])).toEqual([
    [11, true, 3],
    [11, true, 3],
    [11, true, 3],
  ]);

  const byCursor = [byNumber[0]!];
  while (byCursor.at(-1)!.nextCursor)
    byCursor.push(
      await list(
        `q=cursor+1&pageSize=4&cursor=${encodeURIComponent(byCursor.at(-1)!.nextCursor!)}`,
      ),
    );
  expect(byCursor.map(skus)).toEqual(byNumber.map(skus));
  const back = [byCursor.at(-1)!];
  while (back.at(-1)!.prevCursor)
    back.push(
      await list(`q=cursor+1&pageSize=4&cursor=${encodeURIComponent(back.at(-1)!.prevCursor!)}`),
    );
  expect(back.map(skus).reverse()).toEqual(byNumber.map(skus));

  expect(await list("q=cursor+1&page=7&pageSize=4")).toMatchObject({
    items: [],
    total: 11,
    totalExact: true,
  });
  expect(await list("q=no+such+product")).toMatchObject({ items: [], total: 0, totalExact: true });
});

test("an edit and a delete between pages neither repeat nor skip a product on the next page, and the total follows at once", async () => {
  const first = await list("pageSize=5");
  const second = await list(`pageSize=5&cursor=${encodeURIComponent(first.nextCursor!)}`);
  const third = await list(`pageSize=5&cursor=${encodeURIComponent(second.nextCursor!)}`);
  expect(first.total).toBe(23);
  // A product of the first page is edited (it moves to the top) and one of the second page is
  // deleted, both through the API.
  const edited = first.items[2]!;
  const deleted = second.items[1]!;
  const edit = await gw.app.inject({
    method: "PATCH",
    url: `/api/products/${edited.id}`,
    headers: { cookie },
    payload: { title: `${edited.title} (edited)` },
  });
  expect(edit.statusCode).toBe(200);
  const removal = await gw.app.inject({
    method: "DELETE",
    url: `/api/products/${deleted.id}`,
    headers: { cookie },
  });
  expect(removal.statusCode).toBe(204);

  // The next page from the same cursor: the products after the first page's end, as before,
  // without the deleted one; nothing repeated from the first page, nothing skipped.
  const again = await list(`pageSize=5&cursor=${encodeURIComponent(first.nextCursor!)}`);
  expect(skus(again)).toEqual(
    [...skus(second), ...skus(third)].filter((sku) => sku !== deleted.sku).slice(0, 5),
  );
  expect(again.total).toBe(22);
  const rest: ProductList[] = [again];
  while (rest.at(-1)!.nextCursor)
    rest.push(await list(`pageSize=5&cursor=${encodeURIComponent(rest.at(-1)!.nextCursor!)}`));
  const seen = rest.flatMap(skus);
  expect(new Set(seen).size).toBe(seen.length);
  expect(seen).not.toContain(deleted.sku);
  expect(seen).not.toContain(edited.sku);
  // 23 - 1 deleted - the 5 of the first page (the edited one among them, now at the top).
  expect(seen).toHaveLength(17);

  const top = await list("pageSize=5");
  expect(top.items[0]!.sku).toBe(edited.sku);
  expect([top.total, top.totalPages]).toEqual([22, 5]);
});

test("a cursor this service did not make is a 422 with { error }", async () => {
  for (const cursor of [
    "nonsense",
    Buffer.from(JSON.stringify([1, "n", 2, 1, "not-a-uuid"])).toString("base64url"),
    Buffer.from(JSON.stringify([2, "n", 2, 1, "00000000-0000-0000-0000-000000000000"])).toString(
      "base64url",
    ),
    Buffer.from(JSON.stringify([1, "x", 0, 1, "00000000-0000-0000-0000-000000000000"])).toString(
      "base64url",
    ),
    "x".repeat(201),
  ]) {
    const res = await gw.app.inject({
      method: "GET",
      url: `/api/products?cursor=${encodeURIComponent(cursor)}`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatch(/cursor/);
  }
});
