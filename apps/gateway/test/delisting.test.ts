import { createTestOrg, makeProduct, type TestOrg } from "@catalog/testing";
import { importProducts, removeProductIfAllEnded, type DestinationView } from "@catalog/db";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { connectStandin, privatePrefix } from "./publishing-fixtures.js";
import type {
  DestinationList,
  ProductDeleting,
  ProductForceDeleted,
  UnpublishResponse,
} from "../src/api-types.js";

// Delisting as a merchant meets it: unpublishing, deleting a product that is live on stores,
// disconnecting a store, and the destinations' sync settings. The publish worker (which runs the
// ends) is not started: these tests check what the gateway records and enqueues.

let gw: Gateway;
let t: TestOrg;
let member: string;
let owner: string;

beforeAll(async () => {
  gw = await startGateway({ REDIS_PREFIX: privatePrefix("delisting") });
  t = await createTestOrg(gw.db, "delisting");
  member = await login(gw.app, t.member.email, t.member.password);
  owner = await login(gw.app, t.owner.email, t.owner.password);
});
afterAll(() => gw.close());

const send = (
  method: "GET" | "POST" | "PATCH" | "DELETE",
  url: string,
  cookie: string,
  payload?: object,
  headers: Record<string, string> = {},
) =>
  gw.app.inject({ method, url, headers: { cookie, ...headers }, ...(payload ? { payload } : {}) });

/** The listing as the publish worker leaves it after a publish succeeded. */
const markLive = (productId: string, destinationAccountId: string, remoteId: string) =>
  gw.db.listing.create({
    data: { orgId: t.org.id, productId, destinationAccountId, status: "published", remoteId },
  });

const listingOf = (productId: string, destinationAccountId: string) =>
  gw.db.listing.findUniqueOrThrow({
    where: { productId_destinationAccountId: { productId, destinationAccountId } },
  });

describe("POST /api/products/unpublish", () => {
  let store: DestinationView;
  let other: DestinationView;

  beforeAll(async () => {
    store = await connectStandin(gw, t.org.id, "Unpublish store");
    other = await connectStandin(gw, t.org.id, "Other store");
  });

  test("without a session it is 401", async () => {
    const res = await gw.app.inject({
      method: "POST",
      url: "/api/products/unpublish",
      payload: { productIds: ["x"], destinationAccountIds: ["y"] },
    });
    expect(res.statusCode).toBe(401);
  });

  test("a member ends a live listing: one queued end on the destination's queue, the listing ending, other pairs skipped with the reason", async () => {
    const product = await makeProduct(gw.db, t.org.id, { title: "Wool scarf", sku: "UNP-1" });
    await markLive(product.id, store.id, "remote-unp-1");

    const res = await send("POST", "/api/v1/products/unpublish", member, {
      productIds: [product.id],
      destinationAccountIds: [store.id, other.id],
    });
    expect(res.statusCode).toBe(202);
    const body = res.json<UnpublishResponse>();
    expect(body.accepted).toBe(true);
    expect(body.jobs).toEqual([
      {
        jobId: body.jobs[0]!.syncLogId,
        productId: product.id,
        destinationAccountId: store.id,
        syncLogId: body.jobs[0]!.jobId,
      },
    ]);
    expect(body.skipped).toEqual([
      {
        productId: product.id,
        destinationAccountId: other.id,
        reason: "not listed on this destination",
      },
    ]);

    const job = await gw.app.queues.publish.queue(store.id).getJob(body.jobs[0]!.jobId);
    expect(job?.data).toMatchObject({ syncLogId: body.jobs[0]!.syncLogId, productId: product.id });
    const log = await gw.db.syncLog.findUniqueOrThrow({ where: { id: body.jobs[0]!.syncLogId } });
    expect(log).toMatchObject({
      kind: "end",
      status: "queued",
      trigger: `unpublished by ${t.member.email}`,
      runId: null,
    });
    expect((await listingOf(product.id, store.id)).status).toBe("ending");

    // Asking again while the end is pending queues nothing more.
    const again = await send("POST", "/api/products/unpublish", member, {
      productIds: [product.id],
      destinationAccountIds: [store.id],
    });
    expect(again.statusCode).toBe(202);
    expect(again.json<UnpublishResponse>()).toMatchObject({
      jobs: [],
      skipped: [{ reason: "an end of this listing is already queued or running" }],
    });
  });

  test("a listing that never reached the store is marked ended without a channel call", async () => {
    const product = await makeProduct(gw.db, t.org.id, { title: "Never live" });
    await gw.db.listing.create({
      data: {
        orgId: t.org.id,
        productId: product.id,
        destinationAccountId: store.id,
        status: "failed",
      },
    });
    const res = await send("POST", "/api/products/unpublish", member, {
      productIds: [product.id],
      destinationAccountIds: [store.id],
    });
    expect(res.json<UnpublishResponse>()).toMatchObject({
      jobs: [],
      skipped: [
        {
          productId: product.id,
          destinationAccountId: store.id,
          reason: "never published there: marked ended without a call to the channel",
        },
      ],
    });
    expect(await listingOf(product.id, store.id)).toMatchObject({
      status: "ended",
      endedReason: `unpublished by ${t.member.email}`,
    });
    expect(await gw.db.syncLog.count({ where: { productId: product.id } })).toBe(0);
  });

  test("an unknown product, an unknown or disconnected destination, or empty lists are 422 naming them", async () => {
    const product = await makeProduct(gw.db, t.org.id, { title: "Known" });
    const gone = await connectStandin(gw, t.org.id, "Gone store");
    await send("DELETE", `/api/destinations?id=${gone.id}`, owner);
    const unknown = "7b0e8a36-3f7e-4a3b-9a1c-2b2f0c7d9e11";
    const res = await send("POST", "/api/products/unpublish", member, {
      productIds: [product.id, unknown],
      destinationAccountIds: [gone.id],
    });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toBe(
      `unknown product ids: ${unknown}; unknown or disconnected destination ids: ${gone.id}`,
    );
    for (const payload of [
      { productIds: [], destinationAccountIds: [store.id] },
      { productIds: [product.id], destinationAccountIds: [] },
    ]) {
      const empty = await send("POST", "/api/products/unpublish", member, payload);
      expect(empty.statusCode).toBe(422);
    }
  });

  test("with an Idempotency-Key a repeat answers the first result without queueing again", async () => {
    const product = await makeProduct(gw.db, t.org.id, { title: "Keyed" });
    await markLive(product.id, store.id, "remote-keyed");
    const payload = { productIds: [product.id], destinationAccountIds: [store.id] };
    const headers = { "idempotency-key": `unpublish-${product.id}` };
    const first = await send("POST", "/api/products/unpublish", member, payload, headers);
    const second = await send("POST", "/api/products/unpublish", member, payload, headers);
    expect(first.statusCode).toBe(202);
    expect(second.statusCode).toBe(202);
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(second.json()).toEqual(first.json());
    expect(await gw.db.syncLog.count({ where: { productId: product.id, kind: "end" } })).toBe(1);
  });
});

