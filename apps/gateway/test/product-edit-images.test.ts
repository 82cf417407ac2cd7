// An edit's image URLs go through the same public-URL screen as imports: one the policy refuses
// is a 422 naming it and why, and nothing of the edit is stored. (Host names resolve from the
// harness's table, never the network; nothing here connects to any of these addresses.)
import { createTestOrg, makeProduct, type TestOrg } from "@catalog/testing";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import type { ProductDetail } from "../src/api-types.js";

const PUBLIC = "https://cdn.shop.example/lamp.png";
const variant = (image: string | null) => ({
  sku: "LAMP-RED",
  title: "Red",
  price: null,
  options: { Color: "Red" },
  gtin: null,
  availability: null,
  image,
});

describe("with the production policy", () => {
  let gw: Gateway;
  let t: TestOrg;
  let cookie: string;
  beforeAll(async () => {
    gw = await startGateway({ LOCAL_INGEST: "false" });
    t = await createTestOrg(gw.db, "edit-images");
    cookie = await login(gw.app, t.member.email, t.member.password);
  });
  afterAll(() => gw.close());

  const patch = (id: string, payload: object) =>
    gw.app.inject({ method: "PATCH", url: `/api/products/${id}`, headers: { cookie }, payload });

  test.each([
    ["javascript:alert(1)", "is not an http(s) address"],
    ["http://169.254.169.254/latest/meta-data/iam", "is a link-local address"],
    ["http://127.0.0.1:6379/a.png", "is a loopback address"],
    ["http://10.0.0.5/a.png", "is a private address"],
    ["https://user:pw@cdn.shop.example/a.png", "contains a user name or password"],
    [
      "https://cdn.gone.invalid/a.png",
      "has a host that could not be found (DNS lookup failed: ENOTFOUND)",
    ],
  ])("images: %s is refused with 422 naming it and why; nothing is stored", async (url, reason) => {
    const made = await makeProduct(gw.db, t.org.id, { title: "Lamp", images: [PUBLIC] });
    const res = await patch(made.id, { title: "Lamp, new", images: [PUBLIC, url] });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toBe(
      `body field "images[1]" (${url}) ${reason}: images must be public web addresses`,
    );
    const row = await gw.db.product.findUniqueOrThrow({ where: { id: made.id } });
    expect(row).toMatchObject({ title: "Lamp", images: [PUBLIC], version: 1 });
    expect(
      await gw.db.productHistory.count({ where: { productId: made.id, action: "updated" } }),
    ).toBe(0);
    // The product as list and detail show it: untouched.
    const detail = (
      await gw.app.inject({ method: "GET", url: `/api/products/${made.id}`, headers: { cookie } })
    ).json<ProductDetail>();
    expect(detail.images).toEqual([PUBLIC]);
  });

  test("variant images are screened too, and every refused image is named", async () => {
    const made = await makeProduct(gw.db, t.org.id, { title: "Lamp" });
    const res = await patch(made.id, {
      images: ["http://127.0.0.1/a.png"],
      variants: [variant(PUBLIC), variant("http://169.254.169.254/b.png")],
    });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toBe(
      `body field "images[0]" (http://127.0.0.1/a.png) is a loopback address; ` +
        `body field "variants[1].image" (http://169.254.169.254/b.png) is a link-local address: images must be public web addresses`,
    );
    const row = await gw.db.product.findUniqueOrThrow({ where: { id: made.id } });
    expect(row).toMatchObject({ images: [], variants: [], version: 1 });
  });

  test("public image URLs are stored as given", async () => {
    const made = await makeProduct(gw.db, t.org.id, { title: "Lamp" });
    const res = await patch(made.id, {
      images: [PUBLIC, "https://93.184.216.34/b.png"],
      variants: [variant("https://img.shop.example/red.png")],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      images: [PUBLIC, "https://93.184.216.34/b.png"],
      variants: [{ image: "https://img.shop.example/red.png" }],
      version: 2,
    });
  });
});

test("local ingest lets an edit store a private image, never a javascript: one or one whose host cannot be found", async () => {
  const gw = await startGateway({ LOCAL_INGEST: "true" });
  try {
    const t = await createTestOrg(gw.db, "edit-images-local");
    const cookie = await login(gw.app, t.member.email, t.member.password);
    const made = await makeProduct(gw.db, t.org.id, { title: "Lamp" });
    const patch = (payload: object) =>
      gw.app.inject({
        method: "PATCH",
        url: `/api/products/${made.id}`,
        headers: { cookie },
        payload,
      });
    expect((await patch({ images: ["http://127.0.0.1:4999/a.png"] })).statusCode).toBe(200);
    const refused = await patch({
      images: ["javascript:alert(1)", "https://cdn.gone.invalid/a.png"],
    });
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused)).toBe(
      `body field "images[0]" (javascript:alert(1)) is not an http(s) address; ` +
        `body field "images[1]" (https://cdn.gone.invalid/a.png) has a host that could not be found (DNS lookup failed: ENOTFOUND): images must be public web addresses`,
    );
    expect((await gw.db.product.findUniqueOrThrow({ where: { id: made.id } })).images).toEqual([
      "http://127.0.0.1:4999/a.png",
    ]);
  } finally {
    await gw.close();
  }
});
