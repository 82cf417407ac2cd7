import { randomUUID } from "node:crypto";
import { planListingSyncs } from "@catalog/db";
import { eventually } from "@catalog/testing";
import { documentUpload } from "../../gateway/test/multipart.js";
import { startPipeline, type Pipeline } from "./pipeline-harness.js";

// Automatic sync (issue 29): a change of a live product reaches its listings by itself,
// coalesced, by the cheapest route the change allows, and says why in the sync logs.

let p: Pipeline;
beforeAll(async () => {
  p = await startPipeline();
  p.startWorker();
});
afterAll(() => p.close());

type Listing = {
  destinationAccountId: string;
  status: string;
  remoteId: string | null;
  syncState: string;
  syncError: string | null;
  endedReason: string | null;
};

/** A store's requests by what they do: create (POST), full update (PUT), offer only (PATCH), end. */
const writes = (store: { counts: { create: number; routes: Record<string, number> } }) => ({
  create: store.counts.create,
  full: store.counts.routes["PUT /v1/listings/{id}"] ?? 0,
  offer: store.counts.routes["PATCH /v1/listings/{id}"] ?? 0,
  end: store.counts.routes["DELETE /v1/listings/{id}"] ?? 0,
});

const listingOf = async (productId: string, destinationId: string) => {
  const res = await p.app.inject({
    method: "GET",
    url: `/api/products/${productId}`,
    headers: { cookie: p.cookie },
  });
  return res
    .json<{ listings: Listing[] }>()
    .listings.find((l) => l.destinationAccountId === destinationId)!;
};

const patch = (productId: string, payload: Record<string, unknown>) =>
  p.app.inject({
    method: "PATCH",
    url: `/api/products/${productId}`,
    headers: { cookie: p.cookie },
    payload,
  });

const syncLogs = (productId: string, destinationId: string) =>
  p.db.syncLog.findMany({
    where: { productId, destinationAccountId: destinationId },
    orderBy: { createdAt: "asc" },
  });

/** A product published to a new store, waited for until it is live and in sync. */
async function liveProduct(store: string, label = "Item") {
  const destination = await p.addDestination(store);
  const [productId] = await p.addProducts(1, label);
  await p.publish([productId!], [destination]);
  await eventually(async () => {
    expect(await listingOf(productId!, destination)).toMatchObject({
      status: "published",
      syncState: "inSync",
    });
  }, 10_000);
  return { destination, productId: productId! };
}

const allDone = async (productId: string, destinationId: string) =>
  expect(
    (await syncLogs(productId, destinationId)).every((s) =>
      ["succeeded", "failed", "dead"].includes(s.status),
    ),
  ).toBe(true);

test("a price edit reaches the live listing by the cheap route, the sync log naming who changed what", async () => {
  const { destination, productId } = await liveProduct("price-edit");
  const res = await patch(productId, { price: { amount: "24.50", currency: "EUR" } });
  expect(res.statusCode).toBe(200);
  expect(await listingOf(productId, destination)).toMatchObject({ syncState: "pending" });
  await eventually(async () => {
    expect(p.standin.store("price-edit").listings[0]!.price.amount).toBe("24.50");
    expect(await listingOf(productId, destination)).toMatchObject({
      status: "published",
      syncState: "inSync",
    });
  }, 10_000);
  expect(writes(p.standin.store("price-edit"))).toEqual({ create: 1, full: 0, offer: 1, end: 0 });
  const update = (await syncLogs(productId, destination)).find((s) => s.kind === "update")!;
  expect(update).toMatchObject({
    status: "succeeded",
    trigger: `price changed by ${p.org.member.email}`,
  });
  expect(update.note).toContain("prices and quantities only");
}, 30_000);

test("a title edit is a full update of the same listing", async () => {
  const { destination, productId } = await liveProduct("title-edit");
  await patch(productId, { title: "Renamed item" });
  await eventually(async () => {
    expect(p.standin.store("title-edit").listings[0]!.title).toBe("Renamed item");
    expect(await listingOf(productId, destination)).toMatchObject({ syncState: "inSync" });
  }, 10_000);
  expect(writes(p.standin.store("title-edit"))).toEqual({ create: 1, full: 1, offer: 0, end: 0 });
}, 30_000);

