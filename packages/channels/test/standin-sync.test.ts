// The generic stand-in channel keeps a live listing true to the catalog: the quantity on a full
// publish, prices and quantities through PATCH (the cheap route), DELETE at the listing's end; and
// the stand-in kit's declared rate and per-route counts, over the control API too.
import { createStandinAdapter } from "../src/index.js";
import { startStandinChannel, type StandinChannel } from "../src/standins/index.js";
import { failureOf } from "./channel-fixtures.js";
import { destination, listingInput, product, publishInput } from "./fixtures.js";

let standin: StandinChannel;
const adapter = createStandinAdapter({ timeoutMs: 3_000 });

beforeAll(async () => {
  // The declared rate's clock stands still: the rate test cannot see a second pass between calls.
  const frozen = Date.now();
  standin = await startStandinChannel({ now: () => frozen });
});
afterAll(() => standin.close());
afterEach(() => {
  standin.clearFaults();
  standin.setRate(null);
});

test("a full publish carries the quantity; updateOffer changes only prices and quantities", async () => {
  const dest = destination(standin.url);
  const prod = product({ quantity: 4 });
  const { remoteId } = await adapter.publish(publishInput(dest, prod));
  expect(standin.store(dest.storeId).listings[0]).toMatchObject({ quantity: 4 });
  await adapter.updateOffer!(
    listingInput(
      dest,
      {
        ...prod,
        title: "Not sent",
        priceAmount: "5.0000",
        quantity: 0,
        variants: prod.variants.map((v) => ({ ...v, priceAmount: "6.0000", quantity: 2 })),
      },
      remoteId,
    ),
  );
  const { listings, counts } = standin.store(dest.storeId);
  expect(listings[0]).toMatchObject({
    title: prod.title,
    price: { amount: "5.00" },
    quantity: 0,
    variants: [
      expect.objectContaining({ price: { amount: "6.00", currency: "EUR" }, quantity: 2 }),
    ],
  });
  expect(counts.routes).toEqual({ "POST /v1/listings": 1, "PATCH /v1/listings/{id}": 1 });
});

test("endListing deletes the listing; one the channel does not have counts as ended", async () => {
  const dest = destination(standin.url);
  const prod = product();
  const { remoteId } = await adapter.publish(publishInput(dest, prod));
  await adapter.endListing(listingInput(dest, prod, remoteId));
  expect(standin.store(dest.storeId).listings).toEqual([]);
  await adapter.endListing(listingInput(dest, prod, remoteId));
  standin.setFault(dest.storeId, { kind: "error", status: 500, times: 1 });
  expect(await failureOf(adapter.endListing(listingInput(dest, prod, remoteId)))).toMatchObject({
    outcome: "retry",
  });
});

test("a declared rate throttles each store past it with 429 and Retry-After", async () => {
  const dest = destination(standin.url);
  const other = destination(standin.url);
  const set = await fetch(`${standin.url}/_control/rate`, {
    method: "PUT",
    body: JSON.stringify({ perSecond: 2 }),
  });
  expect(await set.json()).toEqual({ perSecond: 2 });
  const get = (store: string) =>
    fetch(`${standin.url}/v1/listings`, { headers: { authorization: `Bearer ${store}:s3cret` } });
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await get(dest.storeId)).status);
  expect(statuses).toEqual([200, 200, 429]);
  const throttled = await get(dest.storeId);
  expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  // Another store has its own allowance.
  expect((await get(other.storeId)).status).toBe(200);
  const inspected = (await (
    await fetch(`${standin.url}/_control/stores/${dest.storeId}`)
  ).json()) as { counts: { routes: Record<string, number> } };
  expect(inspected.counts.routes).toEqual({ "GET /v1/listings": 4 });
  const bad = await fetch(`${standin.url}/_control/rate`, {
    method: "PUT",
    body: JSON.stringify({ perSecond: 0 }),
  });
  expect(bad.status).toBe(400);
});
