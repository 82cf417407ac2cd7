// Amazon keeps a live listing true to the catalog: the catalog's quantity in
// fulfillment_availability on a full publish, the offer attributes alone patched (the cheap
// route), and every SKU deleted at the listing's end; every request checked against the Listings
// Items contract by the stand-in (useAmazon fails a test that broke it).
import { failureOf, withVariants } from "./channel-fixtures.js";
import { listingInput, product, publishInput } from "./fixtures.js";
import { useAmazon } from "./amazon-seller.js";

const amazon = useAmazon();

type Item = { attributes: Record<string, Array<Record<string, unknown>>> };
const offerOf = (item: Item) => ({
  quantity: item.attributes.fulfillment_availability?.[0]?.quantity,
  channel: item.attributes.fulfillment_availability?.[0]?.fulfillment_channel_code,
});

test("a full publish offers the catalog's quantity, each child its own", async () => {
  const seller = await amazon.connectSeller();
  const prod = withVariants({ quantity: 5 });
  prod.variants[0]!.quantity = 0;
  await amazon.channel.adapter.publish(publishInput(seller, prod));
  await amazon.channel.adapter.publish(
    publishInput(seller, product({ variants: [], quantity: 2 })),
  );
  const [group, single] = amazon.standin.store(seller.storeId).listings;
  const children = (group!.raw as { children: Item[] }).children;
  expect(children.map(offerOf)).toEqual([
    { quantity: 0, channel: "DEFAULT" },
    { quantity: 5, channel: "DEFAULT" },
  ]);
  expect(single!.quantity).toBe(2);
});

test("updateOffer patches only purchasable_offer and fulfillment_availability", async () => {
  const seller = await amazon.connectSeller();
  const prod = product({ variants: [], quantity: 2 });
  const { remoteId } = await amazon.channel.adapter.publish(publishInput(seller, prod));
  const before = amazon.standin.store(seller.storeId);
  await amazon.channel.adapter.updateOffer!(
    listingInput(
      seller,
      { ...prod, title: "Not sent", priceAmount: "12.5000", quantity: 40 },
      remoteId,
    ),
  );
  const after = amazon.standin.store(seller.storeId);
  expect(after.listings[0]).toMatchObject({
    title: before.listings[0]!.title,
    priceAmount: "12.50",
    quantity: 40,
  });
  const route = "/listings/2021-08-01/items/{sellerId}/{sku}";
  const delta = (name: string) =>
    (after.counts.routes[name] ?? 0) - (before.counts.routes[name] ?? 0);
  expect(delta(`PATCH ${route}`)).toBe(1);
  expect(delta(`PUT ${route}`)).toBe(0);
  // No product type definition fetched either: one request in all.
  expect(after.counts.requests - before.counts.requests).toBe(1);
});

test("endListing deletes every SKU; SKUs Amazon does not have count as deleted", async () => {
  const seller = await amazon.connectSeller();
  const prod = withVariants();
  const { remoteId } = await amazon.channel.adapter.publish(publishInput(seller, prod));
  await amazon.channel.adapter.endListing(listingInput(seller, prod, remoteId));
  const { listings, counts } = amazon.standin.store(seller.storeId);
  expect(listings).toEqual([]);
  expect(counts.routes["DELETE /listings/2021-08-01/items/{sellerId}/{sku}"]).toBe(3);
  await amazon.channel.adapter.endListing(listingInput(seller, prod, remoteId));
  amazon.standin.setFault(seller.storeId, { kind: "error", status: 503, times: 1 });
  const error = await failureOf(
    amazon.channel.adapter.endListing(listingInput(seller, prod, remoteId)),
  );
  expect(error).toMatchObject({ outcome: "retry" });
});