test("a burst of 5 edits is one update carrying the last values", async () => {
  const { destination, productId } = await liveProduct("burst");
  // The workers are away while the edits arrive, as they are when every lane is busy.
  await p.workers.pop()!.close(2_000);
  for (const amount of ["20.01", "20.02", "20.03", "20.04", "20.05"]) {
    expect((await patch(productId, { price: { amount, currency: "EUR" } })).statusCode).toBe(200);
  }
  const queued = (await syncLogs(productId, destination)).filter((s) => s.kind === "update");
  expect(queued).toHaveLength(1);
  p.startWorker();
  await eventually(async () => {
    expect(await listingOf(productId, destination)).toMatchObject({ syncState: "inSync" });
  }, 10_000);
  const store = p.standin.store("burst");
  expect(store.listings[0]!.price.amount).toBe("20.05");
  expect(writes(store)).toEqual({ create: 1, full: 0, offer: 1, end: 0 });
}, 30_000);

test("a change during a running update is carried by one more update after it", async () => {
  const { destination, productId } = await liveProduct("during");
  p.standin.setFault("during", { kind: "slow", delayMs: 1_500, times: 1 });
  await patch(productId, { price: { amount: "30.00", currency: "EUR" } });
  await eventually(async () => {
    const running = (await syncLogs(productId, destination)).find((s) => s.kind === "update");
    expect(running?.status).toBe("running");
  }, 5_000);
  await patch(productId, { price: { amount: "31.00", currency: "EUR" } });
  await eventually(async () => {
    expect(p.standin.store("during").listings[0]!.price.amount).toBe("31.00");
    await allDone(productId, destination);
    expect(await listingOf(productId, destination)).toMatchObject({ syncState: "inSync" });
  }, 10_000);
  const updates = (await syncLogs(productId, destination)).filter((s) => s.kind === "update");
  expect(updates.map((s) => s.status)).toEqual(["succeeded", "succeeded"]);
  expect(writes(p.standin.store("during")).offer).toBe(2);
}, 30_000);

test("a document import that changes a price updates the listing; one that changes nothing makes no call and no sync log", async () => {
  const { destination, productId } = await liveProduct("import");
  const product = await p.db.product.findUniqueOrThrow({ where: { id: productId } });
  const upload = (amount: string, name: string) => {
    const csv = `sku,title,price,currency\n${product.sku},${product.title},${amount},EUR\n`;
    const body = documentUpload(csv, name, { persist: "true" });
    return p.app.inject({
      method: "POST",
      url: "/api/import/document",
      headers: { cookie: p.cookie, ...body.headers },
      payload: body.payload,
    });
  };
  const changed = await upload("21.00", "spring.csv");
  expect(changed.statusCode).toBe(200);
  await eventually(async () => {
    expect(p.standin.store("import").listings[0]!.price.amount).toBe("21.00");
    await allDone(productId, destination);
  }, 10_000);
  const before = p.standin.store("import").counts.requests;
  const logs = (await syncLogs(productId, destination)).length;
  expect((await syncLogs(productId, destination)).at(-1)!.trigger).toBe(
    `price changed by import spring.csv by ${p.org.member.email}`,
  );

  const same = await upload("21.00", "again.csv");
  expect(same.statusCode).toBe(200);
  expect(await syncLogs(productId, destination)).toHaveLength(logs);
  expect(p.standin.store("import").counts.requests).toBe(before);
}, 30_000);

test("an edit of a field no channel receives plans nothing; an update whose view did not change makes no call", async () => {
  const { destination, productId } = await liveProduct("blind");
  const before = p.standin.store("blind").counts.requests;
  await patch(productId, { sourceUrl: "https://supplier.example.com/item" });
  expect(await syncLogs(productId, destination)).toHaveLength(1);

  // A sync planned although nothing the channel receives changed (a re-check finding the same).
  const [record] = await planListingSyncs(p.db, {
    orgId: p.org.org.id,
    productIds: [productId],
    trigger: "source re-check",
  });
  await p.app.queues.publish.enqueue([record!]);
  await eventually(async () => {
    const log = (await syncLogs(productId, destination)).at(-1)!;
    expect(log).toMatchObject({
      status: "succeeded",
      note: "nothing the channel receives changed",
    });
  }, 10_000);
  expect(p.standin.store("blind").counts.requests).toBe(before);
}, 30_000);

