// WooCommerce keeps a live product true to the catalog: managed stock on a full publish, price and
// stock alone through the product (or variations batch) update, and the product deleted at its
// end; every request checked against the published contract by the stand-in.
import { channelsConfigFrom } from "./channels-env.js";
import { createChannelRegistry, type DestinationTarget } from "../src/index.js";
import { startWoocommerceStandin, type WoocommerceStandin } from "../src/standins/index.js";
import { failureOf, withVariants } from "./channel-fixtures.js";
import { listingInput, product, publishInput } from "./fixtures.js";

let standin: WoocommerceStandin;
let channel: ReturnType<ReturnType<typeof createChannelRegistry>["channel"]>;

beforeAll(async () => {
  standin = await startWoocommerceStandin();
  channel = createChannelRegistry(channelsConfigFrom(standin.env), { timeoutMs: 3_000 }).channel(
    "woocommerce",
  );
});
afterAll(() => standin.close());
afterEach(() => {
  standin.clearFaults();
  expect(standin.violations).toEqual([]);
});

function storeDestination(): DestinationTarget & { storeId: string } {
  const { storeId, storeUrl, consumerKey, consumerSecret } = standin.createStore();
  return {
    id: `dest-${storeId}`,
    channel: "woocommerce",
    baseUrl: storeUrl,
    credentials: { consumerKey, consumerSecret },
    settings: {},
    storeId,
  };
}

const rawOf = (dest: { storeId: string }) =>
  standin.store(dest.storeId).listings.map((l) => l.raw as Record<string, unknown>);

test("a full publish manages stock with the catalog's quantity; an unknown one only sets the status", async () => {
  const dest = storeDestination();
  await channel.adapter.publish(publishInput(dest, product({ variants: [], quantity: 0 })));
  await channel.adapter.publish(publishInput(dest, product({ variants: [], quantity: null })));
  const [known, unknown] = rawOf(dest);
  expect(known).toMatchObject({
    manage_stock: true,
    stock_quantity: 0,
    stock_status: "outofstock",
  });
  expect(unknown).toMatchObject({ stock_status: "instock" });
  expect(unknown).not.toHaveProperty("manage_stock");
});

test("updateOffer sends only price and stock: the product update, or one variations batch", async () => {
  const dest = storeDestination();
  const simple = product({ variants: [], quantity: 4 });
  const variable = withVariants({ quantity: 2 });
  const one = await channel.adapter.publish(publishInput(dest, simple));
  const two = await channel.adapter.publish(publishInput(dest, variable));
  const before = standin.store(dest.storeId).counts.routes;
  await channel.adapter.updateOffer!(
    listingInput(
      dest,
      { ...simple, title: "Not sent", priceAmount: "9.5000", quantity: 12 },
      one.remoteId,
    ),
  );
  await channel.adapter.updateOffer!(
    listingInput(
      dest,
      { ...variable, variants: variable.variants.map((v) => ({ ...v, quantity: 8 })) },
      two.remoteId,
    ),
  );
  const { listings, counts } = standin.store(dest.storeId);
  expect(listings[0]).toMatchObject({ title: simple.title, priceAmount: "9.50", quantity: 12 });
  const variations = (listings[1]!.raw as { variations: number[] }).variations;
  expect(variations).toHaveLength(2);
  expect(listings[1]!.quantity).toBe(8);
  const delta = (route: string) => (counts.routes[route] ?? 0) - (before[route] ?? 0);
  expect(delta("PUT /products/{id}")).toBe(1);
  expect(delta("POST /products/{id}/variations/batch")).toBe(1);
  expect(delta("POST /products")).toBe(0);
});

test("endListing deletes the product for good; one the store does not have counts as ended", async () => {
  const dest = storeDestination();
  const prod = product({ variants: [] });
  const { remoteId } = await channel.adapter.publish(publishInput(dest, prod));
  await channel.adapter.endListing(listingInput(dest, prod, remoteId));
  expect(standin.store(dest.storeId).listings).toEqual([]);
  await channel.adapter.endListing(listingInput(dest, prod, remoteId));
  // Listed again later, it is created anew under the same SKU.
  await channel.adapter.publish(publishInput(dest, prod));
  expect(standin.store(dest.storeId).listings).toHaveLength(1);
  standin.setFault(dest.storeId, { kind: "error", status: 502, times: 1 });
  const error = await failureOf(channel.adapter.endListing(listingInput(dest, prod, "1")));
  expect(error).toMatchObject({ outcome: "retry" });
});

test("a delete that breaks the contract (no force) is refused and recorded", async () => {
  const dest = storeDestination();
  const { consumerKey, consumerSecret } = dest.credentials as Record<string, string>;
  const answer = await fetch(`${dest.baseUrl}/wp-json/wc/v3/products/1`, {
    method: "DELETE",
    headers: {
      authorization: `Basic ${Buffer.from(`${consumerKey}:${consumerSecret}`).toString("base64")}`,
    },
  });
  expect(answer.status).toBe(400);
  expect(standin.violations).toEqual([
    expect.objectContaining({ request: "DELETE /wp-json/wc/v3/products/1" }),
  ]);
  standin.violations.length = 0;
});