describe("DELETE /api/products/:id", () => {
  let store: DestinationView;

  beforeAll(async () => {
    store = await connectStandin(gw, t.org.id, "Delete store");
  });

  test("a product live on a store is hidden at once, its listing ended, its SKU free; removed once nothing is live", async () => {
    const product = await makeProduct(gw.db, t.org.id, {
      title: "Retired lamp",
      sku: "DEL-LAMP",
    });
    await markLive(product.id, store.id, "remote-lamp");

    const res = await send("DELETE", `/api/products/${product.id}`, member);
    expect(res.statusCode).toBe(202);
    expect(res.json<ProductDeleting>()).toEqual({
      id: product.id,
      deleted: true,
      endingListings: [
        { destinationAccountId: store.id, channel: "standin", remoteId: "remote-lamp" },
      ],
    });

    // Gone from every catalog read.
    expect((await send("GET", `/api/products/${product.id}`, member)).statusCode).toBe(404);
    const list = await send("GET", "/api/products?pageSize=100", member);
    expect(list.json<{ items: { id: string }[] }>().items.map((p) => p.id)).not.toContain(
      product.id,
    );
    const search = await send("GET", "/api/products?q=Retired%20lamp", member);
    expect(search.json<{ total: number }>().total).toBe(0);
    const publish = await send("POST", "/api/products/publish", member, {
      productIds: [product.id],
      destinationAccountIds: [store.id],
    });
    expect(publish.statusCode).toBe(422);
    expect(errorOf(publish)).toMatch(`unknown product ids: ${product.id}`);
    expect(
      (await send("PATCH", `/api/products/${product.id}`, member, { title: "x" })).statusCode,
    ).toBe(404);
    const history = await send("GET", `/api/products/${product.id}/history`, member);
    expect(history.json<{ items: { action: string }[] }>().items[0]!.action).toBe("deleted");

    // Its listing and remote id are kept while the end is queued.
    const listing = await listingOf(product.id, store.id);
    expect(listing).toMatchObject({ status: "ending", remoteId: "remote-lamp" });
    const end = await gw.db.syncLog.findFirstOrThrow({
      where: { productId: product.id, kind: "end" },
    });
    expect(end).toMatchObject({
      status: "queued",
      trigger: `product deleted by ${t.member.email}`,
    });
    expect((await gw.app.queues.publish.queue(store.id).getJob(end.jobId))?.data.syncLogId).toBe(
      end.id,
    );

    // A new product may take the SKU at once.
    const successor = await makeProduct(gw.db, t.org.id, { title: "New lamp", sku: "DEL-LAMP" });
    expect(successor.id).not.toBe(product.id);

    // The worker's part: removed only once no listing is live.
    expect(await removeProductIfAllEnded(gw.db, product.id)).toBe(false);
    await gw.db.listing.update({ where: { id: listing.id }, data: { status: "ended" } });
    expect(await removeProductIfAllEnded(gw.db, product.id)).toBe(true);
    expect(await gw.db.product.findUnique({ where: { id: product.id } })).toBeNull();
    // A product nobody deleted is never removed.
    expect(await removeProductIfAllEnded(gw.db, successor.id)).toBe(false);
  });

  test("a re-import of a deleted product's SKU or page makes a new product", async () => {
    const page = "https://shop.test/deleted-kettle";
    const product = await makeProduct(gw.db, t.org.id, {
      title: "Kettle",
      sku: "DEL-KETTLE",
      sourceUrl: page,
    });
    await markLive(product.id, store.id, "remote-kettle");
    expect((await send("DELETE", `/api/products/${product.id}`, member)).statusCode).toBe(202);

    const [bySku, byPage] = await importProducts(
      gw.db,
      t.org.id,
      [
        { fields: { title: "Kettle again", sku: "DEL-KETTLE" }, provenance: {} },
        { fields: { title: "Kettle page", sourceUrl: page }, provenance: {} },
      ],
      { actor: { type: "system", id: null }, source: "api", persist: true },
    );
    expect(bySku).toMatchObject({ action: "created" });
    expect(byPage).toMatchObject({ action: "created" });
    expect(bySku!.product.id).not.toBe(product.id);
    expect(byPage!.product.id).not.toBe(product.id);
    // The deleted one keeps its listing and remote id, and its SKU for the end.
    expect(await gw.db.product.findUniqueOrThrow({ where: { id: product.id } })).toMatchObject({
      sku: null,
      deletedSku: "DEL-KETTLE",
    });
    expect((await listingOf(product.id, store.id)).remoteId).toBe("remote-kettle");
  });

  test("a product without live listings is removed at once, as before (204)", async () => {
    const product = await makeProduct(gw.db, t.org.id, { title: "Never published" });
    const res = await send("DELETE", `/api/products/${product.id}`, member);
    expect(res.statusCode).toBe(204);
    expect(await gw.db.product.findUnique({ where: { id: product.id } })).toBeNull();
  });

  test("force is for owners: it removes the product at once and names the listings left live", async () => {
    const product = await makeProduct(gw.db, t.org.id, { title: "Forced" });
    await markLive(product.id, store.id, "remote-forced");

    const refused = await send("DELETE", `/api/products/${product.id}?force=true`, member);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toMatch(/an owner of the org must force a deletion/);

    const res = await send("DELETE", `/api/products/${product.id}?force=true`, owner);
    expect(res.statusCode).toBe(200);
    expect(res.json<ProductForceDeleted>()).toEqual({
      id: product.id,
      deleted: true,
      leftListings: [
        { destinationAccountId: store.id, channel: "standin", remoteId: "remote-forced" },
      ],
    });
    expect(await gw.db.product.findUnique({ where: { id: product.id } })).toBeNull();
  });
});