test("a destination with automatic sync off gets nothing", async () => {
  const { destination, productId } = await liveProduct("manual");
  await p.db.destinationAccount.update({ where: { id: destination }, data: { autoSync: false } });
  await patch(productId, { price: { amount: "40.00", currency: "EUR" } });
  expect(await syncLogs(productId, destination)).toHaveLength(1);
  expect(await listingOf(productId, destination)).toMatchObject({ syncState: "inSync" });
}, 30_000);

test("an update the channel refuses leaves the listing live, its sync state failed with the reason", async () => {
  const { destination, productId } = await liveProduct("refuses");
  p.standin.setFault("refuses", { kind: "invalid", message: "price too low", times: 1 });
  await patch(productId, { price: { amount: "0.50", currency: "EUR" } });
  await eventually(async () => {
    const listing = await listingOf(productId, destination);
    expect(listing).toMatchObject({ status: "published", syncState: "failed" });
    expect(listing.syncError).toContain("price too low");
    expect(listing.remoteId).toBeTruthy();
  }, 10_000);
}, 30_000);

test("an end job ends the listing on the channel and keeps its remote id", async () => {
  const { destination, productId } = await liveProduct("end");
  const before = await listingOf(productId, destination);
  // What the delisting lane's requestListingEnds records (the listing `ending`, an `end` log).
  const id = randomUUID();
  await p.db.$transaction([
    p.db.syncLog.create({
      data: {
        id,
        jobId: id,
        orgId: p.org.org.id,
        productId,
        destinationAccountId: destination,
        kind: "end",
        trigger: "unpublished by test",
        leaseUntil: new Date(Date.now() + 60_000),
      },
    }),
    p.db.listing.updateMany({
      where: { productId, destinationAccountId: destination },
      data: { status: "ending" },
    }),
  ]);
  await p.app.queues.publish.enqueue([
    { syncLogId: id, orgId: p.org.org.id, productId, destinationAccountId: destination },
  ]);
  await eventually(async () => {
    expect(await listingOf(productId, destination)).toMatchObject({
      status: "ended",
      endedReason: "unpublished by test",
      remoteId: before.remoteId,
    });
  }, 10_000);
  expect(p.standin.store("end").listings).toHaveLength(0);
  expect(writes(p.standin.store("end")).end).toBe(1);
}, 30_000);

test("under endAndRelist, running out of stock ends the listing and stock coming back lists it again", async () => {
  const { destination, productId } = await liveProduct("relist");
  await p.db.destinationAccount.update({
    where: { id: destination },
    data: { outOfStockPolicy: "endAndRelist" },
  });
  // A stock change as the stock lane's writers make it: the quantity stored, the syncs planned.
  const stock = async (quantity: number) => {
    await p.db.product.update({ where: { id: productId }, data: { quantity } });
    const records = await planListingSyncs(p.db, {
      orgId: p.org.org.id,
      productIds: [productId],
      trigger: "quantity changed by test",
    });
    await p.app.queues.publish.enqueue(records);
    return records;
  };
  expect(await stock(0)).toHaveLength(1);
  await eventually(async () => {
    expect(await listingOf(productId, destination)).toMatchObject({
      status: "ended",
      endedReason: "out of stock",
    });
  }, 10_000);
  expect(p.standin.store("relist").listings).toHaveLength(0);

  expect(await stock(5)).toHaveLength(1);
  await eventually(async () => {
    expect(await listingOf(productId, destination)).toMatchObject({
      status: "published",
      endedReason: null,
      syncState: "inSync",
    });
  }, 10_000);
  expect(p.standin.store("relist").listings).toHaveLength(1);
  expect(writes(p.standin.store("relist"))).toMatchObject({ create: 2, end: 1 });
  const kinds = (await syncLogs(productId, destination)).map((s) => s.kind);
  expect(kinds).toEqual(["publish", "update", "publish"]);
}, 30_000);

test("a planned sync that was never enqueued (a crash after the commit) is enqueued by the recovery", async () => {
  const { destination, productId } = await liveProduct("recovered");
  await p.db.product.update({
    where: { id: productId },
    data: { priceAmount: "55.00" },
  });
  await planListingSyncs(p.db, {
    orgId: p.org.org.id,
    productIds: [productId],
    trigger: "price changed by test",
    leaseMs: 0,
  });
  await eventually(async () => {
    expect(p.standin.store("recovered").listings[0]!.price.amount).toBe("55.00");
    expect(await listingOf(productId, destination)).toMatchObject({ syncState: "inSync" });
  }, 10_000);
}, 30_000);