describe("destinations", () => {
  test("disconnecting says how many listings stay live on the store", async () => {
    const store = await connectStandin(gw, t.org.id, "Disconnected with listings");
    const product = await makeProduct(gw.db, t.org.id, { title: "Stays on the store" });
    await markLive(product.id, store.id, "remote-stays");
    const res = await send("DELETE", `/api/destinations?id=${store.id}`, owner);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: store.id,
      disconnected: true,
      listingsLeftLive: 1,
      message:
        "disconnected; 1 listing stays live on the store: end them there, or unpublish before disconnecting",
    });

    // Deleting the product then ends nothing there (no credentials): the product stays hidden
    // with its listing until an owner forces it.
    expect((await send("DELETE", `/api/products/${product.id}`, member)).statusCode).toBe(202);
    expect(await gw.db.syncLog.count({ where: { productId: product.id, kind: "end" } })).toBe(0);
    expect(await removeProductIfAllEnded(gw.db, product.id)).toBe(false);
  });

  test("owners change the sync settings; the list shows them; members are 403", async () => {
    const store = await connectStandin(gw, t.org.id, "Sync settings");
    const item = async () =>
      (await send("GET", "/api/destinations", member))
        .json<DestinationList>()
        .items.find((d) => d.id === store.id)!;
    expect(await item()).toMatchObject({ autoSync: true, outOfStockPolicy: "keepAtZero" });

    const patch = { autoSync: false, outOfStockPolicy: "endAndRelist" };
    const refused = await send("PATCH", `/api/destinations?id=${store.id}`, member, patch);
    expect(refused.statusCode).toBe(403);

    const res = await send("PATCH", `/api/v1/destinations?id=${store.id}`, owner, patch);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: store.id, ...patch });
    expect(await item()).toMatchObject(patch);

    const bad = await send("PATCH", `/api/destinations?id=${store.id}`, owner, {
      outOfStockPolicy: "sometimes",
    });
    expect(bad.statusCode).toBe(422);
    expect(await item()).toMatchObject(patch);
  });
});
